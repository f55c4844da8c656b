import type { Policy } from '../../../contract/policies'
import { useSafetyWindow } from '@/features/settings/api'
import { EARLIEST_COPY, policyEarliestLines, type EarliestLine } from '@/features/triggers/earliest'

type ReleaseOn = Policy['ruleJson']['release']['on']

/** The owner's safety window in hours, or null until it is known. */
export function useSafetyWindowHours(): number | null {
  return useSafetyWindow().data?.hours ?? null
}

/** One line per cause that releases a policy: when its items become available at the earliest. */
export function EarliestLines({ lines }: { lines: readonly EarliestLine[] }) {
  return (
    <ul className="grid gap-0.5" data-testid="policy-earliest">
      {lines.map((line) => (
        <li key={line.cause}>{line.text}</li>
      ))}
    </ul>
  )
}

/** Beside the policy form's delay: the lines, live as the owner ticks triggers and types a delay. */
export function PolicyFormEarliest({ on, delayHours }: { on: ReleaseOn; delayHours: number }) {
  const lines = policyEarliestLines(on, delayHours, useSafetyWindowHours())
  // Nothing while the delay is not a number of hours: its own error says why.
  if (on.length > 0 && lines.length === 0) return null
  return (
    <div className="grid gap-1 rounded-lg bg-slate-50 p-3 text-xs text-slate-600" aria-live="polite">
      <p className="font-medium text-slate-800">{EARLIEST_COPY.heading}</p>
      {on.length === 0 ? <p>{EARLIEST_COPY.noTrigger}</p> : <EarliestLines lines={lines} />}
    </div>
  )
}
