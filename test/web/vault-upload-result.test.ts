import { describe, expect, it } from 'vitest'
import { VAULT_ITEM_MESSAGES } from '../../contract/vault-items'
import { policyNote, uploadAnnouncement } from '@/features/vault/upload/result-rules'
import type { RunResult, UploadJob } from '@/features/vault/upload/use-upload-queue'

// What the Add Item dialog says when its uploads end.

const job = (name: string, error?: string) => ({ name, error }) as UploadJob
const result = (over: Partial<RunResult>): RunResult => ({ stored: 0, failed: [], cancelled: false, redirected: false, ...over })

describe('the end of an upload', () => {
  it('a cancel is said as a cancel, never as a failure, with what was stored before it, and the dialog stays', () => {
    expect(uploadAnnouncement(result({ cancelled: true, stored: 2 }))).toEqual({
      toast: { title: 'Upload cancelled', description: '2 item(s) were stored before you cancelled.' },
      close: false,
    })
    expect(uploadAnnouncement(result({ cancelled: true }))?.toast.description).toBe('Nothing was stored.')
  })

  it('a failure is said in red, naming the files, with the only one’s reason, and the dialog stays', () => {
    expect(uploadAnnouncement(result({ failed: [job('a.pdf', 'Too big')], stored: 1 }))).toEqual({
      toast: { title: 'Upload failed', description: `${VAULT_ITEM_MESSAGES.uploadFailed('a.pdf')}. Too big`, variant: 'destructive' },
      close: false,
    })
    expect(uploadAnnouncement(result({ failed: [job('a.pdf', 'x'), job('b.png', 'y')] }))?.toast.description).toBe(VAULT_ITEM_MESSAGES.uploadFailed('a.pdf, b.png'))
  })

  it('a complete upload says what was stored, with the policies’ note, and closes the dialog', () => {
    expect(uploadAnnouncement(result({ stored: 1 }), 'Note.')).toEqual({
      toast: { title: 'Upload complete', description: 'Your item was encrypted and added to your vault. Note.', variant: 'success' },
      close: true,
    })
    expect(uploadAnnouncement(result({ stored: 3 }))?.toast.description).toBe('3 items were encrypted and added to your vault.')
  })

  it('says nothing on the way to /subscribe, nor when nothing ended', () => {
    expect(uploadAnnouncement(result({ redirected: true, failed: [job('a.pdf')] }))).toBeNull()
    expect(uploadAnnouncement(result({}))).toBeNull()
  })

  it('the policies’ note names who else received the items, and the policies that could not be read', () => {
    expect(policyNote([], 0)).toBe('')
    expect(policyNote(['Ada'], 0)).toBe('Your active access policies also gave matching items to Ada.')
    expect(policyNote(['Ada', 'Ben', 'Cy'], 1)).toBe(
      'Your active access policies also gave matching items to Ada, Ben and Cy. 1 active policy could not be decrypted and was not applied.',
    )
    expect(policyNote([], 2)).toBe('2 active policies could not be decrypted and were not applied.')
  })
})
