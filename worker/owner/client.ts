import type { Context } from 'hono'
import { timed } from '../middleware/server-timing'
import type { AppEnv } from '../types'
import type { Account } from './account'
import type { OwnerActivity } from './vault-object'

/** The owner's object (`idFromName(ownerId)`): reached only by the owner's id, never across owners. */
export function ownerVault(env: Pick<Env, 'OWNER_VAULT'>, ownerId: string) {
  return env.OWNER_VAULT.get(env.OWNER_VAULT.idFromName(ownerId))
}

export type OwnerVaultStub = ReturnType<typeof ownerVault>

/** In an owner route (after requireUser): the signed-in owner's object and account. */
export function vaultOf(c: Context<AppEnv>): OwnerVaultStub {
  const stub = ownerVault(c.env, c.var.account.id)
  if (!c.get('timings')) return stub
  // Locally, each call's round trip counts under `owner` in the Server-Timing header.
  return new Proxy(stub, {
    get(target, name) {
      const member = Reflect.get(target, name) as unknown
      if (typeof member !== 'function') return member
      // Called as a method of the stub: an RPC method's own `apply` would be sent to the object.
      const stub = target as unknown as Record<string | symbol, (...args: unknown[]) => Promise<unknown>>
      return (...args: unknown[]) => timed(c, 'owner', () => stub[name]!(...args))
    },
  })
}

export function accountIn(c: Context<AppEnv>): Account {
  return c.var.account
}

/** Tells the owner's object that the owner showed a sign of life. */
export async function recordOwnerActivity(env: Env, account: Account, kind: OwnerActivity, trusted = false): Promise<void> {
  try {
    await ownerVault(env, account.id).recordActivity(kind, Date.now(), account, trusted)
  } catch (error) {
    // A lost report must not fail the sign-in that caused it; it is logged for the operator.
    console.error(`owner ${account.id}: recording ${kind} failed`, error)
  }
}
