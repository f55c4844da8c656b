// Release readiness (issue 0.2 · 2 of 7): whether what the owner chose would reach the people they
// chose if it had to happen today, and, for each reason it would not, what to do about it.
// GET /api/release-readiness answers a ReleaseReadiness.

export const READINESS_KINDS = [
  /** An item's own protocol waits for a kind of trigger the owner has not set up. */
  'item_trigger_missing',
  /** …or has set up but paused. */
  'item_trigger_paused',
  /** An item needs sign-off from an address that is not a verified approver. */
  'item_approver_unverified',
  /** An active policy releases on kinds of trigger none of which is set up and active. */
  'policy_trigger_missing',
  /** An active policy asks for more approvals than it has verified approvers to give them. */
  'policy_approvals_short',
  /** An active policy's approver contact is not a verified approver. */
  'policy_approver_contact_unverified',
  /** An active policy needs identity checks and no verified approver can review them. */
  'identity_no_reviewer',
  /** A beneficiary something is left to has not confirmed their address. */
  'beneficiary_unverified',
  /** A beneficiary something is left to asked for no notifications (the release e-mail still goes). */
  'beneficiary_unsubscribed',
  /** E-mail to a beneficiary something is left to could not be delivered (it bounced, retries ran out). */
  'beneficiary_undeliverable',
  /** A verified-death trigger is active, and no verified approver holds a link to report a death. */
  'death_link_unsent',
] as const
export type ReadinessKind = (typeof READINESS_KINDS)[number]

/** An error means something chosen would not reach someone today; a warning, that it might not. */
export type ReadinessSeverity = 'error' | 'warning'

export interface ReadinessProblem {
  kind: ReadinessKind
  severity: ReadinessSeverity
  subject: { type: 'item' | 'policy' | 'beneficiary' | 'trigger' | 'approver'; id: string }
  /** Words for the owner; never an id. */
  message: string
  /** Where in the app this is fixed. */
  fix: { label: string; href: string }
}

export interface ReleaseReadiness {
  /** No error: everything chosen has a working route to the people chosen. */
  ready: boolean
  problems: ReadinessProblem[]
}

/** Trigger kinds an item's own protocol is served by ('manual': a manual release of any trigger). */
export type ServingTrigger = 'inactivity' | 'verified_death' | 'biometric_failure' | 'manual' | null

export function servingTrigger(protocol: string): ServingTrigger {
  if (protocol === 'VERIFIED_DEATH') return 'verified_death'
  if (protocol === 'BIOMETRIC_FAILURE') return 'biometric_failure'
  if (protocol.startsWith('INACTIVITY_')) return 'inactivity'
  if (protocol === 'MANUAL_RELEASE' || protocol === 'EMERGENCY') return 'manual'
  // SCHEDULED keeps its own date.
  return null
}
