import type { ReleaseSummary, Trigger, TriggerStatus } from '../../../contract/triggers'
import { formatWhen } from './copy'

// The rules of the Monitor's lists (triggers and releases), apart from their React.

/** Pause or Activate: what a toggle sends. A fired trigger has no toggle (null). */
export function toggleTarget(status: TriggerStatus): 'paused' | 'active' | null {
  if (status === 'triggered') return null
  return status === 'active' ? 'paused' : 'active'
}

/** When a trigger fires, as the Monitor says it: fired, would fire (paused), fires, or not known. */
export function triggerFireText(t: Pick<Trigger, 'status' | 'firedAt' | 'nextFireAt'>): string {
  if (t.status === 'triggered') return `Fired ${formatWhen(t.firedAt, 'at an unknown time')}`
  return t.nextFireAt ? `${t.status === 'paused' ? 'Would fire' : 'Fires'} ${formatWhen(t.nextFireAt)} if nothing changes` : 'No firing time known'
}

/** A waiting release is offered Cancel, a released one Withdraw; a cancelled one nothing. */
export function releaseAction(status: ReleaseSummary['status']): 'cancel' | 'withdraw' | null {
  if (status === 'waiting') return 'cancel'
  if (status === 'released') return 'withdraw'
  return null
}

/** When a release went, or goes: released, released then withdrawn, cancelled before it went, or at the earliest. */
export function releaseWhenText(release: Pick<ReleaseSummary, 'status' | 'releaseAt' | 'releasedAt' | 'cancelledAt'>): string {
  if (release.status === 'released') return `Released ${formatWhen(release.releasedAt ?? release.releaseAt)}`
  if (release.status === 'cancelled') {
    return release.releasedAt ? `Released ${formatWhen(release.releasedAt)}, withdrawn ${formatWhen(release.cancelledAt, '')}` : `Cancelled ${formatWhen(release.cancelledAt, '')}`
  }
  return `Releases ${formatWhen(release.releaseAt)} at the earliest`
}

/** What cancelling a release takes back, and what it cannot. */
export function cancelReleaseText(release: Pick<ReleaseSummary, 'status' | 'sourceName'>): string {
  const told = 'Anyone who was told of it is told it was withdrawn. If nothing else its trigger started is still under way, the trigger is armed again.'
  return release.status === 'released'
    ? `What the release from "${release.sourceName}" made available is withdrawn at once: no further download is allowed. Copies already downloaded cannot be taken back. ${told}`
    : `The release from "${release.sourceName}" will not happen: nothing is delivered. ${told}`
}
