import { describe, expect, it } from 'vitest'
import type { AuditEntry } from '../../contract/audit'
import type { EngineStatus } from '../../contract/triggers'
import {
  chainRow,
  encryptionRow,
  lastActivityAt,
  lastActivityText,
  headline,
  monitorRow,
  planRow,
  nextCheckInText,
  relativeTime,
  systemSummary,
} from '@/features/dashboard/view-model'
import type { ReadinessProblem } from '../../contract/readiness'
import { groupProblems } from '@/features/readiness/group'

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
    nextCheckInAt: null,
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

  it("says 'Protected' and 'Ready' only when the plan is ready", () => {
    const ready = { data: { ready: true, problems: [] }, isError: false }
    expect(headline(ready)).toBe('Your Digital Legacy is Protected')
    // Once a trigger fired, the vault is releasing: never 'Protected', whatever the plan says.
    expect(headline(ready, true)).toBe('A release from your vault has started')
    expect(planRow(ready)).toMatchObject({ value: 'Ready', tone: 'ok' })
    const stuck = { data: { ready: false, problems: [problem('item_trigger_missing', 'error', 'a'), problem('item_trigger_missing', 'error', 'b')] }, isError: false }
    expect(headline(stuck)).toBe('Your release plan needs attention')
    expect(planRow(stuck)).toMatchObject({ value: '2 problems', tone: 'bad' })
    expect(headline({ data: undefined, isError: false })).toBe('Checking your release plan...')
    expect(headline({ data: undefined, isError: true })).toBe('Your release plan could not be checked')
    expect(planRow({ data: undefined, isError: true })).toMatchObject({ tone: 'warn' })
    const warned = { data: { ready: true, problems: [problem('beneficiary_unverified', 'warning', 'c', 'Ada has not confirmed their e-mail address yet.')] }, isError: false }
    expect(planRow(warned)).toMatchObject({ value: 'Ready, with warnings', tone: 'warn' })
    // Whatever else is fine, the summary never says 'All systems active' over a stuck plan.
    expect(systemSummary([planRow(stuck), encryptionRow(true)]).text).not.toBe('All systems active')
  })

  it("says 'Not set up' for the Inactivity Monitor without an inactivity trigger", () => {
    expect(monitorRow({ data: engine(), isError: false }, false)).toMatchObject({ value: 'Not set up', tone: 'warn' })
    expect(monitorRow({ data: engine(), isError: false }, true)).toMatchObject({ value: 'Running', tone: 'ok' })
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
