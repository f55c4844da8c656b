import { describe, expect, it } from 'vitest'
import { changedFields, kitDialogMustStay, statedChange } from '@/features/circle/dialog-rules'
import { mayReplaceDespite, UntrustedKeyError } from '@/features/circle/trusted-keys'
import { ApiRequestError } from '@/lib/api-client'

// The beneficiary dialogs (add, edit, replace a key): when they may be left, what is sent, and
// which failure of the trust check a key replacement goes ahead over.

describe('the Access Kit dialog (adding a beneficiary, replacing a key)', () => {
  it('cannot be left while work runs, nor while a kit is shown that was neither downloaded nor confirmed saved', () => {
    const idle = { busy: false, kitShown: false, downloaded: false, confirmed: false }
    expect(kitDialogMustStay(idle)).toBe(false)
    expect(kitDialogMustStay({ ...idle, busy: true })).toBe(true)
    expect(kitDialogMustStay({ ...idle, kitShown: true })).toBe(true)
    expect(kitDialogMustStay({ ...idle, kitShown: true, downloaded: true })).toBe(false)
    expect(kitDialogMustStay({ ...idle, kitShown: true, confirmed: true })).toBe(false)
    expect(kitDialogMustStay({ ...idle, kitShown: true, downloaded: true, busy: true })).toBe(true)
  })
})

describe('Edit Details', () => {
  const stored = { fullName: 'Ben Bell', email: 'ben@example.com', relationship: 'son', delayNotifications: false }

  it('sends only the fields that changed', () => {
    expect(changedFields({ ...stored }, stored)).toEqual({})
    expect(changedFields({ ...stored, relationship: 'nephew', delayNotifications: true }, stored)).toEqual({ relationship: 'nephew', delayNotifications: true })
  })

  it('a changed name, relationship or e-mail needs the vault’s statement; Secrecy Mode alone does not', () => {
    expect(statedChange({ delayNotifications: true } as Record<string, unknown>)).toBeUndefined()
    expect(statedChange({})).toBeUndefined()
    expect(statedChange({ fullName: 'Ben B.' })).toBe('fullName')
    expect(statedChange({ relationship: 'nephew' })).toBe('relationship')
    expect(statedChange({ email: 'b@example.com' })).toBe('email')
    expect(statedChange({ email: 'b@example.com', fullName: 'Ben B.' })).toBe('fullName')
  })
})

describe('replacing a beneficiary’s key', () => {
  it('goes ahead over a key never confirmed, never over one changed outside the vault or another failure', () => {
    expect(mayReplaceDespite(new UntrustedKeyError('Ben', true))).toBe(true)
    expect(mayReplaceDespite(new UntrustedKeyError('Ben', false))).toBe(false)
    expect(mayReplaceDespite(new ApiRequestError(500, 'down', {}))).toBe(false)
    expect(mayReplaceDespite(new Error('unconfirmed'))).toBe(false)
  })
})
