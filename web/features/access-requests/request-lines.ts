import { accessDate, type AccessRequest, type AccessRequestPreview, type OwnerAccessRequests, type RequestablePolicy } from '../../../contract/access-requests'

export const itemsText = (n: number) => `${n} ${n === 1 ? 'item' : 'items'}`

/** Approve now and Refuse are offered only for a request still waiting: a decided one is history. */
export function canAnswer(r: Pick<AccessRequest, 'status'>): boolean {
  return r.status === 'waiting'
}

/** What the monitor says of a request: when it goes unless refused, when it was refused, or what went. */
export function requestLine(r: AccessRequest): string {
  if (r.status === 'waiting') return `Unless you refuse, ${itemsText(r.itemCount)} go to ${r.recipientNames.join(', ')} on ${accessDate(r.decideBy)}.`
  if (r.status === 'refused') return `You refused on ${accessDate(r.decidedAt ?? r.decideBy)}.`
  return `${itemsText(r.itemCount)} for ${r.recipientNames.join(', ')}.`
}

const REFUSE_LINK_ENDED: Partial<Record<AccessRequest['status'], string>> = {
  refused: 'You already refused this request.',
  approved: 'You approved this request.',
  released: 'This request already went through.',
  withdrawn: 'This request has ended.',
}

/** The e-mailed Refuse link offers Refuse only while the request waits (null); otherwise it says how the request ended. */
export function refuseLinkEnding(status: AccessRequest['status']): string | null {
  if (status === 'waiting') return null
  return REFUSE_LINK_ENDED[status] ?? 'This request has ended.'
}

/** "Ask for access" is offered only on a policy the person may ask under and has not asked yet. */
export function canAsk(policy: Pick<RequestablePolicy, 'state'>): boolean {
  return policy.state === 'can_ask'
}

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`

/** Where one request stands for the person who may ask, in plain words. */
export function askStateText(p: RequestablePolicy): string {
  switch (p.state) {
    case 'waiting':
      return `You asked. Unless ${p.ownerName} refuses, access opens on ${accessDate(p.decideBy!)}.`
    case 'approved':
      return `${p.ownerName} approved your request. It opens as soon as any checks the owner set are done.`
    case 'released':
      return 'Access was given: what it released is in your released assets.'
    case 'refused':
      return `${p.ownerName} refused your request on ${accessDate(p.refusedAt!)}. You can ask again from ${accessDate(p.askAgainFrom!)}.`
    default:
      return `${p.ownerName} lets you ask for access. They are told at once; if they do not refuse within ${days(p.waitDays)}, it opens to you.`
  }
}

/** The Monitor's Access Requests card is left out only once loaded with no request and no policy that allows one. */
export function requestsCardShown(data: Pick<OwnerAccessRequests, 'requests' | 'policies'> | undefined): boolean {
  return data === undefined || data.requests.length > 0 || data.policies.length > 0
}

const waitText = (h: number) => (h % 24 === 0 ? `${h / 24} ${h === 24 ? 'day' : 'days'}` : `${h} hours`)

/** "If someone asked today": what a request under a policy would release, to whom, after how long, and on what conditions. */
export function previewLine(p: AccessRequestPreview): string {
  const approvals = p.minimumApprovals > 0 ? `, once ${p.minimumApprovals} approver${p.minimumApprovals === 1 ? '' : 's'} sign off` : ''
  const identity = p.identityRequired ? ', with identity checks' : ''
  return `“${p.policyName}”: ${itemsText(p.itemCount)} to ${p.recipientNames.join(', ') || 'nobody yet'} (a beneficiary who asks gets their own part), after ${waitText(p.waitHours)}${approvals}${identity}. ${p.requesters === 0 ? 'Nobody you allow can ask yet.' : ''}`
}
