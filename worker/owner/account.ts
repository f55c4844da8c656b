import { env } from 'cloudflare:workers'
import { eq } from 'drizzle-orm'
import { getDb } from '../db/client'
import { users, type UserRow } from '../db/schema'

/**
 * What the owner's object needs to know of the account (kept in D1): who to write to, the plan
 * that sets the limits, the payment hold, and the check-in frequency. Owner routes pass it from
 * the signed-in user they already read; alarms and links read it fresh.
 */
export interface Account {
  id: string
  email: string
  /** The owner confirmed their address (until then the vault e-mails nobody else for them). */
  emailVerified: boolean
  displayName: string
  role: UserRow['role']
  planTier: UserRow['planTier']
  subscriptionStatus: string | null
  paymentGraceUntil: number | null
  pingFrequency: number | null
  /** Paused by the back office: the subscription gate refuses (worker/services/users.ts hasActiveSubscription). */
  pausedAt: number | null
  /** The owner asked for the account to be deleted: it is frozen, nothing fires, until it goes or is kept. */
  deletionRequestedAt: number | null
  /** The owner's second address, once verified (null before: it hears nothing but its verification). */
  backupEmail: string | null
  /** The emergency contact's address, when the owner opted in to having them told (worker/mail/channels.ts). */
  alertContact: string | null
  /** Given in the profile; the emergency contact's notice says it, to reach the owner by. */
  phoneNumber: string | null
  /** The owner's time zone (profile): dates in e-mails to the owner are written in it (mail/dates.ts). */
  timeZone: string
}

export function accountOf(user: UserRow): Account {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerifiedAt !== null,
    displayName: user.displayName,
    role: user.role,
    planTier: user.planTier,
    subscriptionStatus: user.subscriptionStatus,
    paymentGraceUntil: user.paymentGraceUntil,
    pingFrequency: user.pingFrequency,
    deletionRequestedAt: user.deletionRequestedAt,
    pausedAt: user.pausedAt,
    backupEmail: user.backupEmailVerifiedAt !== null ? user.backupEmail : null,
    alertContact: user.emergencyContactAlerts ? user.emergencyContact : null,
    phoneNumber: user.phoneNumber,
    timeZone: user.timezone,
  }
}

export async function loadAccount(env: Pick<Env, 'DB'>, ownerId: string): Promise<Account | null> {
  const row = await getDb(env).query.users.findFirst({ where: eq(users.id, ownerId) })
  return row ? accountOf(row) : null
}

/**
 * After any write to the owner's D1 row that changes what accountOf reads: the owner's object gets
 * the row as it now is (`row`, when the writer has it, or read again) (its requests are judged by that copy, worker/owner/sessions.ts). Null when
 * the account is gone: its sessions then name nothing.
 */
export async function mirrorAccount(ownerId: string, row?: UserRow | null): Promise<Account | null> {
  const account = row === undefined ? await loadAccount(env, ownerId) : row && accountOf(row)
  await env.OWNER_VAULT.get(env.OWNER_VAULT.idFromName(ownerId)).mirrorAccount(account)
  return account
}

/** Frozen for deletion: triggers monitor but nothing fires (and nothing moves on to the heirs). */
export function deletionHeld(account: Pick<Account, 'deletionRequestedAt'>): boolean {
  return account.deletionRequestedAt !== null
}

/** A payment issue's grace is running: triggers monitor but do not fire. */
export function paymentHeld(account: Pick<Account, 'paymentGraceUntil'>, now: number): boolean {
  return account.paymentGraceUntil !== null && account.paymentGraceUntil > now
}
