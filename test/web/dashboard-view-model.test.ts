import { describe, expect, it } from 'vitest'
import type { AuditEntry } from '../../contract/audit'
import type { EngineStatus, ReleaseSummary } from '../../contract/triggers'
import {
  chainRow,
  encryptionRow,
  lastActivityAt,
  lastActivityText,
  headline,
  monitorRow,
  planRow,
  nextCheckInCard,
  nextCheckInText,
  paidPlanOf,
  planLine,
  relativeTime,
  releaseStarted,
  systemSummary,
} from '@/features/dashboard/view-model'
import { NOT_PROTECTED, OWNER_UNCONFIRMED, PLAN_HEADLINES, READINESS_KINDS, type ReadinessProblem } from '../../contract/readiness'
import { groupProblems } from '@/features/readiness/group'
import { PLANS } from '../../contract/plans'

// The dashboard's live figures: next check-in, last activity, and the system-status rows.

const now = new Date('2025-06-15T12:00:00.000Z')
const at = (ms: number) => new Date(now.getTime() + ms).toISOString()
const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR

function engine(overrides: Partial<EngineStatus> = {}): EngineStatus {
  return {
    isRunning: true,
    nextAlarmAt: null,
    lastSweepAt: null,
    lastCheckInAt: null,
    inactivityTriggerId: 't1',
    nextCheckInAt: null,
    reminderAt: null,
    firesAt: null,
    phase: 'ok',
    pingFrequencyDays: 7,
    graceDays: 14,
    paymentHoldUntil: null,
    releases: [],
    ...overrides,
  }
}

const entry = (createdAt: string) => ({ createdAt }) as AuditEntry

describe('nextCheckInText', () => {
  it('counts whole days up, says Due once passed, and — when unknown', () => {
    expect(nextCheckInText(at(12 * DAY), now)).toBe('12d')
    expect(nextCheckInText(at(11 * DAY + HOUR), now)).toBe('12d')
    expect(nextCheckInText(at(2 * HOUR), now)).toBe('1d')
    expect(nextCheckInText(at(0), now)).toBe('Due')
    expect(nextCheckInText(at(-3 * DAY), now)).toBe('Due')
    expect(nextCheckInText(null, now)).toBe('—')
    expect(nextCheckInText(undefined, now)).toBe('—')
    expect(nextCheckInText('not a date', now)).toBe('—')
  })
})

describe('the Next Check-in card', () => {
  it('is shown only while an active inactivity trigger runs the clock', () => {
    expect(nextCheckInCard(engine({ nextCheckInAt: at(12 * DAY) }), now)).toBe('12d')
    expect(nextCheckInCard(engine({ inactivityTriggerId: null, nextCheckInAt: null }), now)).toBeNull()
    // Even a stale time is not shown without a running clock.
    expect(nextCheckInCard(engine({ inactivityTriggerId: null, nextCheckInAt: at(3 * DAY) }), now)).toBeNull()
    expect(nextCheckInCard(undefined, now)).toBeNull()
  })
})

describe('relativeTime / last activity', () => {
  it('reads like the spec ("2 hours ago"), singular where it should be', () => {
    expect(relativeTime(at(-20 * 1000), now)).toBe('just now')
    expect(relativeTime(at(5 * MIN), now)).toBe('just now')
    expect(relativeTime(at(-MIN), now)).toBe('1 minute ago')
    expect(relativeTime(at(-59 * MIN), now)).toBe('59 minutes ago')
    expect(relativeTime(at(-2 * HOUR - 5 * MIN), now)).toBe('2 hours ago')
    expect(relativeTime(at(-DAY), now)).toBe('1 day ago')
    expect(relativeTime(at(-45 * DAY), now)).toBe('1 month ago')
    expect(relativeTime(at(-800 * DAY), now)).toBe('2 years ago')
  })

  it('takes the newer of the last check-in and the newest audit entry', () => {
    expect(lastActivityAt(at(-3 * HOUR), entry(at(-2 * HOUR)))).toBe(at(-2 * HOUR))
    expect(lastActivityAt(at(-1 * HOUR), entry(at(-2 * HOUR)))).toBe(at(-1 * HOUR))
    expect(lastActivityAt(null, entry(at(-2 * HOUR)))).toBe(at(-2 * HOUR))
    expect(lastActivityAt(at(-5 * MIN), undefined)).toBe(at(-5 * MIN))
    expect(lastActivityAt(null, undefined)).toBeNull()
  })

  it("says 'No activity yet' only when there is nothing", () => {
    expect(lastActivityText(null, now)).toBe('No activity yet')
    expect(lastActivityText(at(-2 * HOUR), now)).toBe('2 hours ago')
  })
})

