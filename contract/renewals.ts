import { z } from 'zod'
import { RELEASE_LIMITS } from './releases'

// Heirs who run out (issue 0.3 · 5 of 7): an heir whose released items reached their download limit
// or their 90 days asks for more from the portal; the owner's approvers with a confirmed address
// (and the owner, while their death is not confirmed) allow it or refuse through their own links.

/** "Ana", "Ana or Ben", "Ana, Ben or Carl". */
export function namesOr(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? ''
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`
}

const RENEWAL_LIMITS_TEXT = `each can be downloaded ${RELEASE_LIMITS.maxDownloads} more times over the next ${RELEASE_LIMITS.assetTtlDays} days`

export const RENEWAL_MESSAGES = {
  /** Who can allow more downloads and time, from the facts (the portal's panel and the server's refusals). */
  whoCanHelp: (helpers: readonly string[]) =>
    helpers.length > 0
      ? `${namesOr(helpers)} can allow more downloads and more time: ask from your page of released items.`
      : 'No one can allow more downloads or more time now: none of the people who could approve it can be reached.',
  askButton: 'Ask for more time',
  askTitle: 'Ask for more time and downloads?',
  askBody: (helpers: readonly string[], count: number) =>
    `We will e-mail ${namesOr(helpers)} and ask them to allow ${count === 1 ? 'this item' : `these ${count} items`} again: ${RENEWAL_LIMITS_TEXT}. We will e-mail you their answer.`,
  asked: 'Your request was sent. We will e-mail you the answer.',
  waiting: (requestedAt: string) => `You asked for more time on ${day(requestedAt)}. We will e-mail you the answer.`,
  lastRefused: 'Your last request was refused.',
  alreadyWaiting: 'You have already asked. Please wait for the answer: we will e-mail it to you.',
  nothingToRenew: 'Nothing here has run out, so there is nothing to ask for.',
  noOneCanHelp: 'No one can allow more downloads or more time now.',
  // The decision page.
  linkInvalid: 'This link is invalid or no longer works.',
  ownerGone: 'This link no longer works: the owner’s death has been confirmed, so only their approvers can answer now.',
  alreadyAnswered: 'You have already answered this request.',
  alreadyDecided: 'This request has already been answered, so nothing more is needed.',
  approvedThanks: (heirName: string) => `Thank you. ${heirName} can download the items again, and we told them so.`,
  refusedThanks: 'Thank you. Your answer was recorded.',
} as const

const day = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })

/** What the portal knows about asking for more (part of GET /api/beneficiaries/{id}/portal). */
export interface RenewalState {
  /** Something ran out (downloads used up, or past its date) and not withdrawn. */
  needed: boolean
  /** Who could allow it now: the owner's name while their death is not confirmed, then approvers with a confirmed address. */
  helpers: string[]
  /** Whether the heir can ask now: something ran out, someone can allow it, and no request is waiting. */
  canAsk: boolean
  waiting: { requestedAt: string } | null
  lastOutcome: { status: 'approved' | 'refused'; decidedAt: string } | null
}

/** POST /api/beneficiaries/{id}/renewals?token=… */
export interface RenewalRequested {
  message: string
  itemCount: number
  renewal: RenewalState
}

/** GET /api/renewal-decisions?token=… : what the owner or an approver is asked. */
export interface RenewalDecisionView {
  ownerName: string
  heirName: string
  /** The one answering: an approver's name, or the owner's. */
  yourName: string
  asOwner: boolean
  itemCount: number
  requestedAt: string
  status: 'waiting' | 'approved' | 'refused'
  yourDecision: 'approved' | 'refused' | null
}

export const renewalDecisionBodySchema = z.object({
  token: z.string().min(10).max(2048),
  decision: z.enum(['approved', 'refused']),
})
