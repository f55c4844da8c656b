import { DurableObject } from 'cloudflare:workers'
import { eq, gt, min, sql } from 'drizzle-orm'
import { DAY_MS, HOUR_MS } from '../../contract/constants'
import { AUDIT_PAGE_MAX, type AuditEntry, type ChainVerification } from '../../contract/audit'
import { CIRCLE_MESSAGES, type ApproverForm, type BeneficiaryUpdateBody } from '../../contract/circle'
import type { HeirKeyBackup } from '../../contract/heir-key-backup'
import type { ReleaseReadiness } from '../../contract/readiness'
import type { PassphraseChangeBody, RecoveryWrapBody } from '../../contract/vault'
import type { KeyMovePageBody, KeyMoveStartBody } from '../../contract/vault-key-move'
import { assertUploadAfterMove, commitKeyMove, keyMoveDueAt, stageKeyMovePage, startKeyMove, sweepKeyMove } from './vault-key-move'
import { RELEASE_MESSAGES, type AssetDownload, type CancelView } from '../../contract/releases'
import { TRIGGER_MESSAGES, TRIGGER_TYPE_LABELS, type ManualReleaseResult, type TriggerType, type TriggerUpdateBody, type UnlockFailureResult, type UnlockKind, type UnlockSuccessResult } from '../../contract/triggers'
import { CHUNK_OVERHEAD_BYTES, SEAL_PAGE_SIZE, VAULT_ITEM_MESSAGES, type SealItemBody, type SealPage, type UploadCompleteBody, type UploadStartBody, type VaultItem } from '../../contract/vault-items'
import { contentDigestOf } from '../../contract/vault-statements'
import { cancelReleases, cancelView } from '../engine/cancel'
import { clockTimes, cycleOf, type ClockState, type Schedule } from '../engine/clock'
import { fire } from '../engine/fire'
import { tickOwner } from '../engine/tick'
import * as unlocks from '../engine/unlock-failures'
import { badRequest, conflict, forbidden, notFound } from '../lib/errors'
import * as accessRequestsService from '../services/access-requests'
import * as approversService from '../services/approvers'
import * as beneficiariesService from '../services/beneficiaries'
import * as circleLinks from '../services/circle-links'
import * as heirBackups from '../services/heir-key-backup'
import * as identity from '../services/identity'
import * as monitor from '../services/engine-monitor'
import * as policiesService from '../services/policies'
import { releaseReadiness } from '../services/readiness'
import { getDb } from '../db/client'
import { bouncingChannelsOf } from '../services/channels'
import * as releaseLinks from '../services/release-links'
import * as renewals from '../services/renewals'
import * as triggersService from '../services/triggers'
import * as items from '../services/vault-items'
import { loadAccount, type Account } from './account'
import { appendAudit, listAudit, listAuditFrom, verifyAudit, type AuditInput } from './audit-chain'
import { migrateOwnerDb, openOwnerDb, type OwnerDb } from './db'
import { directoryEntry, directoryNeedsWrite, sameEntry, writeDirectory, type DirectoryEntry } from './directory'
import { exportVault, importVault, type OwnerExport } from './export'
import { jsonText, settle, type JsonText, type Outcome } from './outcome'
import { verifyVaultSignature } from '../services/key-signing'
import { KEY_SIGNING_MESSAGES } from '../../contract/key-signing'
import { beneficiaryStatement, grantsStatement } from '../../contract/vault-statements'
import { deliver, handOverMail, hasPendingMail } from './pending-mail'
import { blobDeletions, keyRotations, unlockFailures, vaultItems } from './schema'
import { creationIsSooner, needsFreshProof, updateIsSooner, windowIsSooner } from '../services/sooner'
import { createUnit, LAST_TRUSTED_USE_KEY, OWNER_CONFIRMED_KEY, ownerConfirmedIn, SAFETY_WINDOW_KEY, safetyWindowHours, type Unit, type UnitEffects } from './unit'
import { sendHeldInvitations } from '../services/invitations'
import { plantItem, type DevPlantedItem } from './dev-plant'
import * as ownerSessions from './sessions'
import { addSigningKey, changePassphrase, setRecoveryCode, setUpVault, signingPublicKeyOf, VAULT_KEYS, vaultKeysOf, type VaultSigningKey, type VaultSummary } from './vault-keys'

export type OwnerActivity = 'registered' | 'signed_in' | 'checked_in'

export interface OwnerVaultState {
  lastActivityAt: number | null
  lastActivity: OwnerActivity | null
}

export interface ClockView {
  state: ClockState
  lastCheckInAt: number
  phase: ClockState['phase']
  nextAlarmAt: number | null
  /** The schedule the clock runs on: null, like the times below, without an active inactivity trigger. */
  schedule: Schedule | null
  nextCheckInAt: number | null
  reminderAt: number | null
  firesAt: number | null
}

// The highest beneficiary statement sequence accepted (worker/services/beneficiaries.ts, StatementLedger).
export const STATEMENT_SEQUENCE_KEY = 'statementSequence'

// An heir's "send me a new link": one e-mail per address per owner in this time, however often asked.
const PORTAL_LINK_GAP_MS = 10 * 60_000

// Housekeeping retries: mail D1 did not take, and R2 objects R2 did not delete.
const MAIL_RETRY_MS = 60_000
const BLOB_RETRY_MS = 5 * 60_000
// The item list kept in memory up to this size (about 8 MB of text; some thousands of items).
const ITEM_LIST_CACHE_MAX_CHARS = 4_000_000
// Ciphertext read and hashed for one page of sealing, at most (about the time of a large upload).
const SEAL_HASH_BUDGET_BYTES = 256 * 1024 * 1024

const earliest = (...times: Array<number | null | undefined>): number | null => {
  const set = times.filter((t): t is number => typeof t === 'number')
  return set.length ? Math.min(...set) : null
}

/**
 * One per owner (`idFromName(ownerId)`): that owner's whole vault in the object's own SQLite
 * (worker/owner/schema.ts), the check-in clock driven by its alarm, and the audit chain. It is the
 * only writer of its owner's data, so every act runs as one synchronous transaction (worker/owner/
 * unit.ts) with its audit entry, its e-mails and its plan checks; the services in worker/services
 * and worker/engine are its modules. Methods answer an Outcome (worker/owner/outcome.ts) so that a
 * client's mistake keeps its status across RPC.
 */
