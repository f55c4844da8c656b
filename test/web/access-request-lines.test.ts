import { describe, expect, it } from 'vitest'
import { accessDate, ACCESS_REQUEST_STATUSES, type AccessRequest } from '../../contract/access-requests'
import { canAnswer, requestLine } from '@/features/access-requests/request-lines'

const request = (over: Partial<AccessRequest>): AccessRequest => ({
  id: 'r1',
  policyId: 'p1',
  policyName: 'Family',
  requesterKind: 'beneficiary',
  requesterName: 'Ben',
  requestedAt: '2026-11-20T10:00:00.000Z',
  decideBy: '2026-11-27T10:00:00.000Z',
  status: 'waiting',
  decidedAt: null,
  recipientNames: ['Ben', 'Cy'],
  itemCount: 3,
  ...over,
})

describe("the monitor's access requests", () => {
  it('Approve now and Refuse are offered only for an access request still waiting', () => {
    const offered = ACCESS_REQUEST_STATUSES.filter((status) => canAnswer({ status }))
    expect(offered).toEqual(['waiting'])
  })

  it('say when a waiting request goes unless refused, when one was refused, and what went', () => {
    expect(requestLine(request({}))).toBe(`Unless you refuse, 3 items go to Ben, Cy on ${accessDate('2026-11-27T10:00:00.000Z')}.`)
    expect(requestLine(request({ status: 'refused', decidedAt: '2026-11-22T09:00:00.000Z' }))).toBe(`You refused on ${accessDate('2026-11-22T09:00:00.000Z')}.`)
    expect(requestLine(request({ status: 'released', itemCount: 1, recipientNames: ['Ben'] }))).toBe('1 item for Ben.')
  })
})
