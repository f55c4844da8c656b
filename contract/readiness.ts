// Release readiness (issue 0.2 · 2 of 7): whether what the owner chose would reach the people they
// chose if it had to happen today, and, for each reason it would not, what to do about it.
// GET /api/release-readiness answers a ReleaseReadiness.

export const READINESS_KINDS = [
  /**
   * No active item reaches a beneficiary through an active trigger yet: the message names the first
   * missing thing (a beneficiary, an item, someone to receive it, a trigger), so "ready" is never
   * said of an empty plan.
   */
  'nothing_protected',
  /** The owner has not confirmed their own address: invitations wait, so nobody chosen can confirm theirs. */
  'owner_unconfirmed',
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
  /** A beneficiary something is left to can open it only with their Access Kit: they made no passphrase backup of their key. */
  'beneficiary_kit_only',
  /** A verified-death trigger is active, and no verified approver holds a link to report a death. */
  'death_link_unsent',
  /** An active policy lets people ask for access, and nobody it allows to ask can (no beneficiary it reaches, no verified approver). */
  'access_request_no_requester',
  /** The mail provider reports one of the owner's channels (their address, backup, emergency contact) bouncing. */
  'channel_bouncing',
] as const
export type ReadinessKind = (typeof READINESS_KINDS)[number]

/** An error means something chosen would not reach someone today; a warning, that it might not. */
export type ReadinessSeverity = 'error' | 'warning'

export interface ReadinessProblem {
  kind: ReadinessKind
  severity: ReadinessSeverity
  /** 'account': the owner's own (the id is theirs). */
  subject: { type: 'account' | 'item' | 'policy' | 'beneficiary' | 'trigger' | 'approver'; id: string }
  /** Words for the owner; never an id. */
  message: string
  /** Where in the app this is fixed. */
  fix: { label: string; href: string }
}

export interface ReleaseReadiness {
  /**
   * No error: at least one item reaches a beneficiary through an active trigger, the owner's address
   * is confirmed, and everything chosen has a working route to the people chosen.
   */
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

type Step = Pick<ReadinessProblem, 'message' | 'fix'>

/** 'nothing_protected', by the first thing missing: the owner's next step. */
export const NOT_PROTECTED = {
  noBeneficiary: { message: 'Not protected yet: add a beneficiary', fix: { label: 'Add a beneficiary', href: '/beneficiaries' } },
  noItem: { message: 'Not protected yet: add an item to your vault', fix: { label: 'Add an item', href: '/vault' } },
  // An item's people are chosen when it is added, or later by a policy covering it.
  noRecipient: { message: 'Not protected yet: choose who receives an item', fix: { label: 'Create an access policy', href: '/protocols' } },
  noTrigger: { message: 'Not protected yet: set up a trigger', fix: { label: 'Set up a trigger', href: '/triggers' } },
  triggersPaused: { message: 'Not protected yet: turn your paused trigger back on', fix: { label: 'Open your triggers', href: '/triggers' } },
  noRoute: {
    message: 'Not protected yet: none of your active triggers would release an item you left to someone',
    fix: { label: 'Open your triggers', href: '/triggers' },
  },
} as const satisfies Record<string, Step>

export const OWNER_UNCONFIRMED = {
  message: 'Confirm your e-mail address: until you do, the people you chose are not invited and cannot confirm theirs.',
  fix: { label: 'Send the link again', href: '/beneficiaries' },
} as const satisfies Step

/** The dashboard's headline over the release plan (web/features/dashboard/view-model.ts `headline`). */
export const PLAN_HEADLINES = {
  protected: 'Your Digital Legacy is Protected',
  started: 'A release from your vault has started',
  attention: 'Your release plan needs attention',
  checking: 'Checking your release plan...',
  unchecked: 'Your release plan could not be checked',
} as const
