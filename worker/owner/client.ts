import type { Account } from './account'
import type { OwnerActivity } from './host'

/** The owner's object (`idFromName(ownerId)`): reached only by the owner's id, never across owners. */
export function ownerVault(env: Pick<Env, 'OWNER_VAULT'>, ownerId: string) {
  return env.OWNER_VAULT.get(env.OWNER_VAULT.idFromName(ownerId))
}

export type OwnerVaultStub = ReturnType<typeof ownerVault>

/** Tells the owner's object that the owner showed a sign of life. */
export async function recordOwnerActivity(env: Env, account: Account, kind: OwnerActivity, trusted = false): Promise<void> {
  try {
    await ownerVault(env, account.id).recordActivity(kind, Date.now(), account, trusted)
  } catch (error) {
    // A lost report must not fail the sign-in that caused it; it is logged for the operator.
    console.error(`owner ${account.id}: recording ${kind} failed`, error)
  }
}
