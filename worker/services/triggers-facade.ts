import { gt, sql } from 'drizzle-orm'
import { DAY_MS } from '../../contract/constants'
import { RELEASE_MESSAGES, type CancelView } from '../../contract/releases'
import { TRIGGER_MESSAGES, TRIGGER_TYPE_LABELS, type ManualReleaseResult, type TriggerType, type TriggerUpdateBody, type UnlockFailureResult, type UnlockKind, type UnlockSuccessResult } from '../../contract/triggers'
import { cancelReleases, cancelView } from '../engine/cancel'
import { type ClockState } from '../engine/clock'
import { fire } from '../engine/fire'
import * as unlocks from '../engine/unlock-failures'
import { badRequest, conflict, forbidden, notFound } from '../lib/errors'
import * as monitor from './engine-monitor'
import * as triggersService from './triggers'
import { type Account } from '../owner/account'
import { settle } from '../owner/outcome'
import { unlockFailures } from '../owner/schema'
import { creationIsSooner, needsFreshProof, updateIsSooner, windowIsSooner } from './sooner'
import { SAFETY_WINDOW_KEY, safetyWindowHours } from '../owner/unit'
import { DomainFacade, type OwnerHost } from '../owner/host'

/** Triggers and the release engine: the monitor, the safety window, manual release, cancels, unlock attempts. */
export class EngineFacade extends DomainFacade {
  async listTriggers(account: Account) {
    return settle(() => {
      const clock = this.h.reading(Date.now())
      return triggersService.listTriggers(this.h.db).map((r) => triggersService.toTrigger(r, clock))
    })
  }

  /** `trustedDevices`: how many devices the owner has marked as trusted (D1 keeps them; the route counts). */
  async createTrigger(account: Account, body: Parameters<typeof triggersService.createTrigger>[1], freshProof: boolean, trustedDevices = 0) {
    return settle(async () => {
      if (body.type === 'device_loss' && body.status !== 'paused' && trustedDevices === 0) throw conflict(TRIGGER_MESSAGES.noTrustedDevice)
      if (!freshProof && creationIsSooner(body)) throw needsFreshProof()
      // The tick arms the alarm for the new trigger (check-ins, a scheduled date).
      const row = await this.h.act(account, (u) => triggersService.createTrigger(u, body), { tick: true })
      return triggersService.toTrigger(triggersService.findTrigger(this.h.db, row.id), this.h.reading(Date.now()))
    })
  }

  /** PUT /api/triggers/{id}: an inactivity trigger's new schedule, then Pause/Activate; the tick re-arms the clock. */
  async updateTrigger(account: Account, id: string, body: TriggerUpdateBody, freshProof: boolean, trustedDevices = 0) {
    return settle(async () => {
      const current = triggersService.findTrigger(this.h.db, id)
      if (current.type === 'device_loss' && body.status === 'active' && current.status === 'paused' && trustedDevices === 0) {
        throw conflict(TRIGGER_MESSAGES.noTrustedDevice)
      }
      const sooner = updateIsSooner(current, body)
      if (sooner && !freshProof) throw needsFreshProof()
      await this.h.act(
        account,
        (u) => {
          if (body.config) triggersService.setInactivitySchedule(u, id, body.config)
          if (body.status) triggersService.setTriggerStatus(u, id, body.status)
        },
        { tick: true },
      )
      return { trigger: triggersService.toTrigger(triggersService.findTrigger(this.h.db, id), this.h.reading(Date.now())), sooner }
    })
  }

  async engineStatus(account: Account, now = Date.now()) {
    return settle(() => ({ clock: this.h.view(now), releases: monitor.releaseSummaries(this.h.db) }))
  }

  async dryRun(account: Account, triggerId: string, now = Date.now()) {
    return settle(() =>
      monitor.dryRun(this.h.db, account, triggersService.findTrigger(this.h.db, triggerId), now, this.h.clock(now).lastCheckInAt, safetyWindowHours(this.h.storage)),
    )
  }

  /** The owner's safety window (contract/settings.ts). */
  async safetyWindow(): Promise<{ hours: number }> {
    return { hours: safetyWindowHours(this.h.storage) }
  }

