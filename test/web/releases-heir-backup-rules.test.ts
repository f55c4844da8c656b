import { describe, expect, it } from 'vitest'
import type { HeirBackupContext } from '../../contract/heir-key-backup'
import { backupOffered, canSaveBackup } from '@/features/releases/heir-backup'
import { kitFileTooLarge, MAX_KIT_FILE_BYTES } from '@/features/releases/portal'

// What the heir is offered around their key: the passphrase backup on the invitation's page, and
// which Access Kit files are read at all.

const context = (released: boolean): HeirBackupContext => ({ ownerId: 'o', beneficiaryId: 'b', keyVersion: 1, publicKey: 'AAAA', hasKeyBackup: false, released })

describe('the heir’s passphrase backup card', () => {
  it('is offered only until items are released to the heir (and not before the context is known)', () => {
    expect(backupOffered(context(false))).toBe(true)
    expect(backupOffered(context(true))).toBe(false)
    expect(backupOffered(undefined)).toBe(false)
  })

  it('Save passphrase backup is enabled only with a kit and a passphrase, one not found guessable, and not while saving', () => {
    const ready = { saving: false, kitText: 'kit', passphrase: 'a passphrase', guessing: null }
    expect(canSaveBackup(ready)).toBe(true)
    expect(canSaveBackup({ ...ready, guessing: { ok: true, advice: [] } })).toBe(true)
    expect(canSaveBackup({ ...ready, guessing: { ok: false, advice: [] } })).toBe(false)
    expect(canSaveBackup({ ...ready, kitText: '' })).toBe(false)
    expect(canSaveBackup({ ...ready, passphrase: '' })).toBe(false)
    expect(canSaveBackup({ ...ready, saving: true })).toBe(false)
  })
})

describe('an Access Kit file', () => {
  it('of exactly 64 KiB is read; one byte more is refused as not a kit', () => {
    expect(MAX_KIT_FILE_BYTES).toBe(64 * 1024)
    expect(kitFileTooLarge(64 * 1024)).toBe(false)
    expect(kitFileTooLarge(64 * 1024 + 1)).toBe(true)
    expect(kitFileTooLarge(3_000)).toBe(false)
  })
})
