import { DurableObject } from 'cloudflare:workers'
import { eq, min } from 'drizzle-orm'
import { CIRCLE_MESSAGES } from '../../contract/circle'
import { keyMoveDueAt, sweepKeyMove } from '../owner/vault-key-move'
import { RELEASE_MESSAGES } from '../../contract/releases'
import { cancelReleases } from '../engine/cancel'
import { clockTimes, cycleOf, type ClockState } from '../engine/clock'
import { tickOwner } from '../engine/tick'
import { badRequest } from '../lib/errors'
import * as beneficiariesService from '../services/beneficiaries'
import * as triggersService from '../services/triggers'
import * as items from '../services/vault-items'
import { loadAccount, type Account } from '../owner/account'
import { migrateOwnerDb, openOwnerDb, type OwnerDb } from '../owner/db'
import { directoryEntry, directoryNeedsWrite, sameEntry, writeDirectory, type DirectoryEntry } from '../owner/directory'
import { exportVault, importVault, type OwnerExport } from '../owner/export'
import { settle, type Outcome } from '../owner/outcome'
import { deliver, handOverMail, hasPendingMail } from '../owner/pending-mail'
import { blobDeletions, keyRotations, vaultItems } from '../owner/schema'
import { createUnit, LAST_TRUSTED_USE_KEY, type Unit, type UnitEffects } from '../owner/unit'
import * as ownerSessions from '../owner/sessions'
import type { ActOptions, ClockView, OwnerActivity, OwnerHost, OwnerVaultState } from '../owner/host'
import { AccessRequestsFacade } from '../services/access-requests-facade'
import { AuditFacade } from '../services/audit-facade'
import { CircleFacade } from '../services/circle-facade'
import { CircleLinksFacade } from '../services/circle-links-facade'
import { DevFacade } from '../services/dev-facade'
import { EngineFacade } from '../services/triggers-facade'
import { IdentityFacade } from '../services/identity-facade'
import { ItemsFacade } from '../services/vault-items-facade'
import { PoliciesFacade } from '../services/policies-facade'
import { PortalFacade } from '../services/release-links-facade'
import { VaultKeysFacade } from '../services/vault-keys-facade'

/**
 * The object's host (its act machinery) for tests running inside its isolate
 * (`runInDurableObject`): a symbol, which RPC cannot name, so nothing outside can reach it.
 */
export const HOST_OF = Symbol.for('legacy-vault.owner-host')

// Housekeeping retries: mail D1 did not take, and R2 objects R2 did not delete.
const MAIL_RETRY_MS = 60_000
const BLOB_RETRY_MS = 5 * 60_000

const earliest = (...times: Array<number | null | undefined>): number | null => {
  const set = times.filter((t): t is number => typeof t === 'number')
  return set.length ? Math.min(...set) : null
}

/**
 * One per owner (`idFromName(ownerId)`): that owner's whole vault in the object's own SQLite
 * (worker/owner/schema.ts), the check-in clock driven by its alarm, the audit chain and the
 * owner's sessions. It is the only writer of its owner's data, so every act runs as one
 * synchronous transaction (worker/owner/unit.ts) with its audit entry, its e-mails and its plan
 * checks. What the object itself answers: sessions, signs of life, the clock, the whole vault.
 * Each domain's acts are a facade beside its service, handed out by a method of the object
 * (`vault.items().listItems()`: one round trip, the two calls pipelined), reaching the object
 * only through `OwnerHost` (worker/owner/host.ts). Methods answer an Outcome
 * (worker/owner/outcome.ts) so that a client's mistake keeps its status across RPC.
 */
