import { VAULT_ITEM_MESSAGES } from '../../../../contract/vault-items'
import type { RunResult } from './use-upload-queue'

/** What the policies did to this submission, for the closing toast. */
export function policyNote(addedNames: string[], unreadable: number): string {
  const parts: string[] = []
  if (addedNames.length) {
    const who = addedNames.length === 1 ? addedNames[0] : `${addedNames.slice(0, -1).join(', ')} and ${addedNames[addedNames.length - 1]}`
    parts.push(`Your active access policies also gave matching items to ${who}.`)
  }
  if (unreadable) parts.push(`${unreadable === 1 ? '1 active policy' : `${unreadable} active policies`} could not be decrypted and ${unreadable === 1 ? 'was' : 'were'} not applied.`)
  return parts.join(' ')
}

export interface UploadAnnouncement {
  toast: { title: string; description: string; variant?: 'destructive' | 'success' }
  /** Only a complete upload closes the dialog; after a failure or a cancel it stays, to retry or see what was stored. */
  close: boolean
}

/**
 * What the Add Item dialog says when its uploads end: nothing on the way to /subscribe; a failure
 * (in red, naming the files); a cancel, never as a failure (with what was stored before it); or
 * what was stored, with the policies' note.
 */
export function uploadAnnouncement(result: RunResult, note = ''): UploadAnnouncement | null {
  if (result.redirected) return null
  if (result.failed.length > 0) {
    const names = result.failed.map((job) => job.name).join(', ')
    const only = result.failed.length === 1 ? result.failed[0] : undefined
    return {
      toast: {
        title: 'Upload failed',
        description: only?.error ? `${VAULT_ITEM_MESSAGES.uploadFailed(names)}. ${only.error}` : VAULT_ITEM_MESSAGES.uploadFailed(names),
        variant: 'destructive',
      },
      close: false,
    }
  }
  if (result.cancelled) {
    return { toast: { title: 'Upload cancelled', description: result.stored ? `${result.stored} item(s) were stored before you cancelled.` : 'Nothing was stored.' }, close: false }
  }
  if (result.stored > 0) {
    return {
      toast: {
        title: 'Upload complete',
        description: [result.stored === 1 ? 'Your item was encrypted and added to your vault.' : `${result.stored} items were encrypted and added to your vault.`, note]
          .filter(Boolean)
          .join(' '),
        variant: 'success',
      },
      close: true,
    }
  }
  return null
}
