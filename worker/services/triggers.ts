import { and, asc, eq } from 'drizzle-orm'
import { z } from 'zod'
import { TRIGGER_MESSAGES, triggerCreateBodySchema, type InactivityConfig, type Trigger } from '../../contract/triggers'
import type { Db } from '../db/client'
import { approvers, beneficiaries, triggers, users, type TriggerRow } from '../db/schema'
import { frequencyDays, inactivityFireAt, type ClockState } from '../engine/clock'
import { link, mail, type EngineCtx } from '../engine/context'
import { deathReportLinkEmail } from '../mail/release-templates'
import { badRequest, conflict, notFound } from '../lib/errors'
import { signLinkToken } from './link-tokens'

type CreateBody = z.output<typeof triggerCreateBodySchema>

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString())

export function toTrigger(row: TriggerRow, clock?: { state: ClockState; pingFrequency: number | null }): Trigger {
  let nextFireAt: number | null = null
  if (row.status === 'active') {
    if (row.type === 'scheduled') nextFireAt = row.fireAt
    if (row.type === 'inactivity' && clock) {
      nextFireAt = inactivityFireAt(clock.state, frequencyDays(clock.pingFrequency), row.config as Partial<InactivityConfig>)
    }
  }
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    config: row.config as Trigger['config'],
    createdAt: new Date(row.createdAt).toISOString(),
    firedAt: iso(row.firedAt),
    nextFireAt: iso(nextFireAt),
  }
}

export async function listTriggers(db: Db, ownerId: string): Promise<TriggerRow[]> {
  return db.select().from(triggers).where(eq(triggers.ownerId, ownerId)).orderBy(asc(triggers.createdAt))
}

export async function findTrigger(db: Db, ownerId: string, id: string): Promise<TriggerRow> {
  const [row] = await db.select().from(triggers).where(and(eq(triggers.id, id), eq(triggers.ownerId, ownerId)))
  if (!row) throw notFound(TRIGGER_MESSAGES.triggerNotFound)
  return row
}

export async function createTrigger(ctx: EngineCtx, ownerId: string, body: CreateBody): Promise<TriggerRow> {
  const { db, now } = ctx
  if (body.type === 'scheduled') {
    const ids = [...new Set(body.config.beneficiaries)]
    const owned = await db.select({ id: beneficiaries.id }).from(beneficiaries).where(eq(beneficiaries.ownerId, ownerId))
    const mine = new Set(owned.map((o) => o.id))
    if (ids.some((id) => !mine.has(id))) throw badRequest(TRIGGER_MESSAGES.unknownBeneficiary)
  }
  const config = body.type === 'scheduled' ? { ...body.config, beneficiaries: [...new Set(body.config.beneficiaries)] } : body.config
  const [row] = await db
    .insert(triggers)
    .values({
      id: crypto.randomUUID(),
      ownerId,
      type: body.type,
      status: body.status,
      config: config as Record<string, unknown>,
      fireAt: body.type === 'scheduled' ? Date.parse(body.config.releaseDate) : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
  await ctx.audit(ownerId, { actor: 'user', action: 'trigger.created', details: { triggerId: row!.id, type: body.type, status: body.status } })
  if (row!.type === 'verified_death' && row!.status === 'active') await sendDeathReportLinks(ctx, ownerId)
  return row!
}

export async function setTriggerStatus(ctx: EngineCtx, ownerId: string, id: string, status: 'active' | 'paused'): Promise<TriggerRow> {
  const current = await findTrigger(ctx.db, ownerId, id)
  if (current.status === 'triggered') throw conflict(TRIGGER_MESSAGES.alreadyTriggered)
  const [row] = await ctx.db
    .update(triggers)
    .set({ status, updatedAt: ctx.now })
    .where(and(eq(triggers.id, id), eq(triggers.ownerId, ownerId), eq(triggers.status, current.status)))
    .returning()
  if (!row) throw conflict(TRIGGER_MESSAGES.alreadyTriggered)
  if (row.status !== current.status) {
    await ctx.audit(ownerId, { actor: 'user', action: status === 'paused' ? 'trigger.paused' : 'trigger.activated', details: { triggerId: id, type: row.type } })
  }
  return row
}

/** Each approver whose address is verified gets a standing link to confirm the owner's death. */
export async function sendDeathReportLinks(ctx: EngineCtx, ownerId: string): Promise<number> {
  const [owner] = await ctx.db.select().from(users).where(eq(users.id, ownerId))
  const list = (await ctx.db.select().from(approvers).where(eq(approvers.ownerId, ownerId))).filter((a) => a.emailVerifiedAt)
  for (const a of list) {
    const token = await signLinkToken(ctx.env, 'deathReport', a.id, undefined, ctx.now)
    await mail(ctx, a.email, 'death_report_link', deathReportLinkEmail({
      approverName: a.fullName,
      ownerName: owner?.displayName ?? 'The vault owner',
      reportUrl: link(ctx.env, '/confirm-death', { token }),
    }))
  }
  return list.length
}
