import { KEY_SIGNING_MESSAGES } from '../../../contract/key-signing'
import { SigningKeyProblemError, vaultSession, type SignedBeneficiaryKey } from '@/features/vault/vault-session'
import { judgeStatements } from './statements'

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
 * Replacing a beneficiary's key goes ahead over a key never confirmed (its kit is what was lost),
 * never over a row changed outside the vault, nor over any other failure of the check.
 */
export function mayReplaceDespite(error: unknown): boolean {
  return error instanceof UntrustedKeyError && error.unconfirmed
}

/**
 * Refuses, naming the first beneficiary at fault, unless every one carries this vault's statement
 * (v2 over owner, sequence, id, name, relationship, e-mail, key version and key, not older than
 * this browser verified before; or a v1 statement over the key and address, not yet restated):
 * what the server's list says is checked here, in the owner's browser, before anything is wrapped
 * for it, so neither a stolen session nor the server can slip in a key, or a retired one, of its
 * own. The vault must be unlocked (VaultLockedError otherwise).
 */
export async function assertTrustedKeys(beneficiaries: ReadonlyArray<SignedBeneficiaryKey>): Promise<void> {
  if (vaultSession.hasSigningProblem()) throw new SigningKeyProblemError()
  const verdicts = await judgeStatements(beneficiaries, { complete: false })
  for (const b of beneficiaries) {
    const verdict = verdicts.get(b.id)
    if (verdict === 'unconfirmed' || verdict === 'changed') throw new UntrustedKeyError(b.fullName, verdict === 'unconfirmed')
  }
}
