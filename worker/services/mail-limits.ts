import { and, eq, gt, lt, sql } from 'drizzle-orm'
import { CIRCLE_MESSAGES, MAIL_LIMITS } from '../../contract/circle'
import { DAY_MS, HOUR_MS } from '../../contract/constants'
import { tooManyRequests } from '../lib/errors'
import type { OwnerDb } from '../owner/db'
import { thirdPartyMail } from '../owner/schema'
import type { Unit } from '../owner/unit'

// Mail that cannot be turned against third parties (MAIL_LIMITS): what the owner asks the vault to
// send to other people (invitations, resends) is refused with 429 past the limits. The engine's
// own mail (check-ins to the owner, release notices) counts but is never held back.

/** Records one e-mail to someone other than the owner, and forgets those a day old. */
export function recordThirdPartyMail(db: OwnerDb, address: string, now: number): void {
  db.insert(thirdPartyMail).values({ address: address.toLowerCase(), at: now }).run()
  db.delete(thirdPartyMail).where(lt(thirdPartyMail.at, now - DAY_MS)).run()
}

/**
 * Why an owner's invitation or resend to `address` may not go now: past the daily limit on all
 * third-party mail, or, for a resend (`resend`), past the hourly limit for that person. Null if it may.
 */
export function mailRefusal(u: Unit, address: string, options: { resend: boolean }): string | null {
  const count = (where: ReturnType<typeof and>) => u.db.select({ n: sql<number>`count(*)` }).from(thirdPartyMail).where(where).get()?.n ?? 0
  if (options.resend && count(and(eq(thirdPartyMail.address, address.toLowerCase()), gt(thirdPartyMail.at, u.now - HOUR_MS))) >= MAIL_LIMITS.perPersonPerHour) {
    return CIRCLE_MESSAGES.resendLimit
  }
  if (count(gt(thirdPartyMail.at, u.now - DAY_MS)) >= MAIL_LIMITS.thirdPartyPerDay) return CIRCLE_MESSAGES.dailyMailLimit
  return null
}

/** Refuses (429) what mailRefusal refuses. */
export function assertMayMail(u: Unit, address: string, options: { resend: boolean }): void {
  const refusal = mailRefusal(u, address, options)
  if (refusal) throw tooManyRequests(refusal)
}