describe('status rows', () => {
  it('Encryption: active once the vault is set up', () => {
    expect(encryptionRow(true)).toMatchObject({ label: 'Encryption', value: 'Active', tone: 'ok' })
    expect(encryptionRow(false)).toMatchObject({ value: 'Set up your vault', tone: 'warn' })
  })

  it('Inactivity Monitor: Running / Check-in due / Stopped, and loading or failed (never "Healthy": only readiness says the plan holds)', () => {
    expect(monitorRow({ data: engine(), isError: false })).toMatchObject({ label: 'Inactivity Monitor', value: 'Running', tone: 'ok' })
    for (const phase of ['checkin_sent', 'reminder_sent', 'expired'] as const) {
      expect(monitorRow({ data: engine({ phase }), isError: false })).toMatchObject({ value: 'Check-in due', tone: 'warn' })
    }
    expect(monitorRow({ data: engine({ isRunning: false }), isError: false })).toMatchObject({ value: 'Stopped', tone: 'bad' })
    expect(monitorRow({ data: engine({ isRunning: false, phase: 'expired' }), isError: false }).value).toBe('Stopped')
    expect(monitorRow({ data: undefined, isError: false })).toMatchObject({ tone: 'pending' })
    expect(monitorRow({ data: undefined, isError: true })).toMatchObject({ value: 'Unavailable', tone: 'warn' })
  })

  it('Audit chain: Verified / Compromised', () => {
    expect(chainRow({ status: 'verified', checked: 3, serverConfirmed: true })).toMatchObject({ value: 'Verified', tone: 'ok' })
    expect(chainRow({ status: 'compromised', brokenAt: 2, headRemoved: false })).toMatchObject({ value: 'Compromised', tone: 'bad' })
    expect(chainRow({ status: 'checking' }).tone).toBe('pending')
    expect(chainRow({ status: 'unavailable' }).tone).toBe('warn')
  })
})

describe('systemSummary', () => {
  const healthy = [encryptionRow(true), monitorRow({ data: engine(), isError: false }), chainRow({ status: 'verified', checked: 1, serverConfirmed: true })]

  it("'All systems active' only when the engine runs and the chain verifies", () => {
    expect(systemSummary(healthy)).toEqual({ text: 'All systems active', tone: 'ok' })
  })

  it('otherwise says what is wrong, worst first', () => {
    const rows = [
      encryptionRow(true),
      monitorRow({ data: engine({ phase: 'checkin_sent' }), isError: false }),
      chainRow({ status: 'compromised', brokenAt: 4, headRemoved: false }),
    ]
    expect(systemSummary(rows)).toEqual({ text: 'Audit chain compromised · Check-in due', tone: 'bad' })
    expect(systemSummary([encryptionRow(true), monitorRow({ data: engine({ isRunning: false }), isError: false }), healthy[2]!]).text).toBe(
      'Inactivity monitor stopped',
    )
    expect(systemSummary([encryptionRow(false), ...healthy.slice(1)]).text).toBe('Vault not set up')
  })

  it('waits for the checks before claiming anything', () => {
    expect(systemSummary([encryptionRow(true), monitorRow({ data: undefined, isError: false }), chainRow({ status: 'checking' })])).toEqual({
      text: 'Checking systems...',
      tone: 'pending',
    })
  })
})

