import type { Account } from '../owner/account'

/**
 * Who is written to about the owner, by message: the one rule for the owner's channels.
 *
 * | message                                   | primary address | verified backup | opted-in contact |
 * |-------------------------------------------|-----------------|-----------------|------------------|
 * | `check_in`, `check_in_reminder`           | yes             | yes             | no               |
 * | `unlock_warning` (failed unlocks, one short) | yes          | yes             | no               |
 * | `release_started` (with the cancel link)  | yes             | yes             | no               |
 * | `release_cancelled`                       | yes             | yes             | no               |
 * | `access_requested` (Approve now, Refuse)   | yes             | yes             | no               |
 * | `renewal_request` (an heir asks for more) | yes             | yes             | no               |
 * | `owner_unanswered` (no link of any kind)  | no              | no              | yes              |
 *
 * The cancel link, the check-in link and every other link that acts on the vault go to the owner's
 * own addresses only; the contact hears only that the owner has not answered and how to reach
 * them, and only when a death report, inactivity or failed unlocks started a release (fire.ts
 * sends `owner_unanswered` then, never for the owner's own manual release or scheduled date). An
 * unverified backup address is no channel at all (Account.backupEmail is null until it is), and a
 * contact the owner did not opt in is none either (Account.alertContact). Every other message the
 * vault sends about the owner goes to the primary address alone.
 */
export const CHANNEL_RULE = {
  check_in: { owner: true, contact: false },
  check_in_reminder: { owner: true, contact: false },
  unlock_warning: { owner: true, contact: false },
  release_started: { owner: true, contact: false },
  release_cancelled: { owner: true, contact: false },
  access_requested: { owner: true, contact: false },
  renewal_request: { owner: true, contact: false },
  owner_unanswered: { owner: false, contact: true },
} as const satisfies Record<string, { owner: boolean; contact: boolean }>
export type ChannelMessage = keyof typeof CHANNEL_RULE

/** The owner's own addresses: the primary one, then the verified backup (never the same twice). */
export function ownerAddresses(account: Pick<Account, 'email' | 'backupEmail'>): string[] {
  const backup = account.backupEmail
  return backup && backup.toLowerCase() !== account.email.toLowerCase() ? [account.email, backup] : [account.email]
}

/** The addresses a message of this kind goes to, per CHANNEL_RULE. */
export function recipientsFor(kind: ChannelMessage, account: Pick<Account, 'email' | 'backupEmail' | 'alertContact'>): string[] {
  const rule = CHANNEL_RULE[kind]
  const own = ownerAddresses(account)
  const contact = account.alertContact
  // A contact who is the owner's own address is the owner: told as the owner, never as a stranger.
  const isStranger = contact !== null && !own.some((a) => a.toLowerCase() === contact.toLowerCase())
  return [...(rule.owner ? own : []), ...(rule.contact && isStranger ? [contact] : [])]
}
