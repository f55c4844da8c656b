import { and, eq, gt, lte, sql } from 'drizzle-orm'
import { UNLOCK_AUDIT_ACTIONS } from '../../contract/audit'
import { DAY_MS } from '../../contract/constants'
import { TRIGGER_DEFAULTS, TRIGGER_TYPE_LABELS, UNLOCK_FORGIVE_MS, type BiometricConfig, type UnlockKind } from '../../contract/triggers'
import { unlockWarningEmail } from '../mail/release-templates'
import type { OwnerDb } from '../owner/db'
import { triggers, unlockFailures, type TriggerRow } from '../owner/schema'
import type { Unit } from '../owner/unit'

// Failed unlock attempts (the 'biometric_failure' trigger type). A failed attempt (a wrong vault
// passphrase the app reports, or a security key's failed answer the server saw) counts toward a
// trigger only once UNLOCK_FORGIVE_MS have passed without a successful unlock; a successful unlock
// (a right passphrase, or a security key the server verified) deletes the failures of the
// UNLOCK_FORGIVE_MS before it. So an owner who mistypes and then gets it right is never counted,
// while someone who cannot get in is, a quarter of an hour later.

interface WindowStats {
  threshold: number
  windowDays: number
  /** Failures in the trigger's window whose forgiving time is over: they count. */
  counted: number
  /** Failures in the window still inside their forgiving time: a success may yet delete them. */
  pending: number
  countedPassphrases: number
  /** The oldest and newest counted failure, and the oldest pending one. */
  oldestCountedAt: number | null
  newestCountedAt: number | null
  nextPendingAt: number | null
}

/** One trigger's failures: after it was armed, inside its time window, split by the forgiving time. */
function windowStats(db: OwnerDb, t: TriggerRow, now: number): WindowStats {
  const config = t.config as Partial<BiometricConfig>
  const threshold = config.failureThreshold ?? TRIGGER_DEFAULTS.failureThreshold
  const windowDays = config.timeWindow ?? TRIGGER_DEFAULTS.timeWindow
  const from = Math.max(now - windowDays * DAY_MS, t.updatedAt)
  const cut = now - UNLOCK_FORGIVE_MS
  const row = db.get<{ counted: number; pending: number; passphrases: number; oldest: number | null; newest: number | null; next: number | null }>(sql`
    select coalesce(sum(at <= ${cut}), 0) as counted,
           coalesce(sum(at > ${cut}), 0) as pending,
           coalesce(sum(at <= ${cut} and kind = 'vault_unlock'), 0) as passphrases,
           min(case when at <= ${cut} then at end) as oldest,
           max(case when at <= ${cut} then at end) as newest,
           min(case when at > ${cut} then at end) as next
    from unlock_failures where at > ${from}`)
  return {
    threshold,
    windowDays,
    counted: row.counted,
    pending: row.pending,
    countedPassphrases: row.passphrases,
    oldestCountedAt: row.oldest,
    newestCountedAt: row.newest,
    nextPendingAt: row.next,
  }
}

const activeFailedUnlockTriggers = (db: OwnerDb) =>
  db.select().from(triggers).where(and(eq(triggers.status, 'active'), eq(triggers.type, 'biometric_failure'))).all()

/**
 * Further failed attempts before an active Failed unlock attempts trigger starts a release,
 * counting the ones still inside their forgiving time (they will count unless the owner unlocks);
 * the least over such triggers, or null when none is active.
 */
export function attemptsLeft(db: OwnerDb, now: number): number | null {
  const active = activeFailedUnlockTriggers(db)
  if (active.length === 0) return null
  return Math.min(
    ...active.map((t) => {
      const s = windowStats(db, t, now)
      return Math.max(0, s.threshold - s.counted - s.pending)
    }),
  )
}

