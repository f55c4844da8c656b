import { KEY_SIGNING_MESSAGES } from '../../../contract/key-signing'
import { SigningKeyProblemError, vaultSession, type SignedBeneficiaryKey } from '@/features/vault/vault-session'

/** A beneficiary whose key this vault did not sign: nothing may be wrapped for it. */
export class UntrustedKeyError extends Error {
  constructor(
    readonly beneficiaryName: string,
    readonly unconfirmed: boolean,
  ) {
    super(`${beneficiaryName}: ${unconfirmed ? KEY_SIGNING_MESSAGES.keyNotConfirmed : KEY_SIGNING_MESSAGES.keyChangedOutside}`)
    this.name = 'UntrustedKeyError'
  }
}

/**
 * Refuses, naming the first beneficiary at fault, unless every key carries this vault's signature
 * over (owner, e-mail, key version, key): what the server's list says is checked here, in the
 * owner's browser, before anything is wrapped for it, so neither a stolen session nor the server
 * can slip in a key of its own. The vault must be unlocked (VaultLockedError otherwise).
 */
export async function assertTrustedKeys(beneficiaries: ReadonlyArray<SignedBeneficiaryKey & { fullName: string }>): Promise<void> {
  if (vaultSession.hasSigningProblem()) throw new SigningKeyProblemError()
  for (const b of beneficiaries) {
    if (!(await vaultSession.isSignedKey(b))) throw new UntrustedKeyError(b.fullName, b.keySignature === null)
  }
}
