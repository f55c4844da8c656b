import type { RenewalState } from '../../../contract/renewals'

/**
 * What the heir's portal shows of asking for more time: the request waiting, nothing when nothing
 * ran out, or the card, with "Ask for more time" only when the heir can ask (someone can answer and
 * nothing waits) and without it when nobody can answer any more.
 */
export function renewalCard(renewal: Pick<RenewalState, 'needed' | 'canAsk' | 'waiting'>): 'waiting' | 'none' | 'ask' | 'nobody-to-ask' {
  if (renewal.waiting) return 'waiting'
  if (!renewal.needed) return 'none'
  return renewal.canAsk ? 'ask' : 'nobody-to-ask'
}
