import { z } from 'zod'
import { DAY_MS } from './constants'

// Access on request (issue 0.3 · 5 of 7): a policy may let its beneficiaries, or approvers, ask for
// its items. The owner is told at once with "Approve now" and "Refuse"; unless the owner refuses
// within the waiting time, the items are released to the requester. The real wait is the longest
// of the policy's waiting time, the owner's safety window and the policy's delay.

export const ACCESS_REQUEST = {
  defaultDays: 7,
  minDays: 1,
  maxDays: 365,
  /** After a refusal, the same person may ask again for the same policy only this long after it. */
  reaskAfterMs: 7 * DAY_MS,
} as const

export const ACCESS_REQUESTERS = ['beneficiaries', 'approvers'] as const
export type AccessRequester = (typeof ACCESS_REQUESTERS)[number]

export const ACCESS_REQUEST_STATUSES = ['waiting', 'refused', 'approved', 'released', 'withdrawn'] as const
export type AccessRequestStatus = (typeof ACCESS_REQUEST_STATUSES)[number]

export const ACCESS_AUDIT_ACTIONS = {
  requested: 'access.requested',
  refused: 'access.refused',
  approved: 'access.approved',
  linkSent: 'access.link_sent',
} as const

const longDate = (at: number | string) => new Date(at).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })

export const ACCESS_REQUEST_MESSAGES = {
  daysRange: `The waiting time must be between ${ACCESS_REQUEST.minDays} and ${ACCESS_REQUEST.maxDays} days.`,
  requestersRequired: 'Choose who may ask for access.',
  notRequestable: 'This policy does not let you ask for access.',
  requestNotFound: 'Access request not found.',
  alreadyWaiting: 'You have already asked for access; it is waiting for the owner.',
  askAgainFrom: (at: number | string) => `The owner refused your last request. You can ask again from ${longDate(at)}.`,
  /** The name shown for a requester the owner has since removed. */
  someoneRemoved: 'Someone you have since removed',
  nothingToRelease: 'There is nothing in this policy for you yet.',
  notWaiting: 'This request is no longer waiting for a decision.',
  refused: 'Request refused. Nothing will be released.',
  approved: 'Request approved. The items are released now, unless the policy still needs approvals or identity checks.',
  requested: (at: number | string) => `Your request was sent to the owner. Unless they refuse, access opens on ${longDate(at)}.`,
  linkSent: 'If this address may ask for access, we have sent a link to it.',
  /** The form's note: the wait that really applies. */
  realWait: (windowHours: number) =>
    `The real wait is the longer of this and your safety window (${windowHours} ${windowHours === 1 ? 'hour' : 'hours'}), and never shorter than the policy's delay.`,
} as const

export { longDate as accessDate }

/** The policy form's setting; null turns it off. */
export const accessRequestSettingSchema = z
  .object({
    days: z
      .number({ error: ACCESS_REQUEST_MESSAGES.daysRange })
      .int(ACCESS_REQUEST_MESSAGES.daysRange)
      .min(ACCESS_REQUEST.minDays, ACCESS_REQUEST_MESSAGES.daysRange)
      .max(ACCESS_REQUEST.maxDays, ACCESS_REQUEST_MESSAGES.daysRange)
      .default(ACCESS_REQUEST.defaultDays),
    by: z.array(z.enum(ACCESS_REQUESTERS)).min(1, ACCESS_REQUEST_MESSAGES.requestersRequired).max(2).default(['beneficiaries']),
  })
  .nullable()
export type AccessRequestSetting = z.output<typeof accessRequestSettingSchema>

/** One request, as the owner's Trigger Monitor lists it. */
export const accessRequestSchema = z.object({
  id: z.string(),
  policyId: z.string(),
  policyName: z.string(),
  requesterKind: z.enum(['beneficiary', 'approver']),
  requesterName: z.string(),
  requestedAt: z.string(),
  decideBy: z.string(),
  status: z.enum(ACCESS_REQUEST_STATUSES),
  decidedAt: z.string().nullable(),
  /** Who receives the items if it goes through. */
  recipientNames: z.array(z.string()),
  itemCount: z.number().int(),
})
export type AccessRequest = z.infer<typeof accessRequestSchema>

/** The dry run of a request on a policy: what it would release, to whom, and when. */
export const accessRequestPreviewSchema = z.object({
  policyId: z.string(),
  policyName: z.string(),
  days: z.number().int(),
  by: z.array(z.enum(ACCESS_REQUESTERS)),
  /** The real wait: max(waiting time, safety window, policy delay). */
  waitHours: z.number().int(),
  itemCount: z.number().int(),
  recipientNames: z.array(z.string()),
  /** How many people could ask today. */
  requesters: z.number().int(),
  minimumApprovals: z.number().int(),
  identityRequired: z.boolean(),
})
export type AccessRequestPreview = z.infer<typeof accessRequestPreviewSchema>

export const ownerAccessRequestsSchema = z.object({
  requests: z.array(accessRequestSchema),
  policies: z.array(accessRequestPreviewSchema),
  safetyWindowHours: z.number(),
})
export type OwnerAccessRequests = z.infer<typeof ownerAccessRequestsSchema>

/** What a requester (heir at the portal, or approver by link) sees of each policy they may ask for. */
export const requestablePolicySchema = z.object({
  policyId: z.string(),
  policyName: z.string(),
  ownerName: z.string(),
  waitDays: z.number(),
  /** The date access would open if asked now, unless refused. */
  opensAt: z.string(),
  state: z.enum(['can_ask', 'waiting', 'refused', 'released', 'approved']),
  /** Waiting or approved: when it opens; refused: the refusal date and the date one may ask again. */
  requestId: z.string().nullable(),
  decideBy: z.string().nullable(),
  refusedAt: z.string().nullable(),
  askAgainFrom: z.string().nullable(),
})
export type RequestablePolicy = z.infer<typeof requestablePolicySchema>

export const requesterViewSchema = z.object({
  name: z.string(),
  ownerName: z.string(),
  policies: z.array(requestablePolicySchema),
})
export type RequesterView = z.infer<typeof requesterViewSchema>

export const accessRequestBodySchema = z.object({ policyId: z.uuid(ACCESS_REQUEST_MESSAGES.notRequestable) })
export const accessRequestLinkBodySchema = accessRequestBodySchema.extend({ token: z.string().min(10).max(2048) })
export const accessRefuseLinkBodySchema = z.object({ token: z.string().min(10).max(2048) })

export const accessRequestResultSchema = z.object({ message: z.string(), request: requestablePolicySchema })
export type AccessRequestResult = z.infer<typeof accessRequestResultSchema>

/** The owner's refuse link, opened without signing in. */
export const accessRefuseViewSchema = z.object({
  ownerName: z.string(),
  policyName: z.string(),
  requesterName: z.string(),
  decideBy: z.string(),
  status: z.enum(ACCESS_REQUEST_STATUSES),
})
export type AccessRefuseView = z.infer<typeof accessRefuseViewSchema>
