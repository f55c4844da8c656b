import { describe, expect, it } from 'vitest'
import { accessDate, ACCESS_REQUEST_STATUSES, type AccessRequest, type AccessRequestPreview, type RequestablePolicy } from '../../contract/access-requests'
import { askStateText, canAnswer, canAsk, previewLine, refuseLinkEnding, requestLine, requestsCardShown } from '@/features/access-requests/request-lines'

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

describe("the owner's e-mailed Refuse link", () => {
  it('offers Refuse only while the request waits, and otherwise says how it ended', () => {
    expect(refuseLinkEnding('waiting')).toBeNull()
    expect(refuseLinkEnding('refused')).toBe('You already refused this request.')
    expect(refuseLinkEnding('approved')).toBe('You approved this request.')
    expect(refuseLinkEnding('released')).toBe('This request already went through.')
    expect(refuseLinkEnding('withdrawn')).toBe('This request has ended.')
  })
})

const policy = (over: Partial<RequestablePolicy>): RequestablePolicy => ({
  policyId: 'p1',
  policyName: 'Family',
  ownerName: 'Olive',
  waitDays: 7,
  opensAt: '2026-11-27T10:00:00.000Z',
  state: 'can_ask',
  requestId: null,
  decideBy: null,
  refusedAt: null,
  askAgainFrom: null,
  ...over,
})

describe('what a person who may ask for access is offered and told', () => {
  it('Ask for access is offered only on a policy not asked under yet', () => {
    const states = ['can_ask', 'waiting', 'refused', 'released', 'approved'] as const
    expect(states.filter((state) => canAsk({ state }))).toEqual(['can_ask'])
  })

  it('each request state is told in its own words: may ask (with the wait), asked, approved, released, refused (with when to ask again)', () => {
    expect(askStateText(policy({}))).toBe('Olive lets you ask for access. They are told at once; if they do not refuse within 7 days, it opens to you.')
    expect(askStateText(policy({ waitDays: 1 }))).toContain('within 1 day,')
    expect(askStateText(policy({ state: 'waiting', decideBy: '2026-11-27T10:00:00.000Z' }))).toBe(
      `You asked. Unless Olive refuses, access opens on ${accessDate('2026-11-27T10:00:00.000Z')}.`,
    )
    expect(askStateText(policy({ state: 'approved', decideBy: '2026-11-27T10:00:00.000Z' }))).toBe(
      'Olive approved your request. It opens as soon as any checks the owner set are done.',
    )
    expect(askStateText(policy({ state: 'released' }))).toBe('Access was given: what it released is in your released assets.')
    expect(askStateText(policy({ state: 'refused', refusedAt: '2026-11-22T09:00:00.000Z', askAgainFrom: '2026-11-29T09:00:00.000Z' }))).toBe(
      `Olive refused your request on ${accessDate('2026-11-22T09:00:00.000Z')}. You can ask again from ${accessDate('2026-11-29T09:00:00.000Z')}.`,
    )
  })
})

const preview = (over: Partial<AccessRequestPreview>): AccessRequestPreview => ({
  policyId: 'p1',
  policyName: 'Family',
  days: 7,
  by: ['beneficiaries'],
  waitHours: 168,
  itemCount: 3,
  recipientNames: ['Ben', 'Cy'],
  requesters: 2,
  minimumApprovals: 0,
  identityRequired: false,
  ...over,
})

describe("the monitor's Access Requests card", () => {
  it('is left out only once loaded with no request and no policy that allows one', () => {
    expect(requestsCardShown(undefined)).toBe(true)
    expect(requestsCardShown({ requests: [], policies: [] })).toBe(false)
    expect(requestsCardShown({ requests: [request({})], policies: [] })).toBe(true)
    expect(requestsCardShown({ requests: [], policies: [preview({})] })).toBe(true)
  })

  it('says what a request would release today: to whom, after the real wait, with approvals and identity checks', () => {
    expect(previewLine(preview({}))).toBe('“Family”: 3 items to Ben, Cy (a beneficiary who asks gets their own part), after 7 days. ')
    expect(previewLine(preview({ waitHours: 24, minimumApprovals: 1, identityRequired: true }))).toBe(
      '“Family”: 3 items to Ben, Cy (a beneficiary who asks gets their own part), after 1 day, once 1 approver sign off, with identity checks. ',
    )
    expect(previewLine(preview({ waitHours: 30, minimumApprovals: 2 }))).toContain('after 30 hours, once 2 approvers sign off.')
    expect(previewLine(preview({ requesters: 1 }))).not.toContain('Nobody')
    expect(previewLine(preview({ recipientNames: [], requesters: 0 }))).toBe(
      '“Family”: 3 items to nobody yet (a beneficiary who asks gets their own part), after 7 days. Nobody you allow can ask yet.',
    )
  })
})