  async setSafetyWindow(account: Account, hours: number, freshProof: boolean) {
    return settle(() =>
      this.h.act(account, (u) => {
        const before = safetyWindowHours(this.h.storage)
        const sooner = windowIsSooner(before, hours)
        if (sooner && !freshProof) throw needsFreshProof()
        this.h.storage.kv.put(SAFETY_WINDOW_KEY, hours)
        u.audit({ actor: 'user', action: 'account.safety_window_set', details: { hours } })
        return { hours, shortenedFrom: sooner ? before : null }
      }),
    )
  }

  async manualRelease(account: Account, triggerId: string, reason: string, now = Date.now()) {
    return settle(async (): Promise<ManualReleaseResult> => {
      const trigger = triggersService.findTrigger(this.h.db, triggerId)
      if (trigger.status === 'triggered') throw conflict(TRIGGER_MESSAGES.alreadyTriggered)
      // The tick that follows arms the alarm for whatever now waits (a delay, approvals).
      const result = await this.h.act(
        account,
        (u) => fire(u, { trigger, kind: 'manual', reason, actor: 'user', lastCheckInAt: this.h.clock(now).lastCheckInAt }),
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
      if (monitor.releaseSummaries(this.h.db, releaseId).length === 0) throw notFound('Release not found.')
      if (!trusted && monitor.releaseFiringKind(this.h.db, releaseId) === 'device_loss') throw forbidden(TRIGGER_MESSAGES.cancelNeedsTrustedDevice)
      const done = await this.h.act(account, (u) => cancelReleases(u, { releaseId }, 'user'), { tick: true })
      if (done.cancelledReleases === 0) throw conflict(RELEASE_MESSAGES.releaseAlreadyCancelled)
      return monitor.releaseSummaries(this.h.db, releaseId)[0]!
    })
  }

  /** What the e-mailed cancel link of one firing would take back. */
  async cancelView(firingId: string, now = Date.now()) {
    return settle(async (): Promise<CancelView> => {
      await this.h.linkOwner()
      const view = cancelView({ db: this.h.db, now }, firingId)
      if (!view) throw badRequest(RELEASE_MESSAGES.linkInvalid)
      const { triggerType, ...rest } = view
      return { ...rest, triggerLabel: TRIGGER_TYPE_LABELS[triggerType as TriggerType]?.title ?? triggerType, clockRuns: triggersService.clockSchedule(this.h.db) !== null }
    })
  }

  /**
   * The e-mailed cancel link of one firing: takes back everything of it not yet in an heir's hands.
   * Only the owner holds that link, so it is also a sign of life: the inactivity clock restarts
   * (without cancelling other firings: the link names one).
   */
  async cancelFiring(firingId: string, now = Date.now()) {
    return settle(async () => {
      const owner = await this.h.linkOwner()
      this.h.noteActivity('checked_in', now)
      const done = await this.h.act(
        owner,
        (u) => {
          const outcome = cancelReleases(u, { firingId }, 'user')
          if (outcome.cancelledReleases > 0) {
            this.h.storage.kv.put('clock', { lastCheckInAt: now, phase: 'ok', checkInSentAt: null } satisfies ClockState)
            u.audit({ actor: 'user', action: 'checkin.recorded', details: { via: 'cancel link' } })
          }
          // Only a running clock was reset: an owner with no active inactivity trigger has none.
          return { ...outcome, clockReset: outcome.cancelledReleases > 0 && triggersService.clockSchedule(this.h.db) !== null }
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
      const owner = account ?? (await this.h.linkOwner())
      const before = firingCount(this.h)
      await this.h.act(owner, (u) => unlocks.recordFailure(u, kind, reason), { now, tick: true })
      const failures = this.h.db.select({ n: sql<number>`count(*)` }).from(unlockFailures).where(gt(unlockFailures.at, now - 365 * DAY_MS)).get()?.n ?? 0
      return { failures, fired: firingCount(this.h) - before, attemptsLeft: unlocks.attemptsLeft(this.h.db, now) }
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
      if (unlocks.hasForgivable(this.h.db, now)) {
        const owner = account ?? (await this.h.linkOwner())
        forgiven = await this.h.act(owner, (u) => unlocks.forgiveFailures(u, kind), { now, tick: (n) => n > 0 })
      }
      return { forgiven, attemptsLeft: unlocks.attemptsLeft(this.h.db, now) }
    })
  }

  async resendDeathReportLinks(account: Account, triggerId: string) {
    return settle(() => this.h.act(account, (u) => triggersService.resendDeathReportLinks(u, triggerId)))
  }
}

function firingCount(h: OwnerHost): number {
  return h.db.get<{ n: number }>(sql`select count(*) as n from firings`).n
}