export class OwnerVault extends DurableObject<Env> {
  private readonly db: OwnerDb
  private directoryQueue: Promise<unknown> = Promise.resolve()
  private itemList: { changes: number; text: JsonText<VaultItem[]> } | null = null

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    this.db = openOwnerDb(ctx.storage)
    void ctx.blockConcurrencyWhile(() => migrateOwnerDb(this.db))
  }

  private get ownerId(): string {
    const name = this.ctx.id.name
    if (!name) throw new Error('OwnerVault reached without its owner id (use idFromName)')
    return name
  }

  private get kv() {
    return this.ctx.storage.kv
  }

  // --- Acts ---------------------------------------------------------------------------------

  /**
   * Runs one act in one transaction; with `tick`, the engine's tick runs in the same transaction
   * and sets the alarm exactly. Then the act's mail is handed over, its blobs are let go and the
   * directory is brought up to date.
   */
  private async act<T>(
    account: Account,
    run: (u: Unit) => T,
    options: { now?: number; tick?: boolean | ((result: T) => boolean); forceDirectory?: boolean; checkIn?: boolean } = {},
  ): Promise<T> {
    const now = options.now ?? Date.now()
    const { unit, effects } = createUnit(this.ctx.storage, this.env, this.db, this.ownerId, account, now)
    const alarm = { exact: false, at: null as number | null }
    const value = this.ctx.storage.transactionSync(() => {
      const result = run(unit)
      if (typeof options.tick === 'function' ? options.tick(result) : options.tick) {
        const tick = tickOwner(unit, this.clock(now))
        this.kv.put('clock', tick.state)
        alarm.exact = true
        alarm.at = earliest(tick.nextAt, this.housekeepingDueAt(now))
      }
      return result
    })
    // Issued in the order the transactions committed, so a slower act never sets an older alarm.
    if (alarm.exact) this.setAlarm(earliest(alarm.at, effects.dueAt))
    else if (effects.dueAt !== null) this.armBy(effects.dueAt)
    await this.afterCommit(effects, options.forceDirectory, options.checkIn)
    return value
  }

  private async afterCommit(effects: UnitEffects, forceDirectory = false, checkIn = false): Promise<void> {
    if (effects.mails > 0) await this.handOverMail()
    if (effects.blobs > 0) await this.deleteBlobs()
    await this.updateDirectory(forceDirectory, checkIn)
  }

  private async handOverMail(): Promise<void> {
    try {
      const ids = await handOverMail(this.env, this.db)
      if (ids.length) this.ctx.waitUntil(deliver(this.env, ids))
    } catch (error) {
      console.error(`owner ${this.ownerId}: handing mail to the outbox failed; the alarm retries`, error)
      this.armBy(Date.now() + MAIL_RETRY_MS)
    }
  }

  /** R2 objects acts let go: deleted now, or retried by the alarm. */
  private async deleteBlobs(): Promise<void> {
    for (const { r2Key } of this.db.select().from(blobDeletions).limit(100).all()) {
      try {
        await this.env.BLOBS.delete(r2Key)
        this.db.delete(blobDeletions).where(eq(blobDeletions.r2Key, r2Key)).run()
      } catch (error) {
        console.error(`owner ${this.ownerId}: deleting ${r2Key} failed; the alarm retries`, error)
        this.db.update(blobDeletions).set({ attempts: (this.db.select().from(blobDeletions).where(eq(blobDeletions.r2Key, r2Key)).get()?.attempts ?? 0) + 1 }).where(eq(blobDeletions.r2Key, r2Key)).run()
        this.armBy(Date.now() + BLOB_RETRY_MS)
      }
    }
  }

  /** Uploads abandoned for a day: their R2 multipart upload is aborted and their row goes. */
  private async expireUploads(now: number): Promise<void> {
    for (const row of items.abandonedUploads(this.db, now - items.ABANDONED_UPLOAD_MS)) {
      if (row.uploadId) {
        try {
          await this.env.BLOBS.resumeMultipartUpload(row.r2Key, row.uploadId).abort()
        } catch (error) {
          console.error(`owner ${this.ownerId}: aborting upload ${row.id} failed`, error)
        }
      }
      this.db.delete(vaultItems).where(eq(vaultItems.id, row.id)).run()
    }
  }

  private housekeepingDueAt(now: number): number | null {
    const oldest = this.db.select({ at: min(vaultItems.createdAt) }).from(vaultItems).where(eq(vaultItems.status, 'uploading')).get()?.at
    const rotation = this.db.select({ at: min(keyRotations.createdAt) }).from(keyRotations).get()?.at
    const blobs = this.db.select({ key: blobDeletions.r2Key }).from(blobDeletions).limit(1).get()
    return earliest(
      oldest == null ? null : oldest + items.ABANDONED_UPLOAD_MS,
      rotation == null ? null : rotation + beneficiariesService.ROTATION_TTL_MS,
      keyMoveDueAt(this.ctx.storage),
      blobs ? now + BLOB_RETRY_MS : null,
      hasPendingMail(this.db) ? now + MAIL_RETRY_MS : null,
    )
  }

  // --- The alarm and the directory ------------------------------------------------------------

  /** The alarm as last set, kept beside it so acts can compare without waiting on storage. */
  private alarmAt(): number | null {
    return this.kv.get<number | null>('alarmAt') ?? null
  }

  private setAlarm(at: number | null): void {
    if (at === null) {
      this.kv.delete('alarmAt')
      void this.ctx.storage.deleteAlarm()
    } else {
      this.kv.put('alarmAt', at)
      void this.ctx.storage.setAlarm(at)
    }
  }

  /** Something falls due at `at`: ring no later than that (the tick then sets the alarm exactly). */
  private armBy(at: number): void {
    const current = this.alarmAt()
    if (current === null || current <= Date.now() || at < current) this.setAlarm(at)
  }

  /**
   * Brings D1's directory row (next due time, counts, heir keys) up to date, one write at a time.
   * Written only when it changed (after a check-in, a due time that only moved later is left:
   * directoryNeedsWrite), unless `force`: a tick writes it anyway, so a row that went wrong (the sweep woke this object
   * for a time it no longer has) is put right.
   */
  private updateDirectory(force = false, checkIn = false): Promise<void> {
    const run = this.directoryQueue.then(async () => {
      const entry = directoryEntry(this.env, this.db, this.alarmAt())
      const previous = this.kv.get<DirectoryEntry>('directory') ?? null
      if (!force && (checkIn ? !directoryNeedsWrite(previous, entry) : sameEntry(previous, entry))) return
      // Time-based, so it still grows after the object's storage was purged and imported again.
      const revision = Math.max(Date.now(), (this.kv.get<number>('directoryRevision') ?? 0) + 1)
      this.kv.put('directoryRevision', revision)
      try {
        await writeDirectory(this.env, this.ownerId, entry, previous, revision)
        this.kv.put('directory', entry)
      } catch (error) {
        console.error(`owner ${this.ownerId}: updating the directory failed; the alarm retries`, error)
        this.armBy(Date.now() + MAIL_RETRY_MS)
      }
    })
    this.directoryQueue = run.catch(() => undefined)
    return run
  }

  override async alarm(): Promise<void> {
    this.kv.delete('alarmAt')
    await this.runTick(undefined, Date.now())
  }

  private async runTick(given: Account | undefined, now: number): Promise<Account | null> {
    const account = given ?? (await loadAccount(this.env, this.ownerId))
    if (!account) {
      // The account is gone (its deletion purges this object): nothing to run, nothing to store.
      await this.ctx.storage.deleteAlarm()
      return null
    }
    await this.handOverMail()
    await this.deleteBlobs()
    await this.expireUploads(now)
    beneficiariesService.sweepRotations(this.db, now - beneficiariesService.ROTATION_TTL_MS)
    sweepKeyMove(this.ctx.storage, now)
    await this.act(account, () => undefined, { now, tick: true, forceDirectory: true })
    return account
  }

  // --- Clock and activity -------------------------------------------------------------------

  private clock(now: number): ClockState {
    return this.kv.get<ClockState>('clock') ?? { lastCheckInAt: now, phase: 'ok', checkInSentAt: null }
  }

  /** The clock and the schedule it runs on, as the triggers' views need them. */
  private reading(now: number): triggersService.ClockReading {
    return { state: this.clock(now), schedule: triggersService.clockSchedule(this.db), lastTrustedUseAt: this.kv.get<number>(LAST_TRUSTED_USE_KEY) ?? null }
  }

  /** `purged`: the account is gone and its storage with it, so there are no triggers to read. */
  private view(now: number, purged = false): ClockView {
    const { state, schedule } = purged ? { state: this.clock(now), schedule: null } : this.reading(now)
    const cycle = schedule ? cycleOf(state, schedule) : state
    const times = schedule ? clockTimes(cycle, schedule) : null
    return {
      state,
      lastCheckInAt: state.lastCheckInAt,
      phase: cycle.phase,
      nextAlarmAt: this.alarmAt(),
      schedule,
      nextCheckInAt: times?.dueAt ?? null,
      reminderAt: times?.reminderAt ?? null,
      firesAt: times?.firesAt ?? null,
    }
  }

  // --- Sessions (worker/owner/sessions.ts) ---------------------------------------------------

  /** The account as D1 now has it (account.ts mirrorAccount); null: the account is gone, and its sessions with it. */
  async mirrorAccount(account: Account | null): Promise<void> {
    if (account) return this.kv.put(ownerSessions.ACCOUNT_KEY, account)
    this.ctx.storage.transactionSync(() => {
      this.kv.delete(ownerSessions.ACCOUNT_KEY)
      ownerSessions.revokeSessions(this.db)
    })
  }

  /** A sign-in: the session opens with the account as D1 has it at that moment. */
  async openSession(account: Account, session: ownerSessions.NewSession): Promise<void> {
    this.ctx.storage.transactionSync(() => {
      this.kv.put(ownerSessions.ACCOUNT_KEY, account)
      ownerSessions.openSession(this.db, session)
    })
  }

  /** Every authenticated request: its session, live, and the account it is judged by; null otherwise. */
  async authenticate(sessionId: number, now = Date.now()): Promise<ownerSessions.SessionCheck | null> {
    const check = ownerSessions.checkSession(this.db, this.kv.get<Account>(ownerSessions.ACCOUNT_KEY), sessionId, now)
    // A trusted browser's use, as often as its session's "last seen" is written.
    if (check?.touched && check.trustedBrowser) {
      this.ctx.waitUntil(this.recordTrustedUse(now, check.account).catch((error) => console.error('trusted use failed', error)))
    }
    return check
  }

  async session(sessionId: number, now = Date.now()) {
    return ownerSessions.sessionRow(this.db, sessionId, now)
  }

  async listSessions(now = Date.now()) {
    return ownerSessions.listSessions(this.db, now)
  }

  async revokeSession(sessionId: number): Promise<boolean> {
    return ownerSessions.revokeSession(this.db, sessionId)
  }

  async revokeSessions(keep?: number): Promise<number> {
    return ownerSessions.revokeSessions(this.db, keep)
  }

  async markProved(sessionId: number, now = Date.now()): Promise<void> {
    ownerSessions.markProved(this.db, sessionId, now)
  }

  async markBrowser(browserId: string, trusted: boolean): Promise<void> {
    ownerSessions.markBrowser(this.db, browserId, trusted)
  }

  async state(): Promise<OwnerVaultState> {
    return { lastActivityAt: this.kv.get<number>('lastActivityAt') ?? null, lastActivity: this.kv.get<OwnerActivity>('lastActivity') ?? null }
  }

  private noteActivity(kind: OwnerActivity, at: number): void {
    const previous = this.kv.get<number>('lastActivityAt') ?? null
    // Activity only moves forward: a delayed, older report cannot rewind it.
    if (previous === null || at >= previous) {
      this.kv.put('lastActivityAt', at)
      this.kv.put('lastActivity', kind)
    }
  }

  /** Moves "last trusted use" forward (never back: a delayed, older report cannot rewind it). */
  private noteTrustedUseAt(at: number): void {
    const previous = this.kv.get<number>(LAST_TRUSTED_USE_KEY) ?? null
    if (previous === null || at > previous) this.kv.put(LAST_TRUSTED_USE_KEY, at)
  }

  /**
   * A device the owner marked as trusted was used (a trusted browser's requests, a trusted key's
   * assertion): the Loss of trusted devices trigger's clock starts again, and the tick moves its
   * wakeup. Not a check-in: it cancels nothing (a sign-in from such a device does, recordActivity).
   */
  async recordTrustedUse(at: number, account?: Account): Promise<{ lastTrustedUseAt: number | null }> {
    const owner = account ?? (await loadAccount(this.env, this.ownerId))
    if (owner) await this.act(owner, () => this.noteTrustedUseAt(at), { now: at, tick: true })
    return { lastTrustedUseAt: this.kv.get<number>(LAST_TRUSTED_USE_KEY) ?? null }
  }

  /**
   * A sign of life (registration, sign-in): resets the clock. Only a check-in cancels releases.
   * `trusted`: the sign-in came from a trusted device, which also counts as its use and may stop
   * what a Loss of trusted devices firing started; an untrusted one may not.
   */
  async recordActivity(kind: OwnerActivity, at: number, account?: Account, trusted = false): Promise<OwnerVaultState> {
    this.noteActivity(kind, at)
    if (trusted) this.noteTrustedUseAt(at)
    const owner = account ?? (await loadAccount(this.env, this.ownerId))
    if (owner) {
      await this.act(
        owner,
        (u) => {
          if (at >= this.clock(at).lastCheckInAt) this.kv.put('clock', { lastCheckInAt: at, phase: 'ok', checkInSentAt: null } satisfies ClockState)
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
      const owner = account ?? (await loadAccount(this.env, this.ownerId))
      if (!owner) throw badRequest(RELEASE_MESSAGES.linkInvalid)
      this.noteActivity('checked_in', at)
      // An alarm already set for the future no later than the new cycle's check-in e-mail rings in
      // time (early at worst, and that tick sets it for the new time); an alarm for something further
      // off (the firing of an expired clock, a date) would skip it. So the whole tick runs only when
      // the alarm would not ring in time, or when the check-in cancelled something. Whether it does
      // is decided after the check-in's own changes: it may have re-armed the inactivity trigger.
      const alarm = await this.ctx.storage.getAlarm()
      const { cancelledReleases } = await this.act(
        owner,
        (u) => {
          this.kv.put('clock', { lastCheckInAt: at, phase: 'ok', checkInSentAt: null } satisfies ClockState)
          u.audit({ actor: 'user', action: 'checkin.recorded', details: { via } })
          if (trusted) this.noteTrustedUseAt(at)
          const cancelled = cancelReleases(u, { checkIn: true, trusted }, 'user').cancelledReleases
          const schedule = triggersService.clockSchedule(this.db)
          const dueAt = schedule ? clockTimes({ lastCheckInAt: at, phase: 'ok', checkInSentAt: null }, schedule).dueAt : null
          const ringsInTime = dueAt === null || (alarm !== null && alarm > at && alarm <= dueAt)
          return { cancelledReleases: cancelled, tick: cancelled > 0 || !ringsInTime }
        },
        { now: at, tick: (result) => result.tick, checkIn: true },
      )
      return { clock: this.view(at), cancelledReleases }
    })
  }

  /** Runs everything due now (settings changed, a report arrived, the sweep saw a lost alarm). */
  async tick(now = Date.now(), account?: Account): Promise<ClockView> {
    const owner = await this.runTick(account, now)
    return this.view(now, owner === null)
  }

  async clockView(now = Date.now()): Promise<ClockView> {
    return this.view(now)
  }

  // --- The audit chain ------------------------------------------------------------------------

  /** An act recorded elsewhere (the account in D1: sign-in, profile, billing) entered in the chain. */
  async appendAudit(entry: AuditInput): Promise<AuditEntry> {
    return this.ctx.storage.transactionSync(() => appendAudit(this.ctx.storage, this.db, entry))
  }

  /** Several entries in one transaction (the dev route that fills a long chain for tests and the bench). */
  async appendAuditMany(entries: AuditInput[]): Promise<number> {
    return this.ctx.storage.transactionSync(() => entries.map((entry) => appendAudit(this.ctx.storage, this.db, entry)).length)
  }

  /** Newest first (the spec's GET /api/audit). */
  async listAudit(limit = AUDIT_PAGE_MAX, before?: number): Promise<AuditEntry[]> {
    return listAudit(this.db, limit, before)
  }

  /** Oldest first from seq `from`: one page of the whole chain. */
  async listAuditFrom(from: number, limit = AUDIT_PAGE_MAX): Promise<AuditEntry[]> {
    return listAuditFrom(this.db, from, limit)
  }

  async verifyAudit(): Promise<ChainVerification & { headMatches: boolean }> {
    return verifyAudit(this.ctx.storage, this.db)
  }

  // --- The vault's keys and its summary -------------------------------------------------------

  /** Sets up the vault once (its salt and passphrase check): a second time is a 409. */
  async setupVault(account: Account, salt: string, check: string, signing: VaultSigningKey, vaultKey: string, recovery?: RecoveryWrapBody) {
    return settle(() => this.act(account, (u) => setUpVault(this.ctx.storage, u, salt, check, signing, vaultKey, recovery)))
  }

  /** A new recovery code's wrap of the vault key, in place of the one before (which no longer opens it). */
  async setRecoveryCode(account: Account, body: RecoveryWrapBody) {
    return settle(() => this.act(account, (u) => setRecoveryCode(this.ctx.storage, u, body)))
  }

  async changePassphrase(account: Account, body: PassphraseChangeBody) {
    return settle(() => this.act(account, (u) => changePassphrase(this.ctx.storage, u, body)))
  }

  // The move of a format-1 vault to a vault key (worker/owner/vault-key-move.ts).
  async startKeyMove(account: Account, body: KeyMoveStartBody) {
    return settle(() => this.act(account, (u) => startKeyMove(this.ctx.storage, u, body)))
  }

  async stageKeyMovePage(account: Account, body: KeyMovePageBody) {
    return settle(() => this.act(account, (u) => stageKeyMovePage(this.ctx.storage, u, body)))
  }

  async commitKeyMove(account: Account) {
    return settle(() => this.act(account, (u) => commitKeyMove(this.ctx.storage, u)))
  }

  async addSigningKey(account: Account, signing: VaultSigningKey) {
    return settle(() => this.act(account, (u) => addSigningKey(this.ctx.storage, u, signing)))
  }

  /** What the account's public view shows of the vault (exact, unlike the directory's copy). */
  async vaultSummary(): Promise<VaultSummary> {
    const keys = vaultKeysOf(this.ctx.storage)
    const usage = items.vaultUsage(this.db, ['active'])
    return { keys: keys && { salt: keys.salt, check: keys.check, signing: keys.signing, vaultKey: keys.vaultKey, recovery: keys.recovery }, itemCount: usage.items, storageUsed: usage.bytes }
  }

  // --- Vault items ----------------------------------------------------------------------------

  /**
   * A key wrapped by a browser still holding the key of before the vault's move (unlocked on
   * another device before the commit) is refused: the app could no longer open it.
   */
  private assertVaultFormat(claimed: 1 | 2 | undefined): void {
    const format = vaultKeysOf(this.ctx.storage)?.vaultKey ? 2 : 1
    if (claimed !== undefined && claimed !== format) throw conflict(VAULT_ITEM_MESSAGES.vaultMovedElsewhere)
  }

  async startUpload(account: Account, body: UploadStartBody) {
    return settle(async () => {
      this.assertVaultFormat(body.vaultFormat)
      items.assertUploadRoom(this.db, account, body.plainSize)
      const itemId = crypto.randomUUID()
      const r2Key = items.itemBlobKey(this.ownerId, itemId)
      const upload = await this.env.BLOBS.createMultipartUpload(r2Key, { httpMetadata: { contentType: 'application/octet-stream' } })
      try {
        return await this.act(account, (u) => items.reserveUpload(u, body, { itemId, r2Key, uploadId: upload.uploadId }))
      } catch (error) {
        // Another upload took the room meanwhile.
        await upload.abort().catch(() => undefined)
        throw error
      }
    })
  }

  async uploadSession(itemId: string) {
    return settle(() => items.uploadSession(this.db, items.findUpload(this.db, itemId)))
  }

  async partTarget(itemId: string, partNumber: number) {
    return settle(() => items.partTarget(this.db, itemId, partNumber))
  }

  async recordPart(itemId: string, partNumber: number, etag: string, size: number, digest: string) {
    return settle(() => items.recordPart(this.db, itemId, partNumber, etag, size, digest))
  }

  /** 400 naming `field` unless `signature` is the vault's over `text`; 409 for a vault without a signing key. */
  private async checkVaultSignature(text: string, signature: string, field: string, message: string): Promise<void> {
    if (!(await verifyVaultSignature(signingPublicKeyOf(this.ctx.storage), text, signature))) throw badRequest(`${field}: ${message}`, { errors: [{ field, message }] })
  }

  /**
   * Completes an upload only with the vault's signature over the manifest the object rebuilds from
   * what it holds (checked before R2 assembles anything: a refused upload can still be retried or
   * aborted), then again, without waiting, in the act that stores it.
   */
  async completeUpload(account: Account, itemId: string, body: UploadCompleteBody) {
    return settle(async () => {
      assertUploadAfterMove(this.ctx.storage, items.findUpload(this.db, itemId).createdAt)
      const { row, parts, manifest } = items.completionPlan(this.db, this.ownerId, itemId, body)
      await this.checkVaultSignature(manifest, body.manifestSignature, 'manifestSignature', VAULT_ITEM_MESSAGES.manifestInvalid)
      let size: number
      try {
        size = (await this.env.BLOBS.resumeMultipartUpload(row.r2Key, row.uploadId!).complete(parts)).size
      } catch (error) {
        // A retried or concurrent completion (or an abort) got there first: that request answers.
        items.findUpload(this.db, itemId)
        throw error
      }
      const result = await this.act(account, (u) => items.activateUpload(u, itemId, body, size, manifest))
      if (!result.ok) throw result.error
      return result.item
    })
  }

  async abortUpload(itemId: string) {
    return settle(async () => {
      const { r2Key, uploadId } = this.ctx.storage.transactionSync(() => items.discardUpload(this.db, itemId))
      if (uploadId) await this.env.BLOBS.resumeMultipartUpload(r2Key, uploadId).abort().catch((error: unknown) => console.error(`aborting upload ${itemId} failed`, error))
    })
  }

  /**
   * The item list, as JSON text. Kept in memory while the object's SQLite reports no change at all
   * since it was made (total_changes() counts every row any statement of this connection wrote,
   * rolled back or not, so any write anywhere makes it stale): the app reads the list again on
   * every visit and tab return, and it rarely changed in between.
   */
  async listItems() {
    return settle(() => {
      const changes = this.ctx.storage.sql.exec<{ n: number }>('select total_changes() as n').one().n
      if (this.itemList?.changes === changes) return this.itemList.text
      const text = jsonText(items.listItems(this.db))
      this.itemList = text.length <= ITEM_LIST_CACHE_MAX_CHARS ? { changes, text } : null
      return text
    })
  }

  async estateItems() {
    return settle(() => items.estateItems(this.db))
  }

  async itemBlob(itemId: string) {
    return settle(() => items.findActiveItem(this.db, itemId).r2Key)
  }

  async putGrants(account: Account, itemId: string, body: { grants: Array<{ beneficiaryId: string; wrappedKey: string; keyVersion?: number | undefined }>; grantsSignature: string }) {
    return settle(async () => {
      const { statement } = items.grantsPlan(this.db, this.ownerId, itemId, body.grants)
      await this.checkVaultSignature(statement, body.grantsSignature, 'grantsSignature', VAULT_ITEM_MESSAGES.grantsSignatureInvalid)
      return this.act(account, (u) => items.putGrants(u, itemId, body.grants, statement))
    })
  }

  /**
   * A page of items stored before manifests, for the owner's browser to seal. An item's content
   * digest is computed here from its R2 object the first time (and kept); an item whose object is
   * gone is reported apart. Hashing stops for this page past SEAL_HASH_BUDGET_BYTES.
   */
  async sealPage(after: string | undefined) {
    return settle(async (): Promise<SealPage> => {
      const rows = items.unsealedRows(this.db, after)
      const page: SealPage = { items: [], missing: [], next: rows.length === SEAL_PAGE_SIZE ? rows.at(-1)!.id : null }
      let hashed = 0
      for (const [i, row] of rows.entries()) {
        if (!row.contentDigest) {
          // Never at the first row (nothing hashed yet), so every page moves on.
          if (hashed >= SEAL_HASH_BUDGET_BYTES) {
            page.next = rows[i - 1]!.id
            break
          }
          const digest = await this.storedContentDigest(row)
          hashed += row.cipherSize
          if (!digest) {
            page.missing.push(row.id)
            continue
          }
          items.recordContentDigest(this.db, row.id, digest)
          row.contentDigest = digest
        }
        page.items.push(items.unsealedItem(this.db, row))
      }
      return page
    })
  }

  /** The content digest of a stored item from its R2 object; null if the object is gone or not the item's size. */
  private async storedContentDigest(row: { r2Key: string; cipherSize: number; chunkBytes: number; partCount: number }): Promise<string | null> {
    const object = await this.env.BLOBS.get(row.r2Key)
    if (!object) return null
    if (object.size !== row.cipherSize) {
      await object.body.cancel()
      return null
    }
    const digests = await items.chunkDigests(object.body, row.chunkBytes + CHUNK_OVERHEAD_BYTES)
    return digests.length === row.partCount ? contentDigestOf(digests) : null
  }

  async sealItem(account: Account, itemId: string, body: SealItemBody) {
    return settle(async () => {
      const { manifest } = items.sealPlan(this.db, this.ownerId, itemId, body)
      await this.checkVaultSignature(manifest, body.manifestSignature, 'manifestSignature', VAULT_ITEM_MESSAGES.manifestInvalid)
      return this.act(account, (u) => items.sealItem(u, itemId, body, manifest))
    })
  }

  async deleteItem(account: Account, itemId: string) {
    return settle(() => this.act(account, (u) => items.deleteItem(u, itemId)))
  }

  // --- Beneficiaries and approvers ------------------------------------------------------------

  async listBeneficiaries() {
    return settle(() => beneficiariesService.listBeneficiaries(this.db).map(beneficiariesService.toBeneficiary))
  }

  /** The vault-wide high-water mark of beneficiary statements, written in the act's transaction. */
  private readonly statementLedger: beneficiariesService.StatementLedger = {
    highest: () => this.kv.get<number>(STATEMENT_SEQUENCE_KEY) ?? 0,
    accept: (sequence) => this.kv.put(STATEMENT_SEQUENCE_KEY, sequence),
  }

  /**
   * Refuses a beneficiary statement the vault did not sign (400 naming keySignature), or any at all
   * while the vault has no signing key (409). Returns what was stated, for the act to check again
   * against the row and the sequence (the check here is asynchronous).
   */
  private async checkStatement(stated: beneficiariesService.Stated, signature: string | undefined): Promise<beneficiariesService.Stated> {
    const signingKey = signingPublicKeyOf(this.ctx.storage)
    if (!signature || !(await verifyVaultSignature(signingKey, beneficiaryStatement({ ownerId: this.ownerId, ...stated }), signature))) {
      throw badRequest(`keySignature: ${KEY_SIGNING_MESSAGES.signatureInvalid}`)
    }
    return stated
  }

  /** Refuses grants the vault did not sign as they are (400 naming grantsSignature). */
  private async checkGrantsSignature(statement: string, signature: string): Promise<void> {
    if (!(await verifyVaultSignature(signingPublicKeyOf(this.ctx.storage), statement, signature))) {
      throw badRequest(`grantsSignature: ${KEY_SIGNING_MESSAGES.grantsSignatureInvalid}`)
    }
  }

  async createBeneficiary(
    account: Account,
    body: Parameters<typeof beneficiariesService.createBeneficiary>[1],
    statementSequence: number,
    sendVerificationEmail: boolean,
  ) {
    return settle(async () => {
      const stated = await this.checkStatement(beneficiariesService.statementOf({ ...body, keyVersion: 1 }, statementSequence), body.keySignature)
      return this.act(account, (u) => beneficiariesService.createBeneficiary(u, body, sendVerificationEmail, stated, this.statementLedger))
    })
  }

  async updateBeneficiary(account: Account, id: string, body: BeneficiaryUpdateBody) {
    return settle(async () => {
      const current = beneficiariesService.findBeneficiary(this.db, id)
      const stated =
        current && (beneficiariesService.changesStatement(current, body) || body.keySignature !== undefined)
          ? await this.checkStatement(beneficiariesService.statementOf(beneficiariesService.editedRow(current, body), body.statementSequence ?? 0), body.keySignature)
          : undefined
      return this.act(account, (u) => beneficiariesService.updateBeneficiary(u, id, body, stated, this.statementLedger))
    })
  }

  /** A rotation in pages: the new key, stated by the vault for the next version, waits for its grants. */
  async startKeyRotation(
    account: Account,
    id: string,
    key: { publicKey: string; fingerprint: string; keySignature: string; replacesKeyVersion: number },
    statementSequence: number,
  ) {
    return settle(async () => {
      const current = beneficiariesService.findBeneficiary(this.db, id)
      if (!current) throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
      if (key.replacesKeyVersion !== current.keyVersion) throw conflict(CIRCLE_MESSAGES.keyChangedMeanwhile)
      const next = { ...current, keyVersion: current.keyVersion + 1, publicKey: key.publicKey }
      const stated = await this.checkStatement(beneficiariesService.statementOf(next, statementSequence), key.keySignature)
      return this.act(account, (u) => beneficiariesService.startRotation(u, id, key, stated, this.statementLedger))
    })
  }

  async addRotationGrants(id: string, rotationId: string, grants: Array<{ itemId: string; wrappedKey: string }>) {
    return settle(() => this.ctx.storage.transactionSync(() => beneficiariesService.addRotationGrants(this.db, id, rotationId, grants)))
  }

  /**
   * Switches to the rotation's key and grants at once. Its statement is checked again against the
   * row as it is now, and the vault's signature over the complete staged grant set must hold.
   */
  async commitKeyRotation(account: Account, id: string, rotationId: string, grantsSignature: string) {
    return settle(async () => {
      const { rotation, current } = beneficiariesService.pendingRotation(this.db, id, rotationId)
      const signingKey = signingPublicKeyOf(this.ctx.storage)
      let stated: beneficiariesService.Stated | undefined
      if (rotation.statementSequence !== null) {
        const fields = beneficiariesService.statementOf({ ...current, keyVersion: rotation.keyVersion, publicKey: rotation.publicKey }, rotation.statementSequence)
        if (!(await verifyVaultSignature(signingKey, beneficiaryStatement({ ownerId: this.ownerId, ...fields }), rotation.keySignature))) {
          throw conflict(CIRCLE_MESSAGES.keyChangedMeanwhile)
        }
        stated = fields
      }
      const signedGrants = beneficiariesService.stagedGrantsStatement(this.db, this.ownerId, rotation)
      await this.checkGrantsSignature(signedGrants, grantsSignature)
      return this.act(account, (u) => beneficiariesService.commitRotation(u, id, rotationId, stated, signedGrants))
    })
  }

  /** The vault's statement over a row as it is: a key stored before signing keys, confirmed, or a v1 statement restated. */
  async signBeneficiaryKey(account: Account, id: string, keySignature: string, statementSequence: number) {
    return settle(async () => {
      const current = beneficiariesService.findBeneficiary(this.db, id)
      if (!current) throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
      const stated = await this.checkStatement(beneficiariesService.statementOf(current, statementSequence), keySignature)
      return this.act(account, (u) => beneficiariesService.signStoredKey(u, id, keySignature, stated, this.statementLedger))
    })
  }

  async resendBeneficiaryVerification(account: Account, id: string) {
    return settle(() => this.act(account, (u) => beneficiariesService.resendBeneficiaryVerification(u, id)))
  }

  async rotateBeneficiaryKey(
    account: Account,
    id: string,
    key: Parameters<typeof beneficiariesService.rotateBeneficiaryKey>[2],
    grants: Array<{ itemId: string; wrappedKey: string }>,
    signatures: { statementSequence: number; grantsSignature: string },
  ) {
    return settle(async () => {
      const current = beneficiariesService.findBeneficiary(this.db, id)
      if (!current) throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
      // A rotation made meanwhile is a 409 (the browser signed for the version it saw), not a bad signature.
      if (key.replacesKeyVersion !== undefined && key.replacesKeyVersion !== current.keyVersion) throw conflict(CIRCLE_MESSAGES.keyChangedMeanwhile)
      const next = { ...current, keyVersion: current.keyVersion + 1, publicKey: key.publicKey }
      const stated = await this.checkStatement(beneficiariesService.statementOf(next, signatures.statementSequence), key.keySignature)
      const statement = grantsStatement(this.ownerId, grants.map((g) => ({ ...g, beneficiaryId: id, keyVersion: next.keyVersion })))
      await this.checkGrantsSignature(statement, signatures.grantsSignature)
      return this.act(account, (u) => beneficiariesService.rotateBeneficiaryKey(u, id, key, grants, stated, this.statementLedger))
    })
  }

  async deleteBeneficiary(account: Account, id: string) {
    return settle(() => this.act(account, (u) => beneficiariesService.deleteBeneficiary(u, id)))
  }

  /** The owner confirmed their address (the account says so): held invitations go out. Returns how many. */
  async ownerEmailConfirmed(account: Account) {
    return settle(() =>
      this.act(account, (u) => {
        const first = this.kv.get<number>(OWNER_CONFIRMED_KEY) === undefined
        if (first) this.kv.put(OWNER_CONFIRMED_KEY, u.now)
        const invitationsSent = sendHeldInvitations(u)
        if (first || invitationsSent > 0) u.audit({ actor: 'user', action: 'account.email_confirmed', details: { invitationsSent } })
        return invitationsSent
      }),
    )
  }

  async listApprovers() {
    return settle(() => approversService.listApprovers(this.db).map(approversService.toApprover))
  }

  async createApprover(account: Account, body: Required<Omit<ApproverForm, 'sendVerificationEmail'>>, sendVerificationEmail: boolean) {
    return settle(() => this.act(account, (u) => approversService.createApprover(u, body, sendVerificationEmail)))
  }

  async resendApproverVerification(account: Account, id: string) {
    return settle(() => this.act(account, (u) => approversService.resendApproverVerification(u, id)))
  }

  /** Local only (the dev route checks): the vault as format 1 made it, with the wraps the browser test computed. */
  async devMakeFormatOne(wrappedSigningKey: string, wraps: Array<{ kind: 'item' | 'policy'; id: string; wrappedKey: string }>) {
    return settle(() => this.ctx.storage.transactionSync(() => {
      const keys = vaultKeysOf(this.ctx.storage)
      if (keys?.signing) {
        const { vaultKey: _k, format: _f, movedAt: _m, recovery: _r, ...v1 } = keys
        this.ctx.storage.kv.put(VAULT_KEYS, { ...v1, signing: { ...keys.signing, wrapped: wrappedSigningKey } })
      }
      for (const w of wraps) this.ctx.storage.sql.exec(`update ${w.kind === 'item' ? 'vault_items' : 'policies'} set wrapped_key = ? where id = ?`, w.wrappedKey, w.id)
      return { wraps: wraps.length }
    }))
  }

  /**
   * Local only (the dev route checks): the vault as one made before signing keys was, with no
   * signing key and no signed beneficiary key, for the browser test of its first unlock.
   */
  async devMakeLegacy(): Promise<{ beneficiaries: number }> {
    return this.ctx.storage.transactionSync(() => {
      const keys = vaultKeysOf(this.ctx.storage)
      if (keys) {
        const { signing: _dropped, ...rest } = keys
        this.ctx.storage.kv.put(VAULT_KEYS, rest)
      }
      const n = this.ctx.storage.sql.exec('update beneficiaries set key_signature = null, statement_sequence = null, kit_has_vault_fingerprint = 0').rowsWritten
      return { beneficiaries: n }
    })
  }

  /** Local only (the dev route checks): every item as one stored before manifests, not yet sealed. */
  async devUnsealItems(): Promise<number> {
    const n = this.ctx.storage.sql.exec('update vault_items set manifest = null, manifest_signature = null, content_digest = null').rowsWritten
    this.itemList = null
    return n
  }

  /** Local only (the dev route checks): an item planted as a hostile server could (dev-plant.ts). */
  async devPlantItem(item: DevPlantedItem): Promise<void> {
    await plantItem(this.ctx.storage, this.env.BLOBS, this.ownerId, item)
    await this.updateDirectory(true)
  }

  /** Local only (the dev route checks): every beneficiary's kit as one printed before kits carried the vault's fingerprint. */
  /** Dev only: every waiting access request's wait ends now; the tick releases them. Answers how many requests went. */
  async devElapseAccessRequests(): Promise<number> {
    const now = Date.now()
    this.ctx.storage.transactionSync(() => {
      this.ctx.storage.sql.exec(
        "update releases set release_at = ? where status = 'waiting' and firing_id in (select firing_id from access_requests where status = 'waiting')",
        now,
      )
      this.ctx.storage.sql.exec("update access_requests set decide_by = ? where status = 'waiting'", now)
    })
    await this.runTick(undefined, now)
    return this.ctx.storage.sql.exec<{ n: number }>("select count(*) as n from access_requests where status = 'released'").one().n
  }

  /** Dev only: every session's proof as if long past (the browser tests of fresh proof); answers how many sessions. */
  async devAgeProof(): Promise<number> {
    return this.ctx.storage.sql.exec('update sessions set proved_at = 0').rowsWritten
  }

  async devOlderKits(): Promise<{ beneficiaries: number }> {
    return { beneficiaries: this.ctx.storage.sql.exec('update beneficiaries set kit_has_vault_fingerprint = 0').rowsWritten }
  }

  /**
   * Local only (the dev route checks): `count` active items with no content, each granted directly
   * to every beneficiary, written in SQL in one transaction: a large vault for the bench.
   */
  async devFillItems(count: number): Promise<number> {
    const now = Date.now()
    this.ctx.storage.transactionSync(() => {
      const people = this.ctx.storage.sql.exec<{ id: string }>('select id from beneficiaries').toArray()
      for (let i = 0; i < count; i++) {
        const id = crypto.randomUUID()
        this.ctx.storage.sql.exec(
          `insert into vault_items (id, type, status, plain_size, cipher_size, chunk_bytes, part_count, r2_key, release_protocol, created_at, completed_at)
           values (?, 'doc', 'active', 1, 1, 8388608, 1, ?, 'VERIFIED_DEATH', ?, ?)`,
          id,
          `items/${this.ownerId}/${id}`,
          now,
          now,
        )
        for (const p of people) {
          this.ctx.storage.sql.exec('insert into item_grants (item_id, beneficiary_id, wrapped_key, key_version, direct, created_at) values (?, ?, ?, 1, 1, ?)', id, p.id, 'bench', now)
        }
      }
    })
    await this.updateDirectory(true)
    return count
  }

  /** Whether what the owner chose would reach the people they chose today (one fixed set of queries). */
  async releaseReadiness(account: Account): Promise<ReleaseReadiness> {
    // Addresses of the people something is left to, checked against what D1's outbox gave up on.
    const addresses = this.ctx.storage.sql
      .exec<{ email: string }>('select distinct lower(email) as email from beneficiaries where id in (select beneficiary_id from item_grants)')
      .toArray()
      .map((r) => r.email)
    const failed = addresses.length
      ? (
          await this.env.DB.prepare("select distinct lower(to_address) as address from email_outbox where status = 'failed' and lower(to_address) in (select value from json_each(?))")
            .bind(JSON.stringify(addresses))
            .all<{ address: string }>()
        ).results.map((r) => r.address)
      : []
    return releaseReadiness(this.db, {
      owner: { id: this.ownerId, confirmed: ownerConfirmedIn(this.ctx.storage, account) },
      now: Date.now(),
      undeliverable: new Set(failed),
      bouncingChannels: await bouncingChannelsOf(getDb(this.env), account),
    })
  }

  async resendDeathReportLinks(account: Account, triggerId: string) {
    return settle(() => this.act(account, (u) => triggersService.resendDeathReportLinks(u, triggerId)))
  }

  async deleteApprover(account: Account, id: string) {
    return settle(() => this.act(account, (u) => approversService.deleteApprover(u, id)))
  }

  // --- Policies -------------------------------------------------------------------------------

  async listPolicies() {
    return settle(() => policiesService.listPolicies(this.db))
  }

  /** Access on request lets people start a release: a policy that turns it on needs fresh proof. */
  async createPolicy(account: Account, body: Parameters<typeof policiesService.createPolicy>[1], freshProof = false) {
    return settle(() => {
      this.assertVaultFormat(body.vaultFormat)
      if (body.accessRequest && (body.status ?? 'active') === 'active' && !freshProof) throw needsFreshProof()
      return this.act(account, (u) => policiesService.createPolicy(u, body))
    })
  }

  /** Activating a policy with access on request arms it: fresh proof, as for creating one. Answers whether it did. */
  async setPolicyStatus(account: Account, id: string, status: 'active' | 'draft' | 'inactive', freshProof = false) {
    return settle(() =>
      this.act(account, (u) => {
        const armsRequests = policiesService.activationArmsRequests(u.db, id, status)
        if (armsRequests && !freshProof) throw needsFreshProof()
        return { policy: policiesService.setPolicyStatus(u, id, status), armsRequests }
      }),
    )
  }

  async addPolicyItems(account: Account, id: string, itemIds: string[]) {
    return settle(() => this.act(account, (u) => policiesService.addPolicyItems(u, id, itemIds)))
  }

  async deletePolicy(account: Account, id: string) {
    return settle(() => this.act(account, (u) => policiesService.deletePolicy(u, id)))
  }

  // --- Access on request (contract/access-requests.ts) -----------------------------------------

  async ownerAccessRequests(account: Account, now = Date.now()) {
    return settle(() => accessRequestsService.ownerRequests(this.db, now, safetyWindowHours(this.ctx.storage)))
  }

  /** "Approve now" (the route asks for fresh proof): the tick arms whatever still waits (approvals). */
  async approveAccessRequest(account: Account, id: string, now = Date.now()) {
    return settle(() => this.act(account, (u) => accessRequestsService.approveRequest(u, id), { now, tick: true }))
  }

  async refuseAccessRequest(account: Account, id: string, now = Date.now()) {
    return settle(() => this.act(account, (u) => accessRequestsService.refuseRequest(u, id, 'app'), { now, tick: true }))
  }

  /** The owner's Refuse link: what it refuses, before the click. */
  async accessRefuseView(id: string) {
    return settle(async () => accessRequestsService.refuseView(this.db, (await this.linkOwner()).displayName, id))
  }

  /** The owner's Refuse link: safe without signing in, since it only holds things back. */
  async refuseAccessRequestByLink(id: string, now = Date.now()) {
    return settle(async () => {
      const owner = await this.linkOwner()
      return this.act(owner, (u) => accessRequestsService.refuseRequest(u, id, 'link'), { now, tick: true })
    })
  }

  /** What a beneficiary (portal) or approver (their link) may ask for, and where each request stands. */
  async requesterView(requester: accessRequestsService.Requester, now = Date.now()) {
    return settle(async () => {
      const owner = await this.linkOwner()
      return accessRequestsService.requesterView(this.db, owner.displayName, requester, now, safetyWindowHours(this.ctx.storage) * HOUR_MS)
    })
  }

  async askForAccess(requester: accessRequestsService.Requester, policyId: string, now = Date.now()) {
    return settle(async () => {
      const owner = await this.linkOwner()
      return this.act(owner, (u) => accessRequestsService.askForAccess(u, requester, policyId), { now, tick: true })
    })
  }

  // --- Triggers and the engine ----------------------------------------------------------------

  async listTriggers(account: Account) {
    return settle(() => {
      const clock = this.reading(Date.now())
      return triggersService.listTriggers(this.db).map((r) => triggersService.toTrigger(r, clock))
    })
  }

  /** `trustedDevices`: how many devices the owner has marked as trusted (D1 keeps them; the route counts). */
  async createTrigger(account: Account, body: Parameters<typeof triggersService.createTrigger>[1], freshProof: boolean, trustedDevices = 0) {
    return settle(async () => {
      if (body.type === 'device_loss' && body.status !== 'paused' && trustedDevices === 0) throw conflict(TRIGGER_MESSAGES.noTrustedDevice)
      if (!freshProof && creationIsSooner(body)) throw needsFreshProof()
      // The tick arms the alarm for the new trigger (check-ins, a scheduled date).
      const row = await this.act(account, (u) => triggersService.createTrigger(u, body), { tick: true })
      return triggersService.toTrigger(triggersService.findTrigger(this.db, row.id), this.reading(Date.now()))
    })
  }

  /** PUT /api/triggers/{id}: an inactivity trigger's new schedule, then Pause/Activate; the tick re-arms the clock. */
  async updateTrigger(account: Account, id: string, body: TriggerUpdateBody, freshProof: boolean, trustedDevices = 0) {
    return settle(async () => {
      const current = triggersService.findTrigger(this.db, id)
      if (current.type === 'device_loss' && body.status === 'active' && current.status === 'paused' && trustedDevices === 0) {
        throw conflict(TRIGGER_MESSAGES.noTrustedDevice)
      }
      const sooner = updateIsSooner(current, body)
      if (sooner && !freshProof) throw needsFreshProof()
      await this.act(
        account,
        (u) => {
          if (body.config) triggersService.setInactivitySchedule(u, id, body.config)
          if (body.status) triggersService.setTriggerStatus(u, id, body.status)
        },
        { tick: true },
      )
      return { trigger: triggersService.toTrigger(triggersService.findTrigger(this.db, id), this.reading(Date.now())), sooner }
    })
  }

  async engineStatus(account: Account, now = Date.now()) {
    return settle(() => ({ clock: this.view(now), releases: monitor.releaseSummaries(this.db) }))
  }

  async dryRun(account: Account, triggerId: string, now = Date.now()) {
    return settle(() =>
      monitor.dryRun(this.db, account, triggersService.findTrigger(this.db, triggerId), now, this.clock(now).lastCheckInAt, safetyWindowHours(this.ctx.storage)),
    )
  }

  /** The owner's safety window (contract/settings.ts). */
  async safetyWindow(): Promise<{ hours: number }> {
    return { hours: safetyWindowHours(this.ctx.storage) }
  }

  async setSafetyWindow(account: Account, hours: number, freshProof: boolean) {
    return settle(() =>
      this.act(account, (u) => {
        const before = safetyWindowHours(this.ctx.storage)
        const sooner = windowIsSooner(before, hours)
        if (sooner && !freshProof) throw needsFreshProof()
        this.kv.put(SAFETY_WINDOW_KEY, hours)
        u.audit({ actor: 'user', action: 'account.safety_window_set', details: { hours } })
        return { hours, shortenedFrom: sooner ? before : null }
      }),
    )
  }

  async manualRelease(account: Account, triggerId: string, reason: string, now = Date.now()) {
    return settle(async (): Promise<ManualReleaseResult> => {
      const trigger = triggersService.findTrigger(this.db, triggerId)
      if (trigger.status === 'triggered') throw conflict(TRIGGER_MESSAGES.alreadyTriggered)
      // The tick that follows arms the alarm for whatever now waits (a delay, approvals).
      const result = await this.act(
        account,
        (u) => fire(u, { trigger, kind: 'manual', reason, actor: 'user', lastCheckInAt: this.clock(now).lastCheckInAt }),
        { now, tick: true },
      )
      if (!result.fired) throw conflict(TRIGGER_MESSAGES.alreadyTriggered)
      return {
        releases: result.releases,
        transferredItems: result.transferredItems,
        releasedItems: result.releasedItems,
        beneficiariesNotified: result.beneficiariesNotified,
        pendingReleases: result.pendingReleases,
        waitingUntil: result.waitingUntil === null ? null : new Date(Math.max(result.waitingUntil, now)).toISOString(),
        nothingBecause: result.releases === 0 ? 'nothing_named' : result.transferredItems === 0 && result.pendingReleases === 0 ? 'already_released' : null,
      }
    })
  }

  /**
   * The monitor's cancel of one waiting release. A release a Loss of trusted devices firing started
   * is what someone using the account from elsewhere would want to stop: only a trusted session can.
   */
  async cancelRelease(account: Account, releaseId: string, trusted = false) {
    return settle(async () => {
      if (monitor.releaseSummaries(this.db, releaseId).length === 0) throw notFound('Release not found.')
      if (!trusted && monitor.releaseFiringKind(this.db, releaseId) === 'device_loss') throw forbidden(TRIGGER_MESSAGES.cancelNeedsTrustedDevice)
      const done = await this.act(account, (u) => cancelReleases(u, { releaseId }, 'user'), { tick: true })
      if (done.cancelledReleases === 0) throw conflict(RELEASE_MESSAGES.releaseAlreadyCancelled)
      return monitor.releaseSummaries(this.db, releaseId)[0]!
    })
  }

  /** What the e-mailed cancel link of one firing would take back. */
  async cancelView(firingId: string, now = Date.now()) {
    return settle(async (): Promise<CancelView> => {
      await this.linkOwner()
      const view = cancelView({ db: this.db, now }, firingId)
      if (!view) throw badRequest(RELEASE_MESSAGES.linkInvalid)
      const { triggerType, ...rest } = view
      return { ...rest, triggerLabel: TRIGGER_TYPE_LABELS[triggerType as TriggerType]?.title ?? triggerType, clockRuns: triggersService.clockSchedule(this.db) !== null }
    })
  }

  /**
   * The e-mailed cancel link of one firing: takes back everything of it not yet in an heir's hands.
   * Only the owner holds that link, so it is also a sign of life: the inactivity clock restarts
   * (without cancelling other firings: the link names one).
   */
  async cancelFiring(firingId: string, now = Date.now()) {
    return settle(async () => {
      const owner = await this.linkOwner()
      this.noteActivity('checked_in', now)
      const done = await this.act(
        owner,
        (u) => {
          const outcome = cancelReleases(u, { firingId }, 'user')
          if (outcome.cancelledReleases > 0) {
            this.kv.put('clock', { lastCheckInAt: now, phase: 'ok', checkInSentAt: null } satisfies ClockState)
            u.audit({ actor: 'user', action: 'checkin.recorded', details: { via: 'cancel link' } })
          }
          // Only a running clock was reset: an owner with no active inactivity trigger has none.
          return { ...outcome, clockReset: outcome.cancelledReleases > 0 && triggersService.clockSchedule(this.db) !== null }
        },
        { now, tick: true },
      )
      if (done.cancelledReleases === 0) throw conflict(RELEASE_MESSAGES.releaseNotWaiting)
      return done
    })
  }

  /**
   * A failed vault unlock or security-key answer (`reason`: a key's, for the audit), counted by
   * Failed unlock attempts triggers once its forgiving time has passed (worker/engine/unlock-failures.ts).
   */
  async recordUnlockFailure(kind: UnlockKind, account?: Account, now = Date.now(), reason?: string) {
    return settle(async (): Promise<UnlockFailureResult> => {
      const owner = account ?? (await this.linkOwner())
      const before = this.firingCount()
      await this.act(owner, (u) => unlocks.recordFailure(u, kind, reason), { now, tick: true })
      const failures = this.db.select({ n: sql<number>`count(*)` }).from(unlockFailures).where(gt(unlockFailures.at, now - 365 * DAY_MS)).get()?.n ?? 0
      return { failures, fired: this.firingCount() - before, attemptsLeft: unlocks.attemptsLeft(this.db, now) }
    })
  }

  /**
   * A successful unlock (a right vault passphrase the app reports, or a security key the server
   * verified): the failed attempts of the forgiving time before it no longer count. Nothing to
   * forgive, nothing written (and no account read).
   */
  async recordUnlockSuccess(kind: UnlockKind, account?: Account, now = Date.now()) {
    return settle(async (): Promise<UnlockSuccessResult> => {
      let forgiven = 0
      if (unlocks.hasForgivable(this.db, now)) {
        const owner = account ?? (await this.linkOwner())
        forgiven = await this.act(owner, (u) => unlocks.forgiveFailures(u, kind), { now, tick: (n) => n > 0 })
      }
      return { forgiven, attemptsLeft: unlocks.attemptsLeft(this.db, now) }
    })
  }

  private firingCount(): number {
    return this.db.get<{ n: number }>(sql`select count(*) as n from firings`).n
  }

  // --- Identity documents ---------------------------------------------------------------------

  /** A document's files, checked by the route, stored in R2 and recorded; reviewers are asked. */
  async submitIdentityDocument(
    account: Account | undefined,
    beneficiaryId: string,
    fields: identity.DocumentFields,
    files: { front: identity.DocumentFile; back: identity.DocumentFile | null },
    by: 'owner' | 'beneficiary',
  ) {
    return settle(async () => {
      const owner = account ?? (await this.linkOwner())
      identity.assertDocumentAccepted(this.db, beneficiaryId, fields.documentType)
      const documentId = crypto.randomUUID()
      const prefix = identity.identityBlobPrefix(this.ownerId, documentId)
      const stored = { front: { key: `${prefix}/front`, contentType: files.front.contentType }, back: files.back ? { key: `${prefix}/back`, contentType: files.back.contentType } : null }
      await this.env.BLOBS.put(stored.front.key, files.front.bytes, { httpMetadata: { contentType: stored.front.contentType } })
      if (files.back && stored.back) await this.env.BLOBS.put(stored.back.key, files.back.bytes, { httpMetadata: { contentType: stored.back.contentType } })
      try {
        return await this.act(owner, (u) => {
          const document = identity.recordDocument(u, documentId, beneficiaryId, fields, stored)
          // Only ids, the type and the status: the document's number and authority stay out of the chain.
          if (by === 'owner') {
            u.audit({
              actor: 'user',
              action: 'circle.identity_document_submitted',
              details: { beneficiaryId, documentId, documentType: document.documentType, hasBack: document.hasBack, requiredApprovals: document.requiredApprovals },
            })
          } else {
            u.audit({ actor: 'beneficiary', action: 'release.identity_submitted', details: { beneficiaryId } })
          }
          return document
        })
      } catch (error) {
        await this.env.BLOBS.delete([stored.front.key, ...(stored.back ? [stored.back.key] : [])]).catch(() => undefined)
        throw error
      }
    })
  }

  async listIdentityDocuments(beneficiaryId: string) {
    return settle(() => identity.listDocuments(this.db, beneficiaryId))
  }

  async identityDocumentFile(documentId: string, side: 'front' | 'back') {
    return settle(() => identity.documentFile(this.db, documentId, side))
  }

  async identityReviewView(documentId: string, approverId: string) {
    return settle(async () => identity.reviewView(this.db, (await this.linkOwner()).displayName, documentId, approverId))
  }

  async identityReviewFile(documentId: string, approverId: string, side: 'front' | 'back') {
    return settle(async () => {
      await this.linkOwner()
      return identity.reviewerDocumentFile(this.db, documentId, approverId, side)
    })
  }

  async submitIdentityReview(documentId: string, approverId: string, body: Parameters<typeof identity.submitReview>[3]) {
    return settle(async () => {
      const owner = await this.linkOwner()
      return this.act(owner, (u) => identity.submitReview(u, documentId, approverId, body))
    })
  }

  // --- Links for people without an account ----------------------------------------------------

  /** The owner a link acts for; a link to a deleted account is no link. */
  private async linkOwner(): Promise<Account> {
    const owner = await loadAccount(this.env, this.ownerId)
    if (!owner) throw badRequest(CIRCLE_MESSAGES.linkInvalid)
    return owner
  }

  async verifyBeneficiary(id: string, nonce: string | undefined) {
    return settle(async () => {
      const owner = await this.linkOwner()
      const { fullName } = this.ctx.storage.transactionSync(() => circleLinks.verifyBeneficiary(this.db, id, nonce, Date.now()))
      return { fullName, ownerName: owner.displayName }
    })
  }

  /**
   * An approver confirms their address. From then on they can act: the report link goes to them if
   * a verified-death trigger is waiting, and identity documents waiting for their review are sent.
   */
  async verifyApprover(id: string, nonce: string | undefined) {
    return settle(async () => {
      const owner = await this.linkOwner()
      return this.act(owner, (u) => {
        const verified = circleLinks.verifyApprover(u.db, id, nonce, u.now)
        const reportLink = triggersService.deathTriggerActive(u.db) ? triggersService.sendDeathReportLinks(u, { approverId: id }) : 0
        const reviews = identity.sendWaitingReviews(u, id)
        u.audit({ actor: 'approver', action: 'circle.approver_verified', details: { approverId: id, reportLinkSent: reportLink > 0, reviewsSent: reviews } })
        return verified
      })
    })
  }

  /**
   * An heir's request for a new portal link (by address, looked up through D1's heir index). At most
   * one such e-mail per beneficiary in PORTAL_LINK_GAP_MS, whatever is asked.
   */
  async sendPortalLink(email: string, now = Date.now()): Promise<boolean> {
    const key = `portalLink:${email.toLowerCase()}`
    const last = this.kv.get<number>(key)
    if (last !== undefined && now - last < PORTAL_LINK_GAP_MS) return false
    const owner = await loadAccount(this.env, this.ownerId)
    if (!owner) return false
    const sent = await this.act(
      owner,
      (u) => {
        const portal = releaseLinks.sendPortalLink(u, email)
        return accessRequestsService.sendAskLinks(u, email, portal) > 0 || portal
      },
      { now },
    )
    if (sent) this.kv.put(key, now)
    return sent
  }

  async notificationPreferences(beneficiaryId: string) {
    return settle(async () => circleLinks.preferencesOf(this.db, (await this.linkOwner()).displayName, beneficiaryId))
  }

  async setNotificationStatus(beneficiaryId: string, status: 'opted_in' | 'unsubscribed') {
    return settle(async () => {
      await this.linkOwner()
      const before = circleLinks.setNotificationStatus(this.db, beneficiaryId, status, Date.now())
      await this.updateDirectory()
      return before
    })
  }

  // An heir's passphrase backup of their key (0.3 · 4 of 7): made from the invitation link, read at the portal.
  async heirBackupContext(beneficiaryId: string) {
    return settle(async () => {
      await this.linkOwner()
      return heirBackups.backupContext(this.db, this.ownerId, beneficiaryId)
    })
  }

  async storeHeirBackup(beneficiaryId: string, body: HeirKeyBackup) {
    return settle(async () => {
      await this.linkOwner()
      return heirBackups.storeBackup(this.db, beneficiaryId, body, Date.now())
    })
  }

  async portalKeyBackup(beneficiaryId: string) {
    return settle(async () => {
      await this.linkOwner()
      return heirBackups.portalBackup(this.db, this.ownerId, beneficiaryId)
    })
  }

  async approvalView(releaseId: string, email: string) {
    return settle(async () => releaseLinks.approvalView(this.db, (await this.linkOwner()).displayName, releaseId, email))
  }

  async decideApproval(releaseId: string, email: string, decision: 'approved' | 'rejected', notes: string) {
    return settle(async () => {
      const owner = await this.linkOwner()
      return this.act(owner, (u) => releaseLinks.decideApproval(u, releaseId, email, decision, notes), { tick: true })
    })
  }

  async deathReportView(approverId: string, nonce: string | undefined) {
    return settle(async () => releaseLinks.deathReportView(this.db, (await this.linkOwner()).displayName, approverId, nonce))
  }

  /** An approver's confirmation; the tick fires the verified-death triggers (unless a payment hold applies). */
  async confirmDeath(approverId: string, nonce: string | undefined, body: { certificateNumber: string; dateOfDeath: string; issuingAuthority: string }) {
    return settle(async () => {
      const owner = await this.linkOwner()
      await this.act(owner, (u) => releaseLinks.recordDeathReport(u, approverId, nonce, body), { tick: true })
    })
  }

  async portalView(beneficiaryId: string) {
    return settle(async () => {
      const owner = await this.linkOwner()
      return releaseLinks.portalView(this.db, owner.displayName, vaultKeysOf(this.ctx.storage)?.signing?.publicKey ?? null, beneficiaryId, Date.now())
    })
  }

  /** The beneficiary's identity status as the portal's upload needs it. */
  async portalIdentityStatus(beneficiaryId: string) {
    return settle(async () => {
      await this.linkOwner()
      return releaseLinks.portalBeneficiary(this.db, beneficiaryId).identityStatus
    })
  }

  async listAssets(beneficiaryId: string) {
    return settle(async () => {
      await this.linkOwner()
      return releaseLinks.listAssets(this.db, beneficiaryId, Date.now())
    })
  }

  async prepareDownload(beneficiaryId: string, assetId: string): Promise<Outcome<Omit<AssetDownload, 'contentUrl'>>> {
    return settle(async () => {
      const owner = await this.linkOwner()
      return releaseLinks.prepareDownload(this.db, owner.displayName, beneficiaryId, assetId, Date.now())
    })
  }

  /** The ciphertext's R2 key for a download ticket; its first fetch counts the download. */
  async serveTicket(beneficiaryId: string, assetId: string, ticketId: string | undefined): Promise<Outcome<string>> {
    return settle(async () => {
      const owner = await this.linkOwner()
      return this.act(owner, (u) => releaseLinks.serveTicket(u, beneficiaryId, assetId, ticketId))
    })
  }

  // An heir who ran out asks for more; the owner or an approver answers (worker/services/renewals.ts).
  async requestRenewal(beneficiaryId: string) {
    return settle(async () => {
      const owner = await this.linkOwner()
      releaseLinks.portalBeneficiary(this.db, beneficiaryId)
      return this.act(owner, (u) => renewals.requestRenewal(u, beneficiaryId))
    })
  }

  async renewalDecisionView(requestId: string, key: string) {
    return settle(async () => renewals.decisionView(this.db, (await this.linkOwner()).displayName, requestId, key))
  }

  async decideRenewal(requestId: string, key: string, decision: 'approved' | 'refused') {
    return settle(async () => {
      const owner = await this.linkOwner()
      return this.act(owner, (u) => renewals.decide(u, requestId, key, decision))
    })
  }

  // --- The whole vault ------------------------------------------------------------------------

  /** Ciphertext and metadata only (worker/owner/export.ts). */
  async exportVault(): Promise<OwnerExport> {
    return exportVault(this.ctx.storage, this.ownerId)
  }

  /** Loads an export into this (empty, or purged) object, then lets the engine look at it. */
  async importVault(data: OwnerExport) {
    return settle(async () => {
      if (data.ownerId !== this.ownerId) throw badRequest('This export belongs to another owner.')
      await migrateOwnerDb(this.db)
      this.ctx.storage.transactionSync(() => importVault(this.ctx.storage, this.db, data))
      await this.runTick(undefined, Date.now())
    })
  }

  /** What an account deletion must clean outside this object: open uploads and the directory's heir keys. */
  async deletionManifest(): Promise<{ uploads: Array<{ r2Key: string; uploadId: string }>; heirKeys: number[] }> {
    const uploads = this.db
      .select({ r2Key: vaultItems.r2Key, uploadId: vaultItems.uploadId })
      .from(vaultItems)
      .where(eq(vaultItems.status, 'uploading'))
      .all()
      .flatMap((u) => (u.uploadId ? [{ r2Key: u.r2Key, uploadId: u.uploadId }] : []))
    return { uploads, heirKeys: directoryEntry(this.env, this.db, null).heirKeys }
  }

  /**
   * Account deletion (services/account-deletion.ts, after the account's D1 rows are gone): the
   * alarm and everything this object stores go. A later call finds no account and does nothing.
   */
  async purge(): Promise<void> {
    await this.directoryQueue
    await this.ctx.storage.deleteAlarm()
    await this.ctx.storage.deleteAll()
  }

  /** For the bench and the capacity model: this object's database size in bytes. */
  async storageBytes(): Promise<number> {
    return this.ctx.storage.sql.databaseSize
  }
}