export class OwnerVault extends DurableObject<Env> {
  readonly #db: OwnerDb
  #directoryQueue: Promise<unknown> = Promise.resolve()
  #itemList: { changes: number; text: string } | null = null
  // What the facades may use of this object (an instance property: not reachable over RPC).
  readonly #host: OwnerHost

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    this.#db = openOwnerDb(ctx.storage)
    void ctx.blockConcurrencyWhile(() => migrateOwnerDb(this.#db))
    const self = this
    this.#host = {
      get ownerId() {
        return self.#ownerId
      },
      // Read at each use: a test may put another binding in place for one call.
      get env() {
        return self.env
      },
      db: this.#db,
      storage: ctx.storage,
      act: (account, run, options) => this.#act(account, run, options),
      runTick: (account, now) => this.#runTick(account, now),
      linkOwner: () => this.#linkOwner(),
      clock: (now) => this.#clock(now),
      reading: (now) => this.#reading(now),
      view: (now) => this.#view(now),
      noteActivity: (kind, at) => this.#noteActivity(kind, at),
      updateDirectory: (force) => this.#updateDirectory(force),
      get itemList() {
        return self.#itemList
      },
      set itemList(list) {
        self.#itemList = list
      },
    }
  }

  get [HOST_OF](): OwnerHost {
    return this.#host
  }

  // --- The domains' facades (worker/services/*-facade.ts) -------------------------------------