/** Records a failed attempt and its audit entry (details: kind, counts, a key's reason; nothing else). */
export function recordFailure(u: Unit, kind: UnlockKind, reason?: string): void {
  u.db.insert(unlockFailures).values({ id: crypto.randomUUID(), kind, at: u.now }).run()
  const left = attemptsLeft(u.db, u.now)
  if (kind === 'passkey') {
    u.audit({ actor: 'system', action: UNLOCK_AUDIT_ACTIONS.keyFailed, details: { kind, ...(reason ? { reason } : {}), attemptsLeft: left } })
  } else {
    u.audit({ actor: 'system', action: UNLOCK_AUDIT_ACTIONS.passphraseFailed, details: { kind, attemptsLeft: left } })
  }
}

/** Whether any failure is still inside its forgiving time at `now` (so a success has something to forgive). */
export function hasForgivable(db: OwnerDb, now: number): boolean {
  return (
    db
      .select({ id: unlockFailures.id })
      .from(unlockFailures)
      .where(and(gt(unlockFailures.at, now - UNLOCK_FORGIVE_MS), lte(unlockFailures.at, now)))
      .limit(1)
      .get() !== undefined
  )
}

/** A successful unlock: the failures of the forgiving time before it are deleted, and audited as forgiven. */
export function forgiveFailures(u: Unit, kind: UnlockKind): number {
  const gone = u.db
    .delete(unlockFailures)
    .where(and(gt(unlockFailures.at, u.now - UNLOCK_FORGIVE_MS), lte(unlockFailures.at, u.now)))
    .returning({ id: unlockFailures.id })
    .all()
  if (gone.length > 0) u.audit({ actor: 'user', action: UNLOCK_AUDIT_ACTIONS.forgiven, details: { kind, forgiven: gone.length } })
  return gone.length
}

/**
 * The tick's part (worker/engine/tick.ts): each active Failed unlock attempts trigger fires at its
 * threshold of counted failures; otherwise the engine wakes when the next pending failure's
 * forgiving time ends, and with one attempt left the owner is e-mailed once (see warnOnce).
 */
export function tickFailedUnlocks(u: Unit, active: readonly TriggerRow[], fire: (t: TriggerRow) => void, wakeups: Array<number | null>): void {
  for (const t of active) {
    if (t.type !== 'biometric_failure') continue
    const s = windowStats(u.db, t, u.now)
    if (s.counted >= s.threshold) {
      fire(t)
      continue
    }
    if (s.nextPendingAt !== null) wakeups.push(s.nextPendingAt + UNLOCK_FORGIVE_MS)
    if (s.threshold >= 2 && s.counted === s.threshold - 1) warnOnce(u, t, s)
  }
}

/**
 * One e-mail per episode: the owner is warned when the counted failures reach one short of the
 * threshold, unless a warning for this trigger was already recorded (in the audit chain) since the
 * oldest failure now counted. A new episode begins once those have left the window or the trigger
 * was re-armed. A threshold of 1 has no such moment: the firing's own e-mail tells the owner.
 */
function warnOnce(u: Unit, t: TriggerRow, s: WindowStats): void {
  const since = new Date(s.oldestCountedAt!).toISOString()
  const warned = u.db.get<{ n: number }>(sql`
    select count(*) as n from audit
    where action = ${UNLOCK_AUDIT_ACTIONS.warned} and json_extract(details, '$.triggerId') = ${t.id} and created_at >= ${since}`)
  if (warned.n > 0) return
  u.tell(
    'unlock_warning',
    unlockWarningEmail({
      displayName: u.account.displayName,
      timeZone: u.account.timeZone,
      triggerLabel: TRIGGER_TYPE_LABELS.biometric_failure.title,
      passphrases: s.countedPassphrases,
      keys: s.counted - s.countedPassphrases,
      lastAt: s.newestCountedAt!,
      attemptsLeft: s.threshold - s.counted,
      threshold: s.threshold,
      windowDays: s.windowDays,
      forgiveMinutes: UNLOCK_FORGIVE_MS / 60_000,
      triggersUrl: `${u.env.APP_ORIGIN}/triggers`,
    }),
  )
  u.audit({ actor: 'system', action: UNLOCK_AUDIT_ACTIONS.warned, details: { triggerId: t.id, failures: s.counted, attemptsLeft: s.threshold - s.counted } })
}
