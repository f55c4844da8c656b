import { describe, expect, it } from 'vitest'
import type { Approver } from '../../contract/circle'
import type { IdentityDocument, IdentityReviewView } from '../../contract/identity'
import type { Policy } from '../../contract/policies'
import { identityBadgeStale, identityPolicies, pendingReviews, policiesFor, reviewersFor, reviewOpen, reviewProgress } from '@/features/identity/reviewers'

// Who the identity page says is asked to review a beneficiary's documents (the server's rule,
// worker/services/identity.ts `reviewersFor`), and how far the reviews have got.

function approver(id: string, fullName: string): Approver {
  return { id, fullName, email: `${id}@example.com`, role: 'friend', verified: true, invitationHeld: false, createdAt: '2026-01-01T00:00:00Z' }
}

function policy(id: string, over: Partial<Policy> & { for?: string[] } = {}): Policy {
  const { for: heirs = ['ben-1'], ...rest } = over
  return {
    id,
    name: id,
    description: '',
    status: 'active',
    ruleJson: { assign: heirs.map((beneficiaryId) => ({ beneficiaryId, access: 'read' as const })), release: { on: ['death'], delayHours: 0, requiresApprover: false } },
    encryptedSelectors: '',
    wrappedKey: '',
    requiresApprover: false,
    approverContact: null,
    requiresIdentityVerification: true,
    identityVerificationApprovers: [],
    requiredDocumentTypes: [],
    minimumApprovals: 1,
    accessRequest: null,
    createdAt: '2026-01-01T00:00:00Z',
    ...rest,
  } as Policy
}

function document(over: Partial<IdentityDocument> = {}): IdentityDocument {
  return {
    id: 'doc-1',
    beneficiaryId: 'ben-1',
    documentType: 'passport',
    documentNumber: '',
    issuingAuthority: '',
    expirationDate: '',
    status: 'pending',
    submittedAt: '2026-01-01T00:00:00Z',
    decidedAt: null,
    rejectionReason: null,
    hasBack: false,
    requiredApprovals: 2,
    reviews: [],
    ...over,
  }
}

const alice = approver('ap-alice', 'Alice')
const bob = approver('ap-bob', 'Bob')
const carol = approver('ap-carol', 'Carol')
const all = [alice, bob, carol]

describe('who reviews a beneficiary\'s identity documents', () => {
  it('only the approvers an active identity policy for this beneficiary names, when it names some', () => {
    const policies = [policy('p1', { identityVerificationApprovers: ['ap-bob'] })]
    expect(reviewersFor('ben-1', policies, all).map((a) => a.id)).toEqual(['ap-bob'])
  })

  it('all the owner\'s approvers when the identity policies for this beneficiary name none', () => {
    expect(reviewersFor('ben-1', [policy('p1')], all).map((a) => a.id)).toEqual(['ap-alice', 'ap-bob', 'ap-carol'])
  })

  it('an inactive policy\'s named approvers do not narrow the reviewers', () => {
    const policies = [policy('p1', { status: 'inactive', identityVerificationApprovers: ['ap-bob'] })]
    expect(policiesFor('ben-1', policies)).toEqual([])
    expect(reviewersFor('ben-1', policies, all)).toHaveLength(3)
  })

  it('another beneficiary\'s policy does not choose this beneficiary\'s reviewers', () => {
    const policies = [policy('p1', { for: ['ben-2'], identityVerificationApprovers: ['ap-carol'] })]
    expect(policiesFor('ben-1', policies)).toEqual([])
    expect(reviewersFor('ben-1', policies, all)).toHaveLength(3)
    expect(reviewersFor('ben-2', policies, all).map((a) => a.id)).toEqual(['ap-carol'])
  })

  it('a policy that does not ask for identity verification does not choose reviewers', () => {
    const policies = [policy('p1', { requiresIdentityVerification: false, identityVerificationApprovers: ['ap-alice'] })]
    expect(identityPolicies(policies)).toEqual([])
    expect(reviewersFor('ben-1', policies, all)).toHaveLength(3)
  })

  it('the approvers named by every identity policy for this beneficiary are asked together', () => {
    const policies = [
      policy('p1', { identityVerificationApprovers: ['ap-alice'] }),
      policy('p2', { identityVerificationApprovers: ['ap-carol'] }),
    ]
    expect(reviewersFor('ben-1', policies, all).map((a) => a.id)).toEqual(['ap-alice', 'ap-carol'])
  })
})

describe('how far a document\'s reviews have got', () => {
  it('waits only for the asked approvers who have not reviewed yet', () => {
    const doc = document({ reviews: [{ approverName: 'Alice', status: 'approved', notes: 'ok', createdAt: '2026-01-02T00:00:00Z' }] })
    expect(reviewProgress(doc, all).waitingFor).toEqual(['Bob', 'Carol'])
  })

  it('counts approvals only, never rejections, against the approvals required', () => {
    const doc = document({
      requiredApprovals: 2,
      reviews: [
        { approverName: 'Alice', status: 'approved', notes: 'ok', createdAt: '2026-01-02T00:00:00Z' },
        { approverName: 'Bob', status: 'rejected', notes: 'blurry', createdAt: '2026-01-02T00:00:00Z' },
      ],
    })
    const progress = reviewProgress(doc, all)
    expect(progress.approvals).toBe(1)
    expect(progress.required).toBe(2)
    expect(progress.waitingFor).toEqual(['Carol'])
  })
})

describe('an identity review link', () => {
  it('an approver who already reviewed a document, or whose document is decided, sees that instead of the review form', () => {
    const open = (alreadyReviewed: boolean, status: IdentityReviewView['status']) => reviewOpen({ alreadyReviewed, status })
    expect(open(false, 'pending')).toBe(true)
    expect(open(true, 'pending')).toBe(false)
    expect(open(false, 'verified')).toBe(false)
    expect(open(false, 'rejected')).toBe(false)
    expect(open(true, 'verified')).toBe(false)
  })
})

describe("a beneficiary's identity badge", () => {
  it('is fetched again when the newest document says otherwise than the badge, and only then', () => {
    expect(identityBadgeStale({ status: 'verified' }, { identityStatus: 'pending' })).toBe(true)
    expect(identityBadgeStale({ status: 'rejected' }, { identityStatus: 'pending' })).toBe(true)
    expect(identityBadgeStale({ status: 'pending' }, { identityStatus: 'pending' })).toBe(false)
    expect(identityBadgeStale(undefined, { identityStatus: 'unverified' })).toBe(false)
  })
})

describe('the review overview', () => {
  it('lists only documents still pending, each with its beneficiary, the oldest first', () => {
    const newer = document({ id: 'd-new', submittedAt: '2026-01-03T00:00:00Z' })
    const older = document({ id: 'd-old', submittedAt: '2026-01-02T00:00:00Z' })
    const decided = document({ id: 'd-done', status: 'verified', submittedAt: '2026-01-01T00:00:00Z' })
    const rows = pendingReviews([[newer, decided], undefined, [older]], ['Ben', 'Cy', 'Di'])
    expect(rows.map((r) => [r.document.id, r.beneficiary])).toEqual([
      ['d-old', 'Di'],
      ['d-new', 'Ben'],
    ])
  })
})
