import type { CancelOutcome, CancelView } from '../../../contract/releases'

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
export const at = (iso: string) => timeFormat.format(new Date(iso))
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many.replace('#', String(n)))

/** What a cancel would take back, in the owner's words: never "nothing was released" when something was available. */
export function pendingFacts(view: CancelView): string[] {
  const facts: string[] = []
  if (view.availableItems > 0) {
    facts.push(
      `${plural(view.availableItems, 'One item is', '# items are')} available to your beneficiaries now. Cancelling withdraws ${plural(view.availableItems, 'it', 'them')} at once: no further download will be allowed.`,
    )
  } else if (view.downloaded.length === 0) {
    facts.push('Nothing has been made available to anyone yet.')
  }
  if (view.waitingReleases > 0 && view.earliestAt) {
    facts.push(`${plural(view.waitingReleases, 'One release is', '# releases are')} waiting; the earliest would go out ${at(view.earliestAt)}. Cancelling stops ${plural(view.waitingReleases, 'it', 'them')}.`)
  }
  facts.push(
    view.clockRuns
      ? 'Cancelling also resets your inactivity clock, and anyone who was told of the release is told it was withdrawn.'
      : 'Anyone who was told of the release is told it was withdrawn.',
  )
  return facts
}

export function cancelledFacts(result: CancelOutcome): string[] {
  const facts = [`${plural(result.cancelledReleases, 'One release was', '# releases were')} cancelled.`]
  facts.push(
    result.withdrawnItems > 0
      ? `${plural(result.withdrawnItems, 'One item that was', '# items that were')} available to your beneficiaries ${plural(result.withdrawnItems, 'has', 'have')} been withdrawn.`
      : 'Nothing had been made available to anyone.',
  )
  if (result.heirsTold > 0) facts.push(`${plural(result.heirsTold, 'The beneficiary who was', 'The # beneficiaries who were')} told of the release ${plural(result.heirsTold, 'has', 'have')} been told it was withdrawn.`)
  return facts
}

/**
 * The owner's cancel link offers "Cancel the release" only while something of it is waiting or
 * available (null); an already cancelled release, or one with nothing left, is said so instead.
 */
export function cancelEnding(state: CancelView['state']): { title: string; description: string } | null {
  if (state === 'cancelled') return { title: 'Release already cancelled', description: 'This release was already cancelled. Nothing of it can be downloaded.' }
  if (state === 'over') return { title: 'Nothing left to cancel', description: 'Everything this release made available has expired or been downloaded in full.' }
  return null
}
