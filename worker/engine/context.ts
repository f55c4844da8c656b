import type { AuditActor } from '../../contract/audit'
import type { Db } from '../db/client'
import { getDb } from '../db/client'
import { deliverOne, enqueueEmail } from '../mail/outbox'
import { cloudflareSender } from '../mail/sender'
import type { RenderedEmail } from '../mail/templates'

export interface AuditInput {
  actor: AuditActor
  action: string
  details: Record<string, string | number | boolean | null>
}

/** Appends to one owner's audit chain (the owner's Durable Object is the only writer). */
export type AuditSink = (ownerId: string, entry: AuditInput) => Promise<void>

export interface EngineCtx {
  env: Env
  db: Db
  now: number
  audit: AuditSink
}

/** The default sink: the owner's Durable Object over RPC. Inside the DO, pass its own method. */
export function doAuditSink(env: Env): AuditSink {
  return async (ownerId, entry) => {
    try {
      const stub = env.OWNER_GUARD.get(env.OWNER_GUARD.idFromName(ownerId))
      await stub.appendAudit(entry)
    } catch (error) {
      console.error(`audit append for ${ownerId} failed (${entry.action})`, error)
    }
  }
}

export function engineCtx(env: Env, now = Date.now(), audit?: AuditSink): EngineCtx {
  return { env, db: getDb(env), now, audit: audit ?? doAuditSink(env) }
}

/** Records the message in the outbox (the durable promise) and tries to deliver it at once. */
export async function mail(ctx: EngineCtx, to: string, kind: string, message: RenderedEmail): Promise<void> {
  const { id } = await enqueueEmail(ctx.db, { ...message, to, kind }, ctx.now)
  await deliverNow(ctx, id)
}

export async function deliverNow(ctx: EngineCtx, id: string): Promise<void> {
  try {
    await deliverOne(ctx.db, cloudflareSender(ctx.env), id, ctx.now)
  } catch (error) {
    // The outbox row stays pending; the sweep retries it.
    console.error(`email ${id}: immediate delivery failed`, error)
  }
}

export const link = (env: Env, path: string, params: Record<string, string>) =>
  `${env.APP_ORIGIN}${path}?${new URLSearchParams(params).toString()}`
