import type { Context } from 'hono'
import type { AuditActor } from '../../contract/audit'
import { doAuditSink, type AuditInput } from '../engine/context'
import type { AppEnv } from '../types'

// The owner's acts, appended to their audit chain (contract/audit.ts) after the act succeeded.
// Details hold ids, counts, types and statuses only: never secrets, keys, wrapped keys, tokens,
// passwords, plaintext, e-mail addresses, names or file names. A failed append is logged by the
// sink and does not fail the act it records.

export type AuditDetails = AuditInput['details']

/** Appends to `ownerId`'s chain: for routes where the owner is not the signed-in user (auth, links). */
export function auditOwner(env: Env, ownerId: string, action: string, details: AuditDetails = {}, actor: AuditActor = 'user'): Promise<void> {
  return doAuditSink(env)(ownerId, { actor, action, details })
}

/** Appends an act of the signed-in owner (after requireUser) to their own chain. */
export function audit(c: Context<AppEnv>, action: string, details: AuditDetails = {}): Promise<void> {
  return auditOwner(c.env, c.var.user.id, action, details)
}
