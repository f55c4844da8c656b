import { and, eq, gt, lt, sql } from 'drizzle-orm'
import { CIRCLE_MESSAGES, MAIL_LIMITS } from '../../contract/circle'
import { DAY_MS, HOUR_MS } from '../../contract/constants'
import { tooManyRequests } from '../lib/errors'
import type { OwnerDb } from './db'
import { thirdPartyMail } from './schema'
import type { Unit } from './unit'

// Mail that cannot be turned against third parties (MAIL_LIMITS): what the owner asks the vault to
// send to other people (invitations, resends) is refused with 429 past the limits. The engine's
// own mail (check-ins to the owner, release notices) counts but is never held back.
//
// The limits count what was sent to an address (third_party_mail), not what was done to a row: a
// person deleted and added again is the same address, and their invitations and resends count
// together, so adding and deleting someone in a loop cannot e-mail them more than a resend could.

/** What the owner asks to be sent: an invitation to someone added, a resend, or a link to a beneficiary's new address. */
export type MailAct = 'invitation' | 'resend' | 'new-address'

const PER_PERSON_REFUSAL: Record<MailAct, string> = {
  invitation: CIRCLE_MESSAGES.invitationLimit,
  resend: CIRCLE_MESSAGES.resendLimit,
  'new-address': CIRCLE_MESSAGES.newAddressLimit,
}

/** Records one e-mail to someone other than the owner, and forgets those a day old. */
export function recordThirdPartyMail(db: OwnerDb, address: string, now: number): void {
  db.insert(thirdPartyMail).values({ address: address.toLowerCase(), at: now }).run()
  db.delete(thirdPartyMail).where(lt(thirdPartyMail.at, now - DAY_MS)).run()
}

/** E-mails to `address` in the last hour, whatever sent them and whether its row still exists. */
function sentToAddressThisHour(u: Unit, address: string): number {
  const where = and(eq(thirdPartyMail.address, address.toLowerCase()), gt(thirdPartyMail.at, u.now - HOUR_MS))
  return u.db.select({ n: sql<number>`count(*)` }).from(thirdPartyMail).where(where).get()?.n ?? 0
}

/** E-mails to people other than the owner in the last day. */
function sentToOthersToday(u: Unit): number {
  return u.db.select({ n: sql<number>`count(*)` }).from(thirdPartyMail).where(gt(thirdPartyMail.at, u.now - DAY_MS)).get()?.n ?? 0
}

/**
 * Why the owner's `act` (an e-mail to `address`) may not go now: past the hourly limit for that
 * address, or past the daily limit on all third-party mail. Null if it may.
 */
export function mailRefusal(u: Unit, address: string, act: MailAct): string | null {
  if (sentToAddressThisHour(u, address) >= MAIL_LIMITS.perPersonPerHour) return PER_PERSON_REFUSAL[act]
  if (sentToOthersToday(u) >= MAIL_LIMITS.thirdPartyPerDay) return CIRCLE_MESSAGES.dailyMailLimit
  return null
}

/** Refuses (429) what mailRefusal refuses. */
export function assertMayMail(u: Unit, address: string, act: MailAct): void {
  const refusal = mailRefusal(u, address, act)
  if (refusal) throw tooManyRequests(refusal)
}
