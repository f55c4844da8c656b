import { describe, expect, it } from 'vitest'
import { KEY_SIGNING_MESSAGES } from '../../contract/key-signing'
import { VAULT_MESSAGES } from '../../contract/vault'
import { afterUnlock } from '@/features/vault/unlock-rules'

// What follows a right vault passphrase in the unlock dialog.

describe('after the vault unlocks', () => {
  it('everything fetched is fetched again only when the key moved', () => {
    expect(afterUnlock({ moved: true, signingProblem: false }).refetchAll).toBe(true)
    expect(afterUnlock({ moved: false, signingProblem: false }).refetchAll).toBe(false)
  })

  it('stored items are sealed in the background only while the signing key is sound; a replaced key is said in red', () => {
    const sound = afterUnlock({ moved: false, signingProblem: false })
    expect(sound.sealStored).toBe(true)
    expect(sound.toast).toEqual({ title: VAULT_MESSAGES.unlockedTitle, description: VAULT_MESSAGES.unlockedBody, variant: 'success' })
    const replaced = afterUnlock({ moved: false, signingProblem: true })
    expect(replaced.sealStored).toBe(false)
    expect(replaced.toast).toEqual({ title: VAULT_MESSAGES.unlockedTitle, description: KEY_SIGNING_MESSAGES.signingKeyReplaced, variant: 'destructive' })
  })
})
