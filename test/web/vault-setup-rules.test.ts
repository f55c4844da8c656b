import { describe, expect, it } from 'vitest'
import { VAULT_MESSAGES } from '../../contract/vault'
import { STRENGTH_MIN } from '@/features/vault/passphrase-strength'
import { confirmationMismatch, passphraseReady, passphraseRuleProblem, setupDialogMayChange } from '@/features/vault/setup-rules'

// The rules of a new vault passphrase (the vault's setup, a change from Settings, one set with the
// recovery code), and when the setup dialog may close.

const STRONG = STRENGTH_MIN
const ok = { ok: true, advice: [] }
const guessable = { ok: false, advice: ['Add another word'] }

describe('a new vault passphrase', () => {
  it('may be sent only when given, typed the same twice, strong enough, and not found guessable', () => {
    expect(passphraseReady('a long passphrase', 'a long passphrase', STRONG, null)).toBe(true)
    expect(passphraseReady('a long passphrase', 'a long passphrase', STRONG, ok)).toBe(true)
    expect(passphraseReady('a long passphrase', 'a long passphrase', STRONG - 1, ok)).toBe(false)
    expect(passphraseReady('a long passphrase', 'a long passphrase ', STRONG, ok)).toBe(false)
    expect(passphraseReady('a long passphrase', 'a long passphrase', STRONG, guessable)).toBe(false)
    expect(passphraseReady('', '', STRONG, null)).toBe(false)
  })

  it('says the first rule broken, in order: given, typed the same twice, the caller’s own, strong enough', () => {
    expect(passphraseRuleProblem('', '', 0)).toBe(VAULT_MESSAGES.enterPassphrase)
    expect(passphraseRuleProblem('abc', 'abd', 0)).toBe(VAULT_MESSAGES.passphrasesDoNotMatch)
    expect(passphraseRuleProblem('abc', 'abc', STRONG - 1)).toBe(VAULT_MESSAGES.tooWeak)
    expect(passphraseRuleProblem('abc', 'abc', STRONG)).toBeNull()
    expect(passphraseRuleProblem('abc', 'abc', STRONG - 1, () => 'the same as now')).toBe('the same as now')
    expect(passphraseRuleProblem('abc', 'abd', STRONG, () => 'the same as now')).toBe(VAULT_MESSAGES.passphrasesDoNotMatch)
  })

  it('says "do not match" under the confirmation only once something is typed there', () => {
    expect(confirmationMismatch('abc', '')).toBe(false)
    expect(confirmationMismatch('abc', 'ab')).toBe(true)
    expect(confirmationMismatch('abc', 'abc')).toBe(false)
  })
})

describe('the vault setup dialog', () => {
  it('cannot be closed while the vault is being made, and once the first recovery code is shown closes only through Done', () => {
    expect(setupDialogMayChange({ creating: false, recoveryCodeShown: false, opening: false })).toBe(true)
    expect(setupDialogMayChange({ creating: true, recoveryCodeShown: false, opening: false })).toBe(false)
    expect(setupDialogMayChange({ creating: false, recoveryCodeShown: true, opening: false })).toBe(false)
    expect(setupDialogMayChange({ creating: false, recoveryCodeShown: true, opening: true })).toBe(true)
  })
})
