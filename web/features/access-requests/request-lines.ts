import { accessDate, type AccessRequest } from '../../../contract/access-requests'

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