describe('the release plan on the dashboard (release readiness)', () => {
  const problem = (kind: ReadinessProblem['kind'], severity: ReadinessProblem['severity'], id: string, message = 'An item set to Verified Death waits for a Verified Death trigger, and you have none.'): ReadinessProblem => ({
    kind,
    severity,
    subject: { type: 'item', id },
    message,
    fix: { label: 'Set up a Verified Death trigger', href: '/triggers?create=verified_death' },
  })
  const account = { type: 'account', id: 'owner' } as const
  const notProtected = (step: keyof typeof NOT_PROTECTED): ReadinessProblem => ({ kind: 'nothing_protected', severity: 'error', subject: account, ...NOT_PROTECTED[step] })
  const unconfirmed: ReadinessProblem = { kind: 'owner_unconfirmed', severity: 'error', subject: account, ...OWNER_UNCONFIRMED }
  const plan = (ready: boolean, problems: ReadinessProblem[]) => ({ data: { ready, problems }, isError: false })
  const idle = { data: engine(), isError: false }
  const release = (status: ReleaseSummary['status']) => ({ status }) as ReleaseSummary

  it("says 'Protected' and 'Ready' only when the plan is ready with no problem at all", () => {
    const ready = plan(true, [])
    expect(headline(ready, idle)).toEqual({ text: PLAN_HEADLINES.protected, protected: true })
    expect(planRow(ready)).toMatchObject({ value: 'Ready', tone: 'ok' })
    const stuck = plan(false, [problem('item_trigger_missing', 'error', 'a'), problem('item_trigger_missing', 'error', 'b')])
    expect(headline(stuck, idle)).toEqual({ text: PLAN_HEADLINES.attention, protected: false })
    expect(headline({ data: undefined, isError: false }, idle).text).toBe(PLAN_HEADLINES.checking)
    expect(headline({ data: undefined, isError: true }, idle).text).toBe(PLAN_HEADLINES.unchecked)
    expect(planRow({ data: undefined, isError: true })).toMatchObject({ tone: 'warn' })
    // Whatever else is fine, the summary never says 'All systems active' over a stuck plan.
    expect(systemSummary([planRow(stuck), encryptionRow(true)]).text).not.toBe('All systems active')
  })

  it("never says 'Protected' with any problem left: one warning, a contradicting 'ready', or an unconfirmed address", () => {
    const warned = plan(true, [problem('beneficiary_unverified', 'warning', 'c', 'Ada has not confirmed their e-mail address yet.')])
    expect(headline(warned, idle)).toEqual({ text: PLAN_HEADLINES.attention, protected: false })
    expect(planRow(warned)).toMatchObject({ value: 'Ready, with 1 warning', tone: 'warn' })
    expect(systemSummary([planRow(warned), encryptionRow(true)]).text).not.toBe('All systems active')
    // A server that said ready over an error is not believed.
    expect(headline(plan(true, [unconfirmed]), idle).protected).toBe(false)
    for (const problems of [[unconfirmed], [notProtected('noTrigger')], [problem('death_link_unsent', 'error', 't')]]) {
      const h = headline(plan(false, problems), idle)
      expect(h.protected).toBe(false)
      expect(h.text).not.toBe(PLAN_HEADLINES.protected)
    }
    // Nor before the engine said whether a release is under way.
    expect(headline(plan(true, []), { data: undefined, isError: false })).toEqual({ text: PLAN_HEADLINES.checking, protected: false })
    expect(headline(plan(true, []), { data: undefined, isError: true }).protected).toBe(false)
  })

  it("says 'Protected' only when nothing blocks, never with one problem left: each kind of blocker alone, at either severity, keeps it off", () => {
    expect(headline(plan(true, []), idle).protected).toBe(true)
    const alone = (kind: ReadinessProblem['kind'], severity: ReadinessProblem['severity']): ReadinessProblem =>
      kind === 'nothing_protected' ? notProtected('noTrigger') : kind === 'owner_unconfirmed' ? unconfirmed : problem(kind, severity, 'only', 'Something is left to fix.')
    for (const kind of READINESS_KINDS) {
      for (const severity of ['error', 'warning'] as const) {
        const one = alone(kind, severity)
        // As the server says it (ready unless an error), and as a server that said ready anyway.
        for (const ready of [one.severity !== 'error', true]) {
          const h = headline(plan(ready, [one]), idle)
          expect(h.protected, `${kind} (${one.severity}, ready: ${ready})`).toBe(false)
          expect(h.text).not.toBe(PLAN_HEADLINES.protected)
          expect(planRow(plan(ready, [one])).tone).not.toBe('ok')
          expect(systemSummary([planRow(plan(ready, [one])), encryptionRow(true)]).text).not.toBe('All systems active')
        }
      }
    }
    // Nothing left in the plan, but one release under way, or one check that did not answer: not 'Protected' either.
    for (const status of ['waiting', 'released'] as const) {
      expect(headline(plan(true, []), { data: engine({ releases: [release(status)] }), isError: false }).protected).toBe(false)
    }
    expect(headline({ data: undefined, isError: true }, idle).protected).toBe(false)
    expect(headline(plan(true, []), { data: undefined, isError: true }).protected).toBe(false)
  })

  it('before anything is protected, says the first thing missing and shows its next step', () => {
    const fresh = plan(false, [notProtected('noBeneficiary'), unconfirmed])
    expect(headline(fresh, idle)).toEqual({ text: 'Not protected yet: add a beneficiary', protected: false, next: { label: 'Add a beneficiary', href: '/beneficiaries' } })
    expect(headline(plan(false, [notProtected('noTrigger')]), idle)).toMatchObject({ text: 'Not protected yet: set up a trigger', next: { href: '/triggers' } })
    // Confirmed and protected, but the address is not: the plan needs attention, never 'Protected'.
    expect(headline(plan(false, [unconfirmed]), idle)).toEqual({ text: PLAN_HEADLINES.attention, protected: false })
  })

  it('counts in the Release plan row exactly the lines the panel lists', () => {
    const many = Array.from({ length: 1000 }, (_, i) => problem('item_trigger_missing', 'error', `item-${i}`))
    const cases = [
      [...many],
      [notProtected('noBeneficiary'), unconfirmed],
      [...many, problem('beneficiary_unverified', 'warning', 'b', 'Ada has not confirmed.'), problem('beneficiary_unverified', 'warning', 'c', 'Ben has not confirmed.')],
      [problem('item_trigger_missing', 'error', 'a'), problem('item_trigger_paused', 'error', 'b', 'An item set to Verified Death waits for your Verified Death trigger, which is paused.')],
      [problem('beneficiary_unverified', 'warning', 'b', 'Ada has not confirmed.')],
    ]
    for (const problems of cases) {
      const listed = groupProblems(problems).length
      const row = planRow(plan(!problems.some((p) => p.severity === 'error'), problems))
      expect(Number(/\d+/.exec(row.value)?.[0])).toBe(listed)
    }
    expect(planRow(plan(false, many)).value).toBe('1 problem')
    expect(planRow(plan(false, cases[2]!)).value).toBe('3 problems')
  })

  it("says a release has started only while one is waiting or was released, never for a fired trigger's status alone", () => {
    const ready = plan(true, [])
    const withReleases = (...statuses: Array<ReleaseSummary['status']>) => ({ data: engine({ releases: statuses.map(release) }), isError: false })
    expect(headline(ready, withReleases('waiting')).text).toBe(PLAN_HEADLINES.started)
    expect(headline(ready, withReleases('cancelled', 'released')).text).toBe(PLAN_HEADLINES.started)
    expect(headline(plan(false, [notProtected('noItem')]), withReleases('released')).text).toBe(PLAN_HEADLINES.started)
    // Cancelled (a check-in stopped it) or none at all: nothing is under way.
    expect(headline(ready, withReleases('cancelled', 'cancelled'))).toEqual({ text: PLAN_HEADLINES.protected, protected: true })
    expect(headline(ready, withReleases()).text).toBe(PLAN_HEADLINES.protected)
    expect(releaseStarted(undefined)).toBe(false)
    expect(releaseStarted([release('cancelled')])).toBe(false)
    expect(releaseStarted([release('waiting')])).toBe(true)
  })

  it("says 'Not set up', 'Paused' or 'Fired' for the Inactivity Monitor when no inactivity trigger runs the clock", () => {
    const noClock = engine({ inactivityTriggerId: null, pingFrequencyDays: null, graceDays: null })
    expect(monitorRow({ data: engine(), isError: false }, [])).toMatchObject({ value: 'Not set up', tone: 'warn' })
    expect(monitorRow({ data: noClock, isError: false }, [{ type: 'verified_death', status: 'active' }])).toMatchObject({ value: 'Not set up', tone: 'warn' })
    // A paused trigger runs no clock: never 'Running'.
    expect(monitorRow({ data: noClock, isError: false }, [{ type: 'inactivity', status: 'paused' }])).toMatchObject({ value: 'Paused', tone: 'warn' })
    expect(monitorRow({ data: noClock, isError: false }, [{ type: 'inactivity', status: 'triggered' }])).toMatchObject({ value: 'Fired', tone: 'warn' })
    expect(monitorRow({ data: engine(), isError: false }, [{ type: 'inactivity', status: 'active' }])).toMatchObject({ value: 'Running', tone: 'ok' })
  })

  it('the same words fixed in different places stay separate lines, each with its own fix', () => {
    const here = problem('item_trigger_missing', 'error', 'i1')
    const there = { ...problem('item_trigger_missing', 'error', 'i2'), fix: { label: 'Open the policy', href: '/policies' } }
    expect(groupProblems([here, there]).map((g) => [g.fix.href, g.count])).toEqual([
      ['/triggers?create=verified_death', 1],
      ['/policies', 1],
    ])
  })

  it('an error and a warning of different kinds in the same words stay separate, the error not hidden under the warning', () => {
    const warning = problem('beneficiary_unverified', 'warning', 'b')
    const error = problem('item_trigger_missing', 'error', 'i')
    expect(groupProblems([warning, error]).map((g) => [g.severity, g.count])).toEqual([
      ['error', 1],
      ['warning', 1],
    ])
  })

  it('groups the same reason over many items into one line, errors first', () => {
    const many = Array.from({ length: 1000 }, (_, i) => problem('item_trigger_missing', 'error', `item-${i}`))
    const groups = groupProblems([problem('beneficiary_unverified', 'warning', 'b', 'Ada has not confirmed.'), ...many])
    expect(groups.map((g) => [g.severity, g.count])).toEqual([
      ['error', 1000],
      ['warning', 1],
    ])
  })
})

describe('the dashboard plan card', () => {
  it('names the paid plan, an administrator account, or no paid plan, and says when billing is off', () => {
    expect(planLine({ planTier: 'premium', billingProvider: 'stripe' })).toBe(`${PLANS.premium.name} plan`)
    expect(planLine({ planTier: 'admin', billingProvider: 'stripe' })).toBe('Administrator account')
    expect(planLine({ planTier: 'free', billingProvider: 'stripe' })).toBe('No paid plan')
    expect(planLine({ planTier: 'free', billingProvider: 'none' })).toBe('No paid plan · billing is off on this server')
  })

  it('shows limits only for a paid plan', () => {
    expect(paidPlanOf('basic')).toBe(PLANS.basic)
    expect(paidPlanOf('free')).toBeNull()
    expect(paidPlanOf('admin')).toBeNull()
    expect(paidPlanOf('paused')).toBeNull()
  })
})