  keys() {
    return new VaultKeysFacade(this.#host)
  }

  items() {
    return new ItemsFacade(this.#host)
  }

  circle() {
    return new CircleFacade(this.#host)
  }

  policies() {
    return new PoliciesFacade(this.#host)
  }

  access() {
    return new AccessRequestsFacade(this.#host)
  }

  engine() {
    return new EngineFacade(this.#host)
  }

  identity() {
    return new IdentityFacade(this.#host)
  }

  links() {
    return new CircleLinksFacade(this.#host)
  }

  portal() {
    return new PortalFacade(this.#host)
  }

  audit() {
    return new AuditFacade(this.#host)
  }

  /** Local only: the dev routes check before they reach it. */
  dev() {
    return new DevFacade(this.#host)
  }

  get #ownerId(): string {
    const name = this.ctx.id.name
    if (!name) throw new Error('OwnerVault reached without its owner id (use idFromName)')
    return name
  }

  get #kv() {
    return this.ctx.storage.kv
  }

  // --- Acts ---------------------------------------------------------------------------------

  /**
   * Runs one act in one transaction; with `tick`, the engine's tick runs in the same transaction
   * and sets the alarm exactly. Then the act's mail is handed over, its blobs are let go and the
   * directory is brought up to date.
   */
  async #act<T>(account: Account, run: (u: Unit) => T, options: ActOptions<T> = {}): Promise<T> {
    const now = options.now ?? Date.now()
    const { unit, effects } = createUnit(this.ctx.storage, this.env, this.#db, this.#ownerId, account, now)
    const alarm = { exact: false, at: null as number | null }
    const value = this.ctx.storage.transactionSync(() => {
      const result = run(unit)
      if (typeof options.tick === 'function' ? options.tick(result) : options.tick) {
        const tick = tickOwner(unit, this.#clock(now))
        this.#kv.put('clock', tick.state)
        alarm.exact = true
        alarm.at = earliest(tick.nextAt, this.#housekeepingDueAt(now))
      }
      return result
    })
    // Issued in the order the transactions committed, so a slower act never sets an older alarm.
    if (alarm.exact) this.#setAlarm(earliest(alarm.at, effects.dueAt))
    else if (effects.dueAt !== null) this.#armBy(effects.dueAt)
    await this.#afterCommit(effects, options.forceDirectory, options.checkIn)
    return value
  }

  async #afterCommit(effects: UnitEffects, forceDirectory = false, checkIn = false): Promise<void> {
    if (effects.mails > 0) await this.#handOverMail()
    if (effects.blobs > 0) await this.#deleteBlobs()
    await this.#updateDirectory(forceDirectory, checkIn)
  }

  async #handOverMail(): Promise<void> {
    try {
      const ids = await handOverMail(this.env, this.#db)
      if (ids.length) this.ctx.waitUntil(deliver(this.env, ids))
    } catch (error) {
      console.error(`owner ${this.#ownerId}: handing mail to the outbox failed; the alarm retries`, error)
      this.#armBy(Date.now() + MAIL_RETRY_MS)
    }
  }

  /** R2 objects acts let go: deleted now, or retried by the alarm. */
  async #deleteBlobs(): Promise<void> {
    for (const { r2Key } of this.#db.select().from(blobDeletions).limit(100).all()) {
      try {
        await this.env.BLOBS.delete(r2Key)
        this.#db.delete(blobDeletions).where(eq(blobDeletions.r2Key, r2Key)).run()
      } catch (error) {
        console.error(`owner ${this.#ownerId}: deleting ${r2Key} failed; the alarm retries`, error)
        this.#db.update(blobDeletions).set({ attempts: (this.#db.select().from(blobDeletions).where(eq(blobDeletions.r2Key, r2Key)).get()?.attempts ?? 0) + 1 }).where(eq(blobDeletions.r2Key, r2Key)).run()
        this.#armBy(Date.now() + BLOB_RETRY_MS)
      }
    }
  }

  /** Uploads abandoned for a day: their R2 multipart upload is aborted and their row goes. */
  async #expireUploads(now: number): Promise<void> {
    for (const row of items.abandonedUploads(this.#db, now - items.ABANDONED_UPLOAD_MS)) {
      if (row.uploadId) {
        try {
          await this.env.BLOBS.resumeMultipartUpload(row.r2Key, row.uploadId).abort()
        } catch (error) {
          console.error(`owner ${this.#ownerId}: aborting upload ${row.id} failed`, error)
        }
      }
      this.#db.delete(vaultItems).where(eq(vaultItems.id, row.id)).run()
    }
  }

  #housekeepingDueAt(now: number): number | null {
    const oldest = this.#db.select({ at: min(vaultItems.createdAt) }).from(vaultItems).where(eq(vaultItems.status, 'uploading')).get()?.at
    const rotation = this.#db.select({ at: min(keyRotations.createdAt) }).from(keyRotations).get()?.at
    const blobs = this.#db.select({ key: blobDeletions.r2Key }).from(blobDeletions).limit(1).get()
    return earliest(
      oldest == null ? null : oldest + items.ABANDONED_UPLOAD_MS,
      rotation == null ? null : rotation + beneficiariesService.ROTATION_TTL_MS,
      keyMoveDueAt(this.ctx.storage),
      blobs ? now + BLOB_RETRY_MS : null,
      hasPendingMail(this.#db) ? now + MAIL_RETRY_MS : null,
    )
  }

  // --- The alarm and the directory ------------------------------------------------------------

  /** The alarm as last set, kept beside it so acts can compare without waiting on storage. */
  #alarmAt(): number | null {
    return this.#kv.get<number | null>('alarmAt') ?? null
  }

  #setAlarm(at: number | null): void {
    if (at === null) {
      this.#kv.delete('alarmAt')
      void this.ctx.storage.deleteAlarm()
    } else {
      this.#kv.put('alarmAt', at)
      void this.ctx.storage.setAlarm(at)
    }
  }

  /** Something falls due at `at`: ring no later than that (the tick then sets the alarm exactly). */
  #armBy(at: number): void {
    const current = this.#alarmAt()
    if (current === null || current <= Date.now() || at < current) this.#setAlarm(at)
  }

  /**
   * Brings D1's directory row (next due time, counts, heir keys) up to date, one write at a time.
   * Written only when it changed (after a check-in, a due time that only moved later is left:
   * directoryNeedsWrite), unless `force`: a tick writes it anyway, so a row that went wrong (the sweep woke this object
   * for a time it no longer has) is put right.
   */
  #updateDirectory(force = false, checkIn = false): Promise<void> {
    const run = this.#directoryQueue.then(async () => {
      const entry = directoryEntry(this.env, this.#db, this.#alarmAt())
      const previous = this.#kv.get<DirectoryEntry>('directory') ?? null
      if (!force && (checkIn ? !directoryNeedsWrite(previous, entry) : sameEntry(previous, entry))) return
      // Time-based, so it still grows after the object's storage was purged and imported again.
      const revision = Math.max(Date.now(), (this.#kv.get<number>('directoryRevision') ?? 0) + 1)
      this.#kv.put('directoryRevision', revision)
      try {
        await writeDirectory(this.env, this.#ownerId, entry, previous, revision)
        this.#kv.put('directory', entry)
      } catch (error) {
        console.error(`owner ${this.#ownerId}: updating the directory failed; the alarm retries`, error)
        this.#armBy(Date.now() + MAIL_RETRY_MS)
      }
    })
    this.#directoryQueue = run.catch(() => undefined)
    return run
  }

  override async alarm(): Promise<void> {
    this.#kv.delete('alarmAt')
    await this.#runTick(undefined, Date.now())
  }

  async #runTick(given: Account | undefined, now: number): Promise<Account | null> {
    const account = given ?? (await loadAccount(this.env, this.#ownerId))
    if (!account) {
      // The account is gone (its deletion purges this object): nothing to run, nothing to store.
      await this.ctx.storage.deleteAlarm()
      return null
    }
    await this.#handOverMail()
    await this.#deleteBlobs()
    await this.#expireUploads(now)
    beneficiariesService.sweepRotations(this.#db, now - beneficiariesService.ROTATION_TTL_MS)
    sweepKeyMove(this.ctx.storage, now)
    await this.#act(account, () => undefined, { now, tick: true, forceDirectory: true })
    return account
  }

  // --- Clock and activity -------------------------------------------------------------------

  #clock(now: number): ClockState {
    return this.#kv.get<ClockState>('clock') ?? { lastCheckInAt: now, phase: 'ok', checkInSentAt: null }
  }

  /** The clock and the schedule it runs on, as the triggers' views need them. */
  #reading(now: number): triggersService.ClockReading {
    return { state: this.#clock(now), schedule: triggersService.clockSchedule(this.#db), lastTrustedUseAt: this.#kv.get<number>(LAST_TRUSTED_USE_KEY) ?? null }
  }

  /** `purged`: the account is gone and its storage with it, so there are no triggers to read. */
  #view(now: number, purged = false): ClockView {
    const { state, schedule } = purged ? { state: this.#clock(now), schedule: null } : this.#reading(now)
    const cycle = schedule ? cycleOf(state, schedule) : state
    const times = schedule ? clockTimes(cycle, schedule) : null
    return {
      state,
      lastCheckInAt: state.lastCheckInAt,
      phase: cycle.phase,
      nextAlarmAt: this.#alarmAt(),
      schedule,
      nextCheckInAt: times?.dueAt ?? null,
      reminderAt: times?.reminderAt ?? null,
      firesAt: times?.firesAt ?? null,
    }
  }

  // --- Sessions (worker/owner/sessions.ts) ---------------------------------------------------

  /** The account as D1 now has it (account.ts mirrorAccount); null: the account is gone, and its sessions with it. */
  async mirrorAccount(account: Account | null): Promise<void> {
    if (account) return this.#kv.put(ownerSessions.ACCOUNT_KEY, account)
    this.ctx.storage.transactionSync(() => {
      this.#kv.delete(ownerSessions.ACCOUNT_KEY)
      ownerSessions.revokeSessions(this.#db)
    })
  }

  /** A sign-in: the session opens with the account as D1 has it at that moment. */
  async openSession(account: Account, session: ownerSessions.NewSession): Promise<void> {
    this.ctx.storage.transactionSync(() => {
      this.#kv.put(ownerSessions.ACCOUNT_KEY, account)
      ownerSessions.openSession(this.#db, session)
    })
  }

  /** Every authenticated request: its session, live, and the account it is judged by; null otherwise. */
  async authenticate(sessionId: number, now = Date.now()): Promise<ownerSessions.SessionCheck | null> {
    const check = ownerSessions.checkSession(this.#db, this.#kv.get<Account>(ownerSessions.ACCOUNT_KEY), sessionId, now)
    // A trusted browser's use, as often as its session's "last seen" is written.
    if (check?.touched && check.trustedBrowser) {
      this.ctx.waitUntil(this.recordTrustedUse(now, check.account).catch((error) => console.error('trusted use failed', error)))
    }
    return check
  }

  async session(sessionId: number, now = Date.now()) {
    return ownerSessions.sessionRow(this.#db, sessionId, now)
  }

  async listSessions(now = Date.now()) {
    return ownerSessions.listSessions(this.#db, now)
  }

  async revokeSession(sessionId: number): Promise<boolean> {
    return ownerSessions.revokeSession(this.#db, sessionId)
  }

  async revokeSessions(keep?: number): Promise<number> {
    return ownerSessions.revokeSessions(this.#db, keep)
  }

  async markProved(sessionId: number, now = Date.now()): Promise<void> {
    ownerSessions.markProved(this.#db, sessionId, now)
  }

  async markBrowser(browserId: string, trusted: boolean): Promise<void> {
    ownerSessions.markBrowser(this.#db, browserId, trusted)
  }

  async state(): Promise<OwnerVaultState> {
    return { lastActivityAt: this.#kv.get<number>('lastActivityAt') ?? null, lastActivity: this.#kv.get<OwnerActivity>('lastActivity') ?? null }
  }

  #noteActivity(kind: OwnerActivity, at: number): void {
    const previous = this.#kv.get<number>('lastActivityAt') ?? null
    // Activity only moves forward: a delayed, older report cannot rewind it.
    if (previous === null || at >= previous) {
      this.#kv.put('lastActivityAt', at)
      this.#kv.put('lastActivity', kind)
    }
  }

  /** Moves "last trusted use" forward (never back: a delayed, older report cannot rewind it). */
  #noteTrustedUseAt(at: number): void {
    const previous = this.#kv.get<number>(LAST_TRUSTED_USE_KEY) ?? null
    if (previous === null || at > previous) this.#kv.put(LAST_TRUSTED_USE_KEY, at)
  }

  /**
   * A device the owner marked as trusted was used (a trusted browser's requests, a trusted key's
   * assertion): the Loss of trusted devices trigger's clock starts again, and the tick moves its
   * wakeup. Not a check-in: it cancels nothing (a sign-in from such a device does, recordActivity).
   */
  async recordTrustedUse(at: number, account?: Account): Promise<{ lastTrustedUseAt: number | null }> {
    const owner = account ?? (await loadAccount(this.env, this.#ownerId))
    if (owner) await this.#act(owner, () => this.#noteTrustedUseAt(at), { now: at, tick: true })
    return { lastTrustedUseAt: this.#kv.get<number>(LAST_TRUSTED_USE_KEY) ?? null }
  }

  /**
   * A sign of life (registration, sign-in): resets the clock. Only a check-in cancels releases.
   * `trusted`: the sign-in came from a trusted device, which also counts as its use and may stop
   * what a Loss of trusted devices firing started; an untrusted one may not.
   */
  async recordActivity(kind: OwnerActivity, at: number, account?: Account, trusted = false): Promise<OwnerVaultState> {
    this.#noteActivity(kind, at)
    if (trusted) this.#noteTrustedUseAt(at)
    const owner = account ?? (await loadAccount(this.env, this.#ownerId))
    if (owner) {
      await this.#act(
        owner,
        (u) => {
          if (at >= this.#clock(at).lastCheckInAt) this.#kv.put('clock', { lastCheckInAt: at, phase: 'ok', checkInSentAt: null } satisfies ClockState)
          // Signing in is a sign of life: it stops what a death report, silence or failed unlocks started.
          if (kind === 'signed_in') cancelReleases(u, { checkIn: true, via: 'sign-in', trusted }, 'user')
        },
        { now: at, tick: true },
      )
    }
    return this.state()
  }

  /** "I'm still here", from the app or the e-mailed link: resets the clock and cancels what it disproves. */
  async checkIn(via: 'app' | 'email', account?: Account, at = Date.now(), trusted = false): Promise<Outcome<{ clock: ClockView; cancelledReleases: number }>> {
    return settle(async () => {
      const owner = account ?? (await loadAccount(this.env, this.#ownerId))
      if (!owner) throw badRequest(RELEASE_MESSAGES.linkInvalid)
      this.#noteActivity('checked_in', at)
      // An alarm already set for the future no later than the new cycle's check-in e-mail rings in
      // time (early at worst, and that tick sets it for the new time); an alarm for something further
      // off (the firing of an expired clock, a date) would skip it. So the whole tick runs only when
      // the alarm would not ring in time, or when the check-in cancelled something. Whether it does
      // is decided after the check-in's own changes: it may have re-armed the inactivity trigger.
      const alarm = await this.ctx.storage.getAlarm()
      const { cancelledReleases } = await this.#act(
        owner,
        (u) => {
          this.#kv.put('clock', { lastCheckInAt: at, phase: 'ok', checkInSentAt: null } satisfies ClockState)
          u.audit({ actor: 'user', action: 'checkin.recorded', details: { via } })
          if (trusted) this.#noteTrustedUseAt(at)
          const cancelled = cancelReleases(u, { checkIn: true, trusted }, 'user').cancelledReleases
          const schedule = triggersService.clockSchedule(this.#db)
          const dueAt = schedule ? clockTimes({ lastCheckInAt: at, phase: 'ok', checkInSentAt: null }, schedule).dueAt : null
          const ringsInTime = dueAt === null || (alarm !== null && alarm > at && alarm <= dueAt)
          return { cancelledReleases: cancelled, tick: cancelled > 0 || !ringsInTime }
        },
        { now: at, tick: (result) => result.tick, checkIn: true },
      )
      return { clock: this.#view(at), cancelledReleases }
    })
  }

  /** Runs everything due now (settings changed, a report arrived, the sweep saw a lost alarm). */
  async tick(now = Date.now(), account?: Account): Promise<ClockView> {
    const owner = await this.#runTick(account, now)
    return this.#view(now, owner === null)
  }

  async clockView(now = Date.now()): Promise<ClockView> {
    return this.#view(now)
  }

  /** The owner a link acts for; a link to a deleted account is no link. */
  async #linkOwner(): Promise<Account> {
    const owner = await loadAccount(this.env, this.#ownerId)
    if (!owner) throw badRequest(CIRCLE_MESSAGES.linkInvalid)
    return owner
  }

  // --- The whole vault ------------------------------------------------------------------------

  /** Ciphertext and metadata only (worker/owner/export.ts). */
  async exportVault(): Promise<OwnerExport> {
    return exportVault(this.ctx.storage, this.#ownerId)
  }

  /** Loads an export into this (empty, or purged) object, then lets the engine look at it. */
  async importVault(data: OwnerExport) {
    return settle(async () => {
      if (data.ownerId !== this.#ownerId) throw badRequest('This export belongs to another owner.')
      await migrateOwnerDb(this.#db)
      this.ctx.storage.transactionSync(() => importVault(this.ctx.storage, this.#db, data))
      await this.#runTick(undefined, Date.now())
    })
  }

  /** What an account deletion must clean outside this object: open uploads and the directory's heir keys. */
  async deletionManifest(): Promise<{ uploads: Array<{ r2Key: string; uploadId: string }>; heirKeys: number[] }> {
    const uploads = this.#db
      .select({ r2Key: vaultItems.r2Key, uploadId: vaultItems.uploadId })
      .from(vaultItems)
      .where(eq(vaultItems.status, 'uploading'))
      .all()
      .flatMap((u) => (u.uploadId ? [{ r2Key: u.r2Key, uploadId: u.uploadId }] : []))
    return { uploads, heirKeys: directoryEntry(this.env, this.#db, null).heirKeys }
  }

  /**
   * Account deletion (services/account-deletion.ts, after the account's D1 rows are gone): the
   * alarm and everything this object stores go. A later call finds no account and does nothing.
   */
  async purge(): Promise<void> {
    await this.#directoryQueue
    await this.ctx.storage.deleteAlarm()
    await this.ctx.storage.deleteAll()
  }

}
