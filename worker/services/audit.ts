import type { Context } from 'hono'
import type { AuditActor } from '../../contract/audit'
import { ownerVault } from '../owner/client'
import type { AuditInput } from '../owner/audit-chain'
import type { AppEnv } from '../types'

// Acts on the account (in D1: sign-in, profile, password, billing), entered in the
// owner's audit chain after they succeeded. Acts on the vault itself write their entry inside
// their own transaction in the owner's object instead. Details hold ids, counts, types and
// statuses only: never secrets, keys, tokens, passwords, plaintext, addresses, names or file names.
// A failed append is logged and does not fail the act it records.

export type AuditDetails = AuditInput['details']

/** Appends to `ownerId`'s chain: for routes where the owner is not the signed-in user (auth, links). */
export async function auditOwner(env: Env, ownerId: string, action: string, details: AuditDetails = {}, actor: AuditActor = 'user'): Promise<void> {
  try {
    await ownerVault(env, ownerId).audit().appendAudit({ actor, action, details })
  } catch (error) {
    console.error(`audit append for ${ownerId} failed (${action})`, error)
  }
}

/** Appends an act of the signed-in owner (after requireUser) to their own chain. */
export function audit(c: Context<AppEnv>, action: string, details: AuditDetails = {}): Promise<void> {
  return auditOwner(c.env, c.var.account.id, action, details)
}
