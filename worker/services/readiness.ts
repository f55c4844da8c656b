import { sql } from 'drizzle-orm'
import { CHANNEL_BOUNCING } from '../../contract/channels'
import {
  NOT_PROTECTED,
  OWNER_UNCONFIRMED,
  servingTrigger,
  type ReadinessProblem,
  type ReleaseReadiness,
  type ServingTrigger,
} from '../../contract/readiness'
import type { POLICY_TRIGGERS } from '../../contract/policies'
import { TRIGGER_TYPE_LABELS } from '../../contract/triggers'
import { RELEASE_PROTOCOL_LABELS, type ReleaseProtocol } from '../../contract/vault-items'
import type { OwnerDb } from '../owner/db'
import { requestersOf } from './access-requests'
import { approvers, beneficiaries, policies, triggers } from '../owner/schema'

// Release readiness, run inside the owner's object: a fixed handful of queries however many items,
// policies and people there are, then the rules in memory.

type TriggerState = 'active' | 'paused' | 'none'
type PolicyTrigger = (typeof POLICY_TRIGGERS)[number]

type StateKey = Exclude<ServingTrigger, null> | 'manual_release' | 'device_loss'

/** The best state among the owner's triggers of each kind ('manual': any trigger not yet fired). */
function triggerStates(rows: Array<{ type: string; status: string }>): Record<StateKey, TriggerState> {
  const of = (match: (t: { type: string; status: string }) => boolean): TriggerState =>
    rows.some((t) => match(t) && t.status === 'active') ? 'active' : rows.some((t) => match(t) && t.status === 'paused') ? 'paused' : 'none'
  return {
    inactivity: of((t) => t.type === 'inactivity'),
    verified_death: of((t) => t.type === 'verified_death'),
    biometric_failure: of((t) => t.type === 'biometric_failure'),
    device_loss: of((t) => t.type === 'device_loss'),
    manual_release: of((t) => t.type === 'manual_release'),
    manual: of(() => true),
  }
}

const createHref = (kind: Exclude<ServingTrigger, null>) => `/triggers?create=${kind === 'manual' ? 'manual_release' : kind}`

export interface ReadinessContext {
  owner: { id: string; confirmed: boolean }
  now: number
  /** Addresses (lower case) whose e-mail the outbox gave up on lately; the object reads them from D1. */
  undeliverable?: ReadonlySet<string>
  /** The owner's channels in use that the mail provider reports bouncing (worker/mail/channels.ts). */
  bouncingChannels?: ReadonlyArray<keyof typeof CHANNEL_BOUNCING>
}

/**
 * Why nothing is protected yet, by the first thing missing, or null once at least one active item
 * reaches a beneficiary through an active trigger (`reaches`, worked out by the caller).
 */
function nothingProtected(
  counts: { beneficiaries: number; activeItems: number; receiving: number },
  states: Record<StateKey, TriggerState>,
  reaches: boolean,
) {
  if (reaches) return null
  if (counts.beneficiaries === 0) return NOT_PROTECTED.noBeneficiary
  if (counts.activeItems === 0) return NOT_PROTECTED.noItem
  if (counts.receiving === 0) return NOT_PROTECTED.noRecipient
  if (states.manual === 'paused') return NOT_PROTECTED.triggersPaused
  if (states.manual === 'none') return NOT_PROTECTED.noTrigger
  return NOT_PROTECTED.noRoute
}

