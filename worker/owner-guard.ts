import { DurableObject } from 'cloudflare:workers'
import { sql } from 'drizzle-orm'
import { GENESIS_HASH, hashInput, verifyChain, type AuditEntry, type ChainVerification } from '../contract/audit'
import { cancelWaiting } from './engine/cancel'
import { clockTimes, frequencyDays, type ClockState } from './engine/clock'
import { engineCtx, type AuditInput, type EngineCtx } from './engine/context'
import { tickOwner } from './engine/tick'
import { sha256Hex } from './lib/crypto'

export type OwnerActivity = 'registered' | 'signed_in' | 'checked_in'

export interface OwnerGuardState {
  lastActivityAt: number | null
  lastActivity: OwnerActivity | null
}

export interface ClockView {
  state: ClockState
  lastCheckInAt: number
  nextCheckInAt: number
  phase: ClockState['phase']
  nextAlarmAt: number | null
  frequencyDays: number
}

interface AuditHead {
  seq: number
  hash: string
}

/**
 * One per owner (`idFromName(userId)`). The single writer of the owner's inactivity clock, whose
 * alarm drives check-in e-mails and the owner's time-based triggers, and of the owner's audit
 * chain, kept in this object's own SQLite so that each entry links to the one before it.
 */
export class OwnerGuard extends DurableObject<Env> {
  // Ticks and audit appends each run one at a time: both read state, await, then write it back.
  private tickQueue: Promise<unknown> = Promise.resolve()
  private auditQueue: Promise<unknown> = Promise.resolve()

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    ctx.storage.sql.exec(`create table if not exists audit (
      seq integer primary key, id text not null, action text not null, actor text not null,
      details text not null, created_at text not null, hash text not null, prev_hash text not null)`)
  }

  private serial<T>(queue: 'tickQueue' | 'auditQueue', run: () => Promise<T>): Promise<T> {
    const result = this[queue].then(run, run)
    this[queue] = result.catch(() => undefined)
    return result
  }

  private ownerId(given?: string): string {
    if (given) this.ctx.storage.kv.put('ownerId', given)
    const id = given ?? this.ctx.storage.kv.get<string>('ownerId')
    if (!id) throw new Error('OwnerGuard used before it knows its owner')
    return id
  }

  private clock(now: number): ClockState {
    return this.ctx.storage.kv.get<ClockState>('clock') ?? { lastCheckInAt: now, phase: 'ok', checkInSentAt: null }
  }

  private engine(now: number): EngineCtx {
    return engineCtx(this.env, now, async (_ownerId, entry) => {
      await this.appendAudit(entry)
    })
  }

  // --- Activity and the clock -------------------------------------------------------------

  /** A sign of life (registration, sign-in): resets the clock. Only a check-in cancels releases. */
  async recordActivity(kind: OwnerActivity, at: number, ownerId?: string): Promise<OwnerGuardState> {
    if (ownerId) this.ctx.storage.kv.put('ownerId', ownerId)
    const id = this.ctx.storage.kv.get<string>('ownerId')
    const previous = this.ctx.storage.kv.get<number>('lastActivityAt') ?? null
    // Activity only moves the clock forward: a delayed, older report cannot rewind it.
    if (previous === null || at >= previous) {
      this.ctx.storage.kv.put('lastActivityAt', at)
      this.ctx.storage.kv.put('lastActivity', kind)
    }
    if (id) {
      await this.serial('tickQueue', async () => {
        const clock = this.clock(at)
        if (at >= clock.lastCheckInAt) this.ctx.storage.kv.put('clock', { lastCheckInAt: at, phase: 'ok', checkInSentAt: null } satisfies ClockState)
        await this.runTick(id, at)
      })
    }
    return this.state()
  }

  /** "I'm still here", from the app or the e-mailed link. Returns the releases it cancelled. */
  async checkIn(ownerId: string, at: number, via: 'app' | 'email'): Promise<{ clock: ClockView; cancelledReleases: number }> {
    this.ownerId(ownerId)
    this.ctx.storage.kv.put('lastActivityAt', at)
    this.ctx.storage.kv.put('lastActivity', 'checked_in' satisfies OwnerActivity)
    const cancelledReleases = await this.serial('tickQueue', async () => {
      this.ctx.storage.kv.put('clock', { lastCheckInAt: at, phase: 'ok', checkInSentAt: null } satisfies ClockState)
      await this.appendAudit({ actor: 'user', action: 'checkin.recorded', details: { via } })
      const n = await cancelWaiting(this.engine(at), ownerId, { checkIn: true }, 'user')
      await this.runTick(ownerId, at)
      return n
    })
    return { clock: await this.clockView(ownerId, at), cancelledReleases }
  }

  /** Runs everything due now (settings changed, a report arrived, or the sweep saw a lost alarm). */
  async tick(ownerId: string, now = Date.now()): Promise<ClockView> {
    this.ownerId(ownerId)
    await this.serial('tickQueue', () => this.runTick(ownerId, now))
    return this.clockView(ownerId, now)
  }

  override async alarm(): Promise<void> {
    const id = this.ctx.storage.kv.get<string>('ownerId')
    if (!id) return
    await this.serial('tickQueue', () => this.runTick(id, Date.now()))
  }

  async clockView(ownerId: string, now = Date.now()): Promise<ClockView> {
    this.ownerId(ownerId)
    const clock = this.clock(now)
    const [row] = await this.engine(now).db.query.users.findMany({ where: (u, { eq }) => eq(u.id, ownerId), limit: 1 })
    const frequency = frequencyDays(row?.pingFrequency ?? null)
    return {
      state: clock,
      lastCheckInAt: clock.lastCheckInAt,
      nextCheckInAt: clockTimes(clock, frequency).dueAt,
      phase: clock.phase,
      nextAlarmAt: await this.ctx.storage.getAlarm(),
      frequencyDays: frequency,
    }
  }

  private async runTick(ownerId: string, now: number): Promise<void> {
    const ctx = this.engine(now)
    const result = await tickOwner(ctx, ownerId, this.clock(now))
    if (!result) {
      await this.ctx.storage.deleteAlarm()
      return
    }
    this.ctx.storage.kv.put('clock', result.state)
    if (result.nextAlarmAt === null) await this.ctx.storage.deleteAlarm()
    else await this.ctx.storage.setAlarm(result.nextAlarmAt)
    // Mirrored for the sweep, which rings an alarm that should have rung but did not.
    // Written only while the owner exists: an account deleted meanwhile leaves no mirror row.
    await ctx.db.run(sql`insert into owner_clocks (owner_id, next_alarm_at, updated_at)
      select ${ownerId}, ${result.nextAlarmAt}, ${now} where exists (select 1 from users where id = ${ownerId})
      on conflict (owner_id) do update set next_alarm_at = excluded.next_alarm_at, updated_at = excluded.updated_at`)
  }

  /**
   * Account deletion (services/account-deletion.ts, after the owner's D1 rows are gone): drops the
   * alarm, then everything this object stores (clock, activity, the audit chain and its table).
   * It waits behind any running tick and audit append, so neither writes back after it. A later
   * tick finds no owner row and only deletes the alarm; alarm() with no owner id does nothing.
   */
  async purge(): Promise<void> {
    await this.serial('tickQueue', () =>
      this.serial('auditQueue', async () => {
        await this.ctx.storage.deleteAlarm()
        await this.ctx.storage.deleteAll()
      }),
    )
  }

  async state(): Promise<OwnerGuardState> {
    return {
      lastActivityAt: this.ctx.storage.kv.get<number>('lastActivityAt') ?? null,
      lastActivity: this.ctx.storage.kv.get<OwnerActivity>('lastActivity') ?? null,
    }
  }

  // --- The audit chain --------------------------------------------------------------------

  async appendAudit(input: AuditInput): Promise<AuditEntry> {
    return this.serial('auditQueue', async () => {
      const head = this.ctx.storage.kv.get<AuditHead>('auditHead') ?? { seq: 0, hash: GENESIS_HASH }
      const body = { id: crypto.randomUUID(), seq: head.seq + 1, action: input.action, actor: input.actor, details: input.details, createdAt: new Date().toISOString() }
      const hash = await sha256Hex(hashInput(head.hash, body))
      this.ctx.storage.transactionSync(() => {
        this.ctx.storage.sql.exec(
          'insert into audit (seq, id, action, actor, details, created_at, hash, prev_hash) values (?, ?, ?, ?, ?, ?, ?, ?)',
          body.seq, body.id, body.action, body.actor, JSON.stringify(body.details), body.createdAt, hash, head.hash,
        )
        this.ctx.storage.kv.put('auditHead', { seq: body.seq, hash } satisfies AuditHead)
      })
      return { ...body, hash, prevHash: head.hash }
    })
  }

  /** Newest first. */
  async listAudit(limit = 1000): Promise<AuditEntry[]> {
    return this.ctx.storage.sql
      .exec<{ seq: number; id: string; action: string; actor: string; details: string; created_at: string; hash: string; prev_hash: string }>(
        'select * from audit order by seq desc limit ?',
        limit,
      )
      .toArray()
      .map((r) => ({
        id: r.id,
        seq: r.seq,
        action: r.action,
        actor: r.actor as AuditEntry['actor'],
        details: JSON.parse(r.details) as AuditEntry['details'],
        createdAt: r.created_at,
        hash: r.hash,
        prevHash: r.prev_hash,
      }))
  }

  /** The whole chain re-hashed, and its end compared with the head this object wrote last. */
  async verifyAudit(): Promise<ChainVerification & { headMatches: boolean }> {
    const entries = (await this.listAudit(1_000_000)).reverse()
    const result = await verifyChain(entries, sha256Hex)
    const head = this.ctx.storage.kv.get<AuditHead>('auditHead') ?? { seq: 0, hash: GENESIS_HASH }
    const last = entries.at(-1)
    const headMatches = (last?.seq ?? 0) === head.seq && (last?.hash ?? GENESIS_HASH) === head.hash
    return headMatches ? { ...result, headMatches } : { ...result, valid: false, brokenAt: result.brokenAt ?? head.seq, headMatches }
  }
}
