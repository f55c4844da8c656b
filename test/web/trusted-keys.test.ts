import { afterEach, describe, expect, it } from 'vitest'
import { KEY_SIGNING_MESSAGES } from '../../contract/key-signing'
import { assertTrustedKeys, UntrustedKeyError } from '@/features/circle/trusted-keys'
import { vaultSession, VaultLockedError } from '@/features/vault/vault-session'

// Before anything is wrapped for a beneficiary, the owner's browser checks that the key carries
// this vault's signature (0.2 · 4 of 7): a key the server (or a stolen session) put there is refused,
// naming the beneficiary.

const heir = { fullName: 'Ben Heir', email: 'ben@example.com', keyVersion: 1, publicKey: 'AAAA' }

describe('assertTrustedKeys', () => {
  afterEach(() => vaultSession.lock())

  it('needs the unlocked vault', async () => {
    await expect(assertTrustedKeys([{ ...heir, keySignature: null }])).rejects.toThrow(VaultLockedError)
  })

  it('passes keys this vault signed, and refuses a changed or unconfirmed one by name', async () => {
    await vaultSession.create('a fine passphrase 1!', 'owner-1', async () => undefined)
    const keySignature = await vaultSession.signKey(heir)
    await expect(assertTrustedKeys([{ ...heir, keySignature }])).resolves.toBeUndefined()

    const swapped = assertTrustedKeys([{ ...heir, keySignature }, { ...heir, fullName: 'Eve Intruder', publicKey: 'EVIL', keySignature }])
    await expect(swapped).rejects.toThrow(UntrustedKeyError)
    await expect(swapped).rejects.toThrow(`Eve Intruder: ${KEY_SIGNING_MESSAGES.keyChangedOutside}`)
    await expect(assertTrustedKeys([{ ...heir, email: 'eve@example.com', keySignature }])).rejects.toThrow(KEY_SIGNING_MESSAGES.keyChangedOutside)
    await expect(assertTrustedKeys([{ ...heir, keySignature: null }])).rejects.toThrow(`Ben Heir: ${KEY_SIGNING_MESSAGES.keyNotConfirmed}`)
  })
})
