import type { TriggerCreateBody, TriggerUpdateBody } from '../../contract/triggers'
import { FRESH_PROOF_MESSAGES } from '../../contract/fresh-proof'
import { inactivitySchedule } from '../../contract/triggers'
import type { TriggerRow } from '../owner/schema'
import { ApiError } from '../lib/errors'

// What makes a release possible sooner than it was, and so needs fresh proof (the one rule for
// settings; the acts that always need it are guarded on their routes): a new way for a release
// to start without the owner acting then, an old one armed again, a shorter check-in schedule, a
// shorter safety window. A manual release trigger is not one: firing it needs fresh proof itself.

/** A 403 asking for fresh proof, as an owner-object method throws it (the route adds the ways to give it). */
export function needsFreshProof(): ApiError {
  return new ApiError(403, FRESH_PROOF_MESSAGES.required, { requiresFreshProof: true })
}

export function creationIsSooner(body: Pick<TriggerCreateBody, 'type' | 'status'>): boolean {
  return body.type !== 'manual_release' && (body.status ?? 'active') === 'active'
}

export function updateIsSooner(current: TriggerRow, body: TriggerUpdateBody): boolean {
  if (body.status === 'active' && current.status === 'paused' && current.type !== 'manual_release') return true
  if (body.config && current.type === 'inactivity') {
    // The trigger fires this long after the last check-in: only a shorter total brings it sooner.
    const total = (config: Record<string, unknown>) => {
      const { frequencyDays, graceDays } = inactivitySchedule(config)
      return frequencyDays + graceDays
    }
    return total(body.config) < total(current.config as Record<string, unknown>)
  }
  return false
}

export function windowIsSooner(currentHours: number, hours: number): boolean {
  return hours < currentHours
}