export function releaseReadiness(db: OwnerDb, { owner, now, undeliverable = new Set(), bouncingChannels = [] }: ReadinessContext): ReleaseReadiness {
  const triggerRows = db.select({ id: triggers.id, type: triggers.type, status: triggers.status, config: triggers.config }).from(triggers).all()
  const approverRows = db.select({ id: approvers.id, email: approvers.email, verifiedAt: approvers.emailVerifiedAt, linkOpen: approvers.deathLinkNonce }).from(approvers).all()
  const people = db
    .select({
      id: beneficiaries.id,
      fullName: beneficiaries.fullName,
      email: beneficiaries.email,
      verifiedAt: beneficiaries.emailVerifiedAt,
      notifications: beneficiaries.notificationStatus,
      hasKeyBackup: sql<number>`${beneficiaries.keyBackup} is not null and ${beneficiaries.keyBackupVersion} = ${beneficiaries.keyVersion}`,
    })
    .from(beneficiaries)
    .all()
  // Active items something is left to directly (their own protocol governs those grants).
  const items = db.all<{ id: string; protocol: string; requiresApprover: number; contact: string | null; scheduledAt: number | null }>(sql`
    select v.id, v.release_protocol as protocol, v.requires_approver as requiresApprover, v.approver_contact as contact, v.scheduled_at as scheduledAt
    from vault_items v
    where v.status = 'active' and exists (select 1 from item_grants g where g.item_id = v.id and g.direct = 1)`)
  // Active policies that hand something over to someone.
  const policyRows = db
    .select()
    .from(policies)
    .where(sql`${policies.status} = 'active'
      and exists (select 1 from policy_items pi join item_grants g on g.item_id = pi.item_id
                  join vault_items v on v.id = pi.item_id and v.status = 'active'
                  join policy_beneficiaries pb on pb.policy_id = pi.policy_id and pb.beneficiary_id = g.beneficiary_id
                  where pi.policy_id = ${policies.id})`)
    .all()
  // Everyone something is left to, by any route.
  const chosen = new Set(db.all<{ id: string }>(sql`select distinct beneficiary_id as id from item_grants`).map((r) => r.id))
  const activeItems = db.get<{ n: number }>(sql`select count(*) as n from vault_items where status = 'active'`)!.n
  // Those an active item is left to, by any grant: what a scheduled trigger naming them hands over.
  const receiving = new Set(db.all<{ id: string }>(sql`select distinct g.beneficiary_id as id from item_grants g join vault_items v on v.id = g.item_id and v.status = 'active'`).map((r) => r.id))

  const states = triggerStates(triggerRows)
  const verified = approverRows.filter((a) => a.verifiedAt !== null)
  const verifiedAddress = new Set(verified.map((a) => a.email.toLowerCase()))
  const problems: ReadinessProblem[] = []
  const releasesOn = (policy: (typeof policyRows)[number]) => policy.releaseOn.filter((t): t is PolicyTrigger => t in states && t !== 'manual')
  // Access on request is a way a policy's items reach people, when someone it allows can ask.
  const approverRowsFull = db.select().from(approvers).all()
  const reachedBy = new Map(
    db
      .all<{ policyId: string; n: number }>(sql`select pb.policy_id as policyId, count(distinct pb.beneficiary_id) as n from policy_beneficiaries pb
        join item_grants g on g.beneficiary_id = pb.beneficiary_id join policy_items pi on pi.policy_id = pb.policy_id and pi.item_id = g.item_id
        join vault_items v on v.id = g.item_id and v.status = 'active' group by pb.policy_id`)
      .map((r) => [r.policyId, r.n]),
  )
  const askable = (policy: (typeof policyRows)[number]) => policy.accessRequestDays !== null && requestersOf(policy, approverRowsFull, reachedBy.get(policy.id) ?? 0) > 0

  // At least one active item reaches someone through an active trigger: its own protocol's kind
  // (servingTrigger; for a manual-release item any active trigger, whose manual release takes it;
  // its own future date for SCHEDULED), an active policy's, or a scheduled trigger naming someone
  // it is left to.
  const reaches =
    items.some((item) => {
      const kind = servingTrigger(item.protocol)
      if (kind) return states[kind] === 'active'
      return item.protocol === 'SCHEDULED' && item.scheduledAt !== null && item.scheduledAt > now
    }) ||
    policyRows.some((policy) => askable(policy) || releasesOn(policy).some((t) => states[t] === 'active')) ||
    triggerRows.some((t) => t.type === 'scheduled' && t.status === 'active' && ((t.config.beneficiaries as string[] | undefined) ?? []).some((id) => receiving.has(id)))
  const missing = nothingProtected({ beneficiaries: people.length, activeItems, receiving: receiving.size }, states, reaches)
  const account = { type: 'account', id: owner.id } as const
  if (missing) problems.push({ kind: 'nothing_protected', severity: 'error', subject: account, ...missing })
  if (!owner.confirmed) problems.push({ kind: 'owner_unconfirmed', severity: 'error', subject: account, ...OWNER_UNCONFIRMED })

  for (const item of items) {
    const kind = servingTrigger(item.protocol)
    const label = RELEASE_PROTOCOL_LABELS[item.protocol as ReleaseProtocol] ?? item.protocol
    // A manual release may name a paused trigger: for those items any trigger not yet fired serves.
    if (kind && (kind === 'manual' ? states.manual === 'none' : states[kind] !== 'active')) {
      const paused = states[kind] === 'paused'
      problems.push({
        kind: paused ? 'item_trigger_paused' : 'item_trigger_missing',
        severity: 'error',
        subject: { type: 'item', id: item.id },
        message:
          kind === 'manual'
            ? `An item set to ${label} can only be released by hand from a trigger, and you have ${paused ? 'only paused ones' : 'none'}.`
            : paused
              ? `An item set to ${label} waits for your ${TRIGGER_TYPE_LABELS[kind].title} trigger, which is paused.`
              : `An item set to ${label} waits for a ${TRIGGER_TYPE_LABELS[kind].title} trigger, and you have none.`,
        fix: paused ? { label: 'Activate the trigger', href: '/triggers' } : { label: kind === 'manual' ? 'Set up a Manual Release trigger' : `Set up a ${TRIGGER_TYPE_LABELS[kind].title} trigger`, href: createHref(kind) },
      })
    }
    if (item.requiresApprover && (!item.contact || !verifiedAddress.has(item.contact.toLowerCase()))) {
      problems.push({
        kind: 'item_approver_unverified',
        severity: 'error',
        subject: { type: 'item', id: item.id },
        message: 'An item needs sign-off from an approver who has not confirmed their address, so they may never be able to approve it.',
        fix: { label: 'Review your approvers', href: '/beneficiaries' },
      })
    }
  }

  for (const policy of policyRows) {
    const on = releasesOn(policy)
    if (policy.accessRequestDays !== null && !askable(policy)) {
      problems.push({
        kind: 'access_request_no_requester',
        severity: 'error',
        subject: { type: 'policy', id: policy.id },
        message: `The policy “${policy.name}” lets people ask for access, and nobody it allows to ask can do so today.`,
        fix: { label: 'Add or verify approvers', href: '/beneficiaries' },
      })
    }
    if (!askable(policy) && !on.some((t) => states[t] === 'active')) {
      const paused = on.some((t) => states[t] === 'paused')
      const title = (t: PolicyTrigger) => TRIGGER_TYPE_LABELS[t].title
      problems.push({
        kind: 'policy_trigger_missing',
        severity: 'error',
        subject: { type: 'policy', id: policy.id },
        message: paused
          ? `The policy “${policy.name}” releases on triggers that are all paused.`
          : `The policy “${policy.name}” releases on ${on.map(title).join(' or ') || 'no trigger'}, and you have no such trigger.`,
        fix: paused || on.length === 0 ? { label: 'Open your triggers', href: '/triggers' } : { label: `Set up a ${title(on[0]!)} trigger`, href: `/triggers?create=${on[0]}` },
      })
    }
    const named = new Set(policy.identityVerificationApprovers)
    const reviewers = verified.filter((a) => named.size === 0 || named.has(a.id))
    if (policy.requiresApprover) {
      const contact = policy.approverContact?.toLowerCase() ?? null
      const signers = new Set([...reviewers.map((a) => a.email.toLowerCase()), ...(contact && verifiedAddress.has(contact) ? [contact] : [])])
      if (policy.minimumApprovals > signers.size) {
        problems.push({
          kind: 'policy_approvals_short',
          severity: 'error',
          subject: { type: 'policy', id: policy.id },
          message: `The policy “${policy.name}” needs ${policy.minimumApprovals} approvals, and only ${signers.size} verified ${signers.size === 1 ? 'approver' : 'approvers'} can give them.`,
          fix: { label: 'Add or verify approvers', href: '/beneficiaries' },
        })
      }
      if (contact && !verifiedAddress.has(contact)) {
        problems.push({
          kind: 'policy_approver_contact_unverified',
          severity: 'error',
          subject: { type: 'policy', id: policy.id },
          message: `The policy “${policy.name}” names an approver contact who is not a verified approver.`,
          fix: { label: 'Review the policy', href: '/protocols' },
        })
      }
    }
    if (policy.requiresIdentityVerification && reviewers.length === 0) {
      problems.push({
        kind: 'identity_no_reviewer',
        severity: 'error',
        subject: { type: 'policy', id: policy.id },
        message: `The policy “${policy.name}” asks for identity checks, and no verified approver can review them.`,
        fix: { label: 'Add or verify approvers', href: '/beneficiaries' },
      })
    }
  }

  for (const person of people) {
    if (!chosen.has(person.id)) continue
    if (undeliverable.has(person.email.toLowerCase())) {
      problems.push({
        kind: 'beneficiary_undeliverable',
        severity: 'error',
        subject: { type: 'beneficiary', id: person.id },
        message: `E-mails to ${person.fullName} could not be delivered lately, so the e-mail that would tell them of a release may not reach them. Check their address.`,
        fix: { label: 'Check their address', href: '/beneficiaries' },
      })
    } else if (person.verifiedAt === null) {
      problems.push({
        kind: 'beneficiary_unverified',
        severity: 'warning',
        subject: { type: 'beneficiary', id: person.id },
        message: `${person.fullName} has not confirmed their e-mail address yet, so we cannot be sure a release would reach them.`,
        fix: { label: 'Resend their verification', href: '/beneficiaries' },
      })
    } else if (person.notifications === 'unsubscribed') {
      problems.push({
        kind: 'beneficiary_unsubscribed',
        severity: 'warning',
        subject: { type: 'beneficiary', id: person.id },
        message: `${person.fullName} asked for no e-mails from us. The release e-mail will still be sent, but they may not be looking for it.`,
        fix: { label: 'Review your beneficiaries', href: '/beneficiaries' },
      })
    } else if (!person.hasKeyBackup) {
      problems.push({
        kind: 'beneficiary_kit_only',
        severity: 'warning',
        subject: { type: 'beneficiary', id: person.id },
        message: `${person.fullName} can open what you leave them only with their Access Kit. If they lose it, they lose everything left to them. They can add a passphrase of their own from their invitation e-mail.`,
        fix: { label: 'Review your beneficiaries', href: '/beneficiaries' },
      })
    }
  }

  const deathTriggers = triggerRows.filter((t) => t.type === 'verified_death' && t.status === 'active')
  if (deathTriggers.length > 0 && !verified.some((a) => a.linkOpen !== null)) {
    problems.push({
      kind: 'death_link_unsent',
      severity: 'error',
      subject: { type: 'trigger', id: deathTriggers[0]!.id },
      message:
        verified.length === 0
          ? 'Your Verified Death trigger needs a verified approver to report a death, and you have none yet.'
          : 'None of your verified approvers holds a working link to report a death (each link reports once, and a cancelled release voids them).',
      fix: verified.length === 0 ? { label: 'Add or verify approvers', href: '/beneficiaries' } : { label: 'Resend report links', href: '/triggers' },
    })
  }

  for (const channel of bouncingChannels) {
    problems.push({
      kind: 'channel_bouncing',
      severity: 'warning',
      subject: account,
      message: CHANNEL_BOUNCING[channel],
      fix: channel === 'contact' ? { label: 'Check your emergency contact', href: '/settings' } : { label: 'Check your addresses', href: '/settings' },
    })
  }

  return { ready: !problems.some((p) => p.severity === 'error'), problems }
}
