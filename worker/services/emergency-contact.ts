import type { Context } from 'hono'
import type { UserRow } from '../db/schema'
import { TRUST_DETAILS } from '../mail/trust-templates'
import { assertFreshProof } from '../middleware/fresh-proof'
import type { AppEnv } from '../types'
import { audit } from './audit'
import { tellOwner } from './trust-mail'

// The emergency contact is a trust change: it decides who hears that the owner has not answered,
// and that notice carries the owner's address and phone. The channels card (PUT
// /api/channels/contact) and the Profile page (PUT /api/profile) both edit it, through this one rule.

export interface EmergencyContact {
  email: string | null
  alerts: boolean
}

export type ContactChange = 'added' | 'changed' | 'removed' | 'alerts_on' | 'alerts_off'

/** Where the change was made, for the audit entry. */
export type ContactChangeVia = 'settings' | 'profile'

/** The contact as it acts: an opt-in without an address tells no one. */
function effective(contact: EmergencyContact): EmergencyContact {
  const email = contact.email?.toLowerCase() || null
  return { email, alerts: email !== null && contact.alerts }
}

export const storedContact = (user: Pick<UserRow, 'emergencyContact' | 'emergencyContactAlerts'>): EmergencyContact => ({
  email: user.emergencyContact,
  alerts: user.emergencyContactAlerts,
})

/** What saving `next` does to the contact `before`, or null when it changes neither its address nor its opt-in. */
export function contactChange(before: EmergencyContact, next: EmergencyContact): ContactChange | null {
  const a = effective(before)
  const b = effective(next)
  if (a.email !== b.email) return a.email === null ? 'added' : b.email === null ? 'removed' : 'changed'
  if (a.alerts !== b.alerts) return b.alerts ? 'alerts_on' : 'alerts_off'
  return null
}

/**
 * Before writing: the change `next` would make, having refused it (403, nothing written) unless the
 * session's proof is fresh. Null, and no proof needed, when the contact stays as it is.
 */
export async function checkContactChange(c: Context<AppEnv>, before: EmergencyContact, next: EmergencyContact): Promise<ContactChange | null> {
  const change = contactChange(before, next)
  if (change) await assertFreshProof(c)
  return change
}

/** After writing: the audit entry (no address) and the e-mail to the owner's own addresses. */
export async function recordContactChange(c: Context<AppEnv>, user: UserRow, change: ContactChange, via: ContactChangeVia): Promise<void> {
  const now = effective(storedContact(user))
  await audit(c, 'account.emergency_contact_set', { change, alerts: now.alerts, via })
  const detail =
    change === 'removed'
      ? TRUST_DETAILS.contactRemoved
      : change === 'alerts_on'
        ? TRUST_DETAILS.contactTold(now.email!)
        : change === 'alerts_off'
          ? TRUST_DETAILS.contactNotTold(now.email!)
          : TRUST_DETAILS.contactNamed(now.email!, now.alerts)
  await tellOwner(c, user, 'emergency_contact_changed', { detail, ownAddresses: true })
}
