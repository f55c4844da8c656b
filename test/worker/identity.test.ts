import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import type { Beneficiary } from '../../contract/circle'
import { IDENTITY_MESSAGES, type IdentityDocument, type IdentityReviewView } from '../../contract/identity'
import { signLinkToken } from '../../worker/lib/link-tokens'
import { verifiedApprover } from './engine-helpers'
import { ownerExec } from './owner-helpers'
import { addApprover, addBeneficiary, call, env, freshIp, linkTokenIn, messageOf, outboxFor, register, rsaOaepPublicKey, waitFor } from './helpers'

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])
const PDF = new TextEncoder().encode('%PDF-1.7 sample')

function upload(path: string, token: string, fields: Record<string, string | Blob>) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  return exports.default.fetch(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'cf-connecting-ip': freshIp() },
      body: form,
    }),
  )
}

/** The owner uploads a passport (a PNG, with its number, authority and expiry) for `beneficiaryId`. */
function uploadPassport(token: string, beneficiaryId: string) {
  return upload(`/api/identity-verification/${beneficiaryId}`, token, {
    document: new File([PNG], 'id.png', { type: 'image/png' }),
    documentType: 'passport',
    documentNumber: 'X123',
    issuingAuthority: 'State Dept',
    expirationDate: '2031-01-01',
  })
}

/** The newest review request to `email` (review links go only to verified approvers). */
async function reviewMail(email: string) {
  return waitFor(async () => (await outboxFor(email)).find((m) => m.text.includes('/review-identity')))
}

function reviewToken(text: string): string {
  const match = text.match(/\/review-identity\?token=([^\s&]+)/)
  if (!match) throw new Error('no review link')
  return decodeURIComponent(match[1]!)
}

/** The owner's policy asking for `heirIds`' identity, reviewed by `approverIds` (201, or the test fails). */
async function identityPolicy(token: string, heirIds: string[], approverIds: string[], minimumApprovals: number, requiredDocumentTypes?: string[]) {
  const res = await call('/api/policies', {
    token,
    body: {
      name: 'Needs ID',
      description: 'Release only after the identity document is checked.',
      ruleJson: { assign: heirIds.map((beneficiaryId) => ({ beneficiaryId })), release: { on: ['verified_death'] } },
      encryptedSelectors: btoa('s'),
      wrappedKey: btoa('k'),
      requiresIdentityVerification: true,
      identityVerificationApprovers: approverIds,
      ...(requiredDocumentTypes ? { requiredDocumentTypes } : {}),
      minimumApprovals,
    },
  })
  expect(res.status).toBe(201)
  return res
}

async function setting(approvals: number) {
  const owner = await register()
  const beneficiary = await addBeneficiary(owner.token, await rsaOaepPublicKey())
  const approverA = await verifiedApprover(owner.token)
  const approverB = await verifiedApprover(owner.token)
  await identityPolicy(owner.token, [beneficiary.id], [approverA.id, approverB.id], approvals)
  return { owner, beneficiary, approverA, approverB }
}

async function beneficiaryStatus(token: string, id: string) {
  const list = (await (await call('/api/beneficiaries', { token })).json()) as Beneficiary[]
  return list.find((b) => b.id === id)?.identityStatus
}

describe('identity documents', () => {
  it('needs the policy minimum of approvals, each through the approver’s own link', async () => {
    const { owner, beneficiary, approverA, approverB } = await setting(2)
    const res = await uploadPassport(owner.token, beneficiary.id)
    expect(res.status).toBe(201)
    const document = (await res.json()) as IdentityDocument
    expect(document).toMatchObject({ status: 'pending', requiredApprovals: 2, documentType: 'passport', hasBack: false })
    expect(await beneficiaryStatus(owner.token, beneficiary.id)).toBe('pending')

    const tokenA = reviewToken((await reviewMail(approverA.email)).text)
    const tokenB = reviewToken((await reviewMail(approverB.email)).text)
    const view = (await (await call(`/api/identity-reviews?token=${encodeURIComponent(tokenA)}`)).json()) as IdentityReviewView
    expect(view).toMatchObject({ approverName: approverA.fullName, beneficiaryName: beneficiary.fullName, documentNumber: 'X123', alreadyReviewed: false })
    const file = await call(`/api/identity-reviews/file/front?token=${encodeURIComponent(tokenA)}`)
    expect(file.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG)

    const noNotes = await call('/api/identity-verifications', { body: { token: tokenA, status: 'approved', verificationNotes: ' ' } })
    expect(noNotes.status).toBe(400)
    expect(await messageOf(noNotes)).toContain(IDENTITY_MESSAGES.notesRequired)

    const first = await call('/api/identity-verifications', { body: { token: tokenA, status: 'approved', verificationNotes: 'Photo matches.' } })
    expect(((await first.json()) as { documentStatus: string }).documentStatus).toBe('pending')
    const again = await call('/api/identity-verifications', { body: { token: tokenA, status: 'approved', verificationNotes: 'Again.' } })
    expect(again.status).toBe(409)
    const second = await call('/api/identity-verifications', { body: { token: tokenB, status: 'approved', verificationNotes: 'Checked the number.' } })
    expect(((await second.json()) as { documentStatus: string }).documentStatus).toBe('verified')
    expect(await beneficiaryStatus(owner.token, beneficiary.id)).toBe('verified')

    const listed = (await (await call(`/api/identity-documents/beneficiary/${beneficiary.id}`, { token: owner.token })).json()) as IdentityDocument[]
    expect(listed[0]!.reviews.map((r) => r.approverName).sort()).toEqual([approverA.fullName, approverB.fullName].sort())
  })

  it("identity review takes the largest minimum across a beneficiary's policies: one asking 1 and another 2 wait for two approvals, in either order", async () => {
    const owner = await register()
    const key = await rsaOaepPublicKey()
    const first = await addBeneficiary(owner.token, key, { fullName: 'First Heir' })
    const second = await addBeneficiary(owner.token, key, { fullName: 'Second Heir' })
    const approvers = [await verifiedApprover(owner.token), await verifiedApprover(owner.token)]
    const policy = (heirs: string[], minimumApprovals: number) => identityPolicy(owner.token, heirs, approvers.map((a) => a.id), minimumApprovals)
    // The first heir's policies come as [1, 2], the second's as [2, 1].
    await policy([first.id], 1)
    await policy([first.id, second.id], 2)
    await policy([second.id], 1)
    for (const heir of [first, second]) {
      const res = await upload(`/api/identity-verification/${heir.id}`, owner.token, { document: new File([PNG], 'id.png', { type: 'image/png' }), documentType: 'passport' })
      expect(res.status).toBe(201)
      expect(((await res.json()) as IdentityDocument).requiredApprovals, heir.fullName).toBe(2)
    }
  }, 30_000)

  it('never needs more approvals than there are reviewers: a minimum of 3 with two named approvers needs 2', async () => {
    const { owner, beneficiary } = await setting(3)
    const res = await uploadPassport(owner.token, beneficiary.id)
    expect(res.status).toBe(201)
    expect(((await res.json()) as IdentityDocument).requiredApprovals).toBe(2)
  })

  it("only the heir's own active policies decide who reviews, how many approvals and which documents: an inactive policy and another heir's policy change nothing", async () => {
    const owner = await register()
    const key = await rsaOaepPublicKey()
    const heir = await addBeneficiary(owner.token, key, { fullName: 'First Heir' })
    const otherHeir = await addBeneficiary(owner.token, key, { fullName: 'Other Heir' })
    const named = await verifiedApprover(owner.token)
    const elsewhere = await verifiedApprover(owner.token)
    const policy = async (beneficiaryId: string, approverId: string, minimumApprovals: number, type: string, status: string) => {
      const res = await call('/api/policies', {
        token: owner.token,
        body: {
          name: `Needs ID ${status}`,
          description: 'Release only after the identity document is checked.',
          ruleJson: { assign: [{ beneficiaryId }], release: { on: ['verified_death'] } },
          encryptedSelectors: btoa('s'),
          wrappedKey: btoa('k'),
          requiresIdentityVerification: true,
          identityVerificationApprovers: [approverId],
          minimumApprovals,
          requiredDocumentTypes: [type],
          status,
        },
      })
      expect(res.status).toBe(201)
    }
    await policy(heir.id, named.id, 1, 'passport', 'active')
    await policy(heir.id, elsewhere.id, 2, 'drivers_license', 'inactive')
    await policy(otherHeir.id, elsewhere.id, 2, 'drivers_license', 'active')
    const send = (documentType: string) =>
      upload(`/api/identity-verification/${heir.id}`, owner.token, {
        document: new File([PNG], 'id.png', { type: 'image/png' }),
        documentType,
        documentNumber: 'X123',
        issuingAuthority: 'State Dept',
        expirationDate: '2031-01-01',
      })
    expect((await send('drivers_license')).status).toBe(400)
    const res = await send('passport')
    expect(res.status).toBe(201)
    expect(((await res.json()) as IdentityDocument).requiredApprovals).toBe(1)
    await reviewMail(named.email)
    expect((await outboxFor(elsewhere.email)).some((m) => m.text.includes('/review-identity'))).toBe(false)
  })

  it('is rejected by one rejection, with the notes as the reason', async () => {
    const { owner, beneficiary, approverA } = await setting(2)
    const res = await upload('/api/identity-documents', owner.token, {
      beneficiaryId: beneficiary.id,
      documentType: 'national_id',
      frontImage: new File([PDF], 'front.pdf'),
      backImage: new File([PNG], 'back.png'),
    })
    expect(res.status).toBe(201)
    expect(((await res.json()) as IdentityDocument).hasBack).toBe(true)
    const token = reviewToken((await reviewMail(approverA.email)).text)
    await call('/api/identity-verifications', { body: { token, status: 'rejected', verificationNotes: 'The photo is unreadable.' } })
    const [doc] = (await (await call(`/api/identity-documents/beneficiary/${beneficiary.id}`, { token: owner.token })).json()) as IdentityDocument[]
    expect(doc).toMatchObject({ status: 'rejected', rejectionReason: 'The photo is unreadable.' })
    expect(await beneficiaryStatus(owner.token, beneficiary.id)).toBe('rejected')
  })

  it('a document once decided takes no more reviews: a rejected one cannot be approved into verified afterwards', async () => {
    const { owner, beneficiary, approverA, approverB } = await setting(1)
    const res = await upload('/api/identity-documents', owner.token, { beneficiaryId: beneficiary.id, documentType: 'passport', frontImage: new File([PDF], 'front.pdf') })
    expect(res.status).toBe(201)
    const tokenA = reviewToken((await reviewMail(approverA.email)).text)
    const tokenB = reviewToken((await reviewMail(approverB.email)).text)
    expect((await call('/api/identity-verifications', { body: { token: tokenA, status: 'rejected', verificationNotes: 'Expired.' } })).status).toBe(200)
    // The other approver's approval, and the first one changing their mind, both come too late.
    for (const token of [tokenB, tokenA]) {
      const late = await call('/api/identity-verifications', { body: { token, status: 'approved', verificationNotes: 'Looks fine.' } })
      expect(late.status).toBe(409)
      expect(await messageOf(late)).toBe(IDENTITY_MESSAGES.alreadyDecided)
    }
    const [doc] = (await (await call(`/api/identity-documents/beneficiary/${beneficiary.id}`, { token: owner.token })).json()) as IdentityDocument[]
    expect(doc).toMatchObject({ status: 'rejected', rejectionReason: 'Expired.' })
    expect(await beneficiaryStatus(owner.token, beneficiary.id)).toBe('rejected')
  })

  it('a document of a type the policies no longer accept cannot be approved, only rejected', async () => {
    const { owner, beneficiary, approverA } = await setting(1)
    const res = await upload(`/api/identity-verification/${beneficiary.id}`, owner.token, { document: new File([PNG], 'id.png', { type: 'image/png' }), documentType: 'passport' })
    expect(res.status).toBe(201)
    // The owner's policy now asks for a driver's licence instead.
    await ownerExec(owner.user.id, [`update policies set required_document_types = '["drivers_license"]'`])
    const token = reviewToken((await reviewMail(approverA.email)).text)
    const approve = await call('/api/identity-verifications', { body: { token, status: 'approved', verificationNotes: 'Looks fine.' } })
    expect(approve.status).toBe(409)
    expect(await messageOf(approve)).toBe(IDENTITY_MESSAGES.approveTypeNotAccepted('Passport', "Driver's licence"))
    expect(await beneficiaryStatus(owner.token, beneficiary.id)).toBe('pending')
    const reject = await call('/api/identity-verifications', { body: { token, status: 'rejected', verificationNotes: 'A passport is no longer asked for.' } })
    expect(reject.status).toBe(200)
    expect(await beneficiaryStatus(owner.token, beneficiary.id)).toBe('rejected')
  })

  it('refuses bad files and missing fields with the spec messages', async () => {
    const { owner, beneficiary } = await setting(1)
    const path = `/api/identity-verification/${beneficiary.id}`
    const fake = await upload(path, owner.token, { document: new File(['just text'], 'id.png', { type: 'image/png' }), documentType: 'passport' })
    expect(fake.status).toBe(400)
    expect(await messageOf(fake)).toBe(`${IDENTITY_MESSAGES.invalidFileTypeTitle}: ${IDENTITY_MESSAGES.invalidFileType}`)
    const big = new Uint8Array(10 * 1024 * 1024 + 1)
    big.set(PNG)
    const tooBig = await upload(path, owner.token, { document: new File([big], 'big.png'), documentType: 'passport' })
    expect(tooBig.status).toBe(413)
    const noType = await upload(path, owner.token, { document: new File([PNG], 'id.png') })
    expect(await messageOf(noType)).toBe(`documentType: ${IDENTITY_MESSAGES.missingInformation}`)
    const noFile = await upload(path, owner.token, { documentType: 'passport' })
    expect(await messageOf(noFile)).toBe(`document: ${IDENTITY_MESSAGES.missingInformation}`)
    const noFront = await upload('/api/identity-documents', owner.token, { beneficiaryId: beneficiary.id, documentType: 'passport' })
    expect(await messageOf(noFront)).toBe(`frontImage: ${IDENTITY_MESSAGES.frontRequired}`)
    expect(await beneficiaryStatus(owner.token, beneficiary.id)).toBe('unverified')
  })

  it('an empty front image is a missing one: the upload is refused asking for the front, and nothing is stored', async () => {
    const { owner, beneficiary } = await setting(1)
    const empty = await upload('/api/identity-documents', owner.token, { beneficiaryId: beneficiary.id, documentType: 'passport', frontImage: new File([], 'front.png', { type: 'image/png' }) })
    expect(empty.status).toBe(400)
    expect(await messageOf(empty)).toBe(`frontImage: ${IDENTITY_MESSAGES.frontRequired}`)
    expect(await beneficiaryStatus(owner.token, beneficiary.id)).toBe('unverified')
  })

  it('keeps documents to their owner and reviews to valid links', async () => {
    const { owner, beneficiary, approverA } = await setting(1)
    const created = (await (
      await upload(`/api/identity-verification/${beneficiary.id}`, owner.token, { document: new File([PNG], 'a.png'), documentType: 'passport' })
    ).json()) as IdentityDocument
    const stranger = await register()
    expect((await call(`/api/identity-documents/beneficiary/${beneficiary.id}`, { token: stranger.token })).status).toBe(404)
    expect((await call(`/api/identity-documents/${created.id}/file/front`, { token: stranger.token })).status).toBe(404)
    expect((await call(`/api/identity-documents/${created.id}/file/front`, { token: owner.token })).status).toBe(200)
    const foreignUpload = await upload(`/api/identity-verification/${beneficiary.id}`, stranger.token, { document: new File([PNG], 'a.png'), documentType: 'passport' })
    expect(foreignUpload.status).toBe(404)

    const token = reviewToken((await reviewMail(approverA.email)).text)
    const tampered = `${token.slice(0, -3)}abc`
    expect((await call('/api/identity-verifications', { body: { token: tampered, status: 'approved', verificationNotes: 'ok' } })).status).toBe(400)
    expect((await call(`/api/identity-reviews?token=${encodeURIComponent(tampered)}`)).status).toBe(400)
  })

  it('asks only verified approvers; one who verifies later is sent the documents waiting for them', async () => {
    const owner = await register()
    const beneficiary = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const late = await addApprover(owner.token)
    const invite = await waitFor(async () => (await outboxFor(late.email)).find((m) => m.text.includes('/verify-approver')))
    const res = await upload(`/api/identity-verification/${beneficiary.id}`, owner.token, { document: new File([PNG], 'a.png'), documentType: 'passport' })
    expect(res.status).toBe(201)
    const document = (await res.json()) as IdentityDocument
    expect(document).toMatchObject({ status: 'pending', requiredApprovals: 1 })
    // Not verified: no review link goes to them.
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect((await outboxFor(late.email)).filter((m) => m.text.includes('/review-identity'))).toEqual([])

    expect((await call('/api/approvers/verify', { body: { token: linkTokenIn(invite, '/verify-approver') } })).status).toBe(200)
    const token = reviewToken((await reviewMail(late.email)).text)
    const view = (await (await call(`/api/identity-reviews?token=${encodeURIComponent(token)}`)).json()) as IdentityReviewView
    expect(view).toMatchObject({ approverName: late.fullName, beneficiaryName: beneficiary.fullName, alreadyReviewed: false })
    const approved = await call('/api/identity-verifications', { body: { token, status: 'approved', verificationNotes: 'Matches the photo.' } })
    expect(approved.status).toBe(200)
    expect(await beneficiaryStatus(owner.token, beneficiary.id)).toBe('verified')
    const actions = ((await (await call('/api/audit', { token: owner.token })).json()) as Array<{ action: string; details: Record<string, unknown> }>)
    expect(actions.find((e) => e.action === 'circle.approver_verified')?.details).toMatchObject({ approverId: late.id, reviewsSent: 1 })
  })

  it('an approver who verifies after a document was decided is not sent it to review', async () => {
    const owner = await register()
    const beneficiary = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const first = await verifiedApprover(owner.token)
    const late = await addApprover(owner.token)
    const invite = await waitFor(async () => (await outboxFor(late.email)).find((m) => m.text.includes('/verify-approver')))
    const res = await upload(`/api/identity-verification/${beneficiary.id}`, owner.token, { document: new File([PNG], 'a.png'), documentType: 'passport' })
    expect(res.status).toBe(201)
    const token = reviewToken((await reviewMail(first.email)).text)
    expect((await call('/api/identity-verifications', { body: { token, status: 'approved', verificationNotes: 'Matches the photo.' } })).status).toBe(200)
    expect(await beneficiaryStatus(owner.token, beneficiary.id)).toBe('verified')

    expect((await call('/api/approvers/verify', { body: { token: linkTokenIn(invite, '/verify-approver') } })).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect((await outboxFor(late.email)).filter((m) => m.text.includes('/review-identity'))).toEqual([])
  })

  it('an heir whose document is being reviewed cannot send another from the portal (409), so reviewers are not asked twice', async () => {
    const { owner, beneficiary } = await setting(1)
    const token = signLinkToken(env, 'beneficiaryAccess', beneficiary.id, { owner: owner.user.id })
    const send = () => {
      const form = new FormData()
      form.set('documentType', 'passport')
      form.set('documentNumber', 'P1234567')
      form.set('issuingAuthority', 'State Department')
      form.set('expirationDate', '2031-01-01')
      form.set('frontImage', new File([PNG], 'id.png', { type: 'image/png' }))
      const url = `http://localhost/api/beneficiaries/${beneficiary.id}/identity-document?token=${encodeURIComponent(token)}`
      return exports.default.fetch(new Request(url, { method: 'POST', body: form, headers: { 'cf-connecting-ip': freshIp() } }))
    }
    expect((await send()).status).toBe(201)
    const again = await send()
    expect(again.status).toBe(409)
    expect(await messageOf(again)).toBe('Your identity is already being reviewed.')
    const listed = (await (await call(`/api/identity-documents/beneficiary/${beneficiary.id}`, { token: owner.token })).json()) as IdentityDocument[]
    expect(listed).toHaveLength(1)
  })

  it('asks for an approver first when the owner has none', async () => {
    const owner = await register()
    const beneficiary = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const res = await upload(`/api/identity-verification/${beneficiary.id}`, owner.token, { document: new File([PNG], 'a.png'), documentType: 'passport' })
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(IDENTITY_MESSAGES.noApprovers)
  })
})

describe('identity approvals', () => {
  it("count per document: one approval on each of two heirs' documents leaves both waiting for their second", { timeout: 30_000 }, async () => {
    const owner = await register()
    const key = await rsaOaepPublicKey()
    const heirs = [await addBeneficiary(owner.token, key, { fullName: 'First Heir' }), await addBeneficiary(owner.token, key, { fullName: 'Second Heir' })]
    const approverA = await verifiedApprover(owner.token)
    const approverB = await verifiedApprover(owner.token)
    await identityPolicy(owner.token, heirs.map((h) => h.id), [approverA.id, approverB.id], 2)
    for (const heir of heirs) expect((await uploadPassport(owner.token, heir.id)).status).toBe(201)
    // Each approver's review link for each heir's document, by the heir it names.
    const tokensOf = async (email: string) => {
      const mails = await waitFor(async () => {
        const found = (await outboxFor(email)).filter((m) => m.text.includes('/review-identity'))
        return found.length >= 2 ? found : undefined
      })
      const byHeir = new Map<string, string>()
      for (const mail of mails) {
        const token = reviewToken(mail.text)
        const view = (await (await call(`/api/identity-reviews?token=${encodeURIComponent(token)}`)).json()) as IdentityReviewView
        byHeir.set(view.beneficiaryName, token)
      }
      return byHeir
    }
    const a = await tokensOf(approverA.email)
    const b = await tokensOf(approverB.email)
    const decide = async (token: string | undefined) =>
      ((await (await call('/api/identity-verifications', { body: { token, status: 'approved', verificationNotes: 'Photo matches.' } })).json()) as { documentStatus: string }).documentStatus
    expect(await decide(a.get('First Heir'))).toBe('pending')
    expect(await decide(a.get('Second Heir'))).toBe('pending')
    expect(await beneficiaryStatus(owner.token, heirs[1]!.id)).toBe('pending')
    expect(await decide(b.get('Second Heir'))).toBe('verified')
    expect(await beneficiaryStatus(owner.token, heirs[0]!.id)).toBe('pending')
  })

  it('take a document only when its first bytes are a whole JPEG, PNG or PDF signature: one matching byte is not enough', async () => {
    const { owner, beneficiary } = await setting(1)
    const path = `/api/identity-verification/${beneficiary.id}`
    for (const head of [[0xff, 0x00, 0x00], [0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x00, 0x00], [0x25, 0x50, 0x44, 0x46, 0x00]]) {
      const bytes = new Uint8Array(16)
      bytes.set(head)
      const res = await upload(path, owner.token, { document: new File([bytes], 'id.png', { type: 'image/png' }), documentType: 'passport' })
      expect(res.status, head.join(',')).toBe(400)
      expect(await messageOf(res)).toBe(`${IDENTITY_MESSAGES.invalidFileTypeTitle}: ${IDENTITY_MESSAGES.invalidFileType}`)
    }
    expect(await beneficiaryStatus(owner.token, beneficiary.id)).toBe('unverified')
  })
})

describe("an heir's portal after a rejection", () => {
  it("shows the heir the reason their own document was rejected, never another heir's newer one", { timeout: 30_000 }, async () => {
    const owner = await register()
    const first = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const second = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const approver = await verifiedApprover(owner.token)
    await identityPolicy(owner.token, [first.id, second.id], [approver.id], 1)
    const reject = async (heirId: string, reason: string) => {
      const document = (await (await uploadPassport(owner.token, heirId)).json()) as IdentityDocument
      const token = signLinkToken(env, 'identityReview', `${document.id}:${approver.id}`, { owner: owner.user.id })
      const res = await call('/api/identity-verifications', { body: { token, status: 'rejected', verificationNotes: reason } })
      expect(res.status).toBe(200)
    }
    await reject(first.id, 'The first heir’s photo is blurred.')
    await reject(second.id, 'The second heir’s passport has expired.')
    const portalToken = signLinkToken(env, 'beneficiaryAccess', first.id, { owner: owner.user.id })
    const portal = await (await call(`/api/beneficiaries/${first.id}/portal?token=${encodeURIComponent(portalToken)}`)).json()
    expect(portal).toMatchObject({ identityStatus: 'rejected', rejectionReason: 'The first heir’s photo is blurred.' })
  })
})

describe('the documents an heir may send', () => {
  it('are those every policy asking for identity accepts; policies with none in common accept any one of theirs; a policy naming none accepts any', { timeout: 30_000 }, async () => {
    const owner = await register()
    const approver = await verifiedApprover(owner.token)
    const heirWith = async (...lists: string[][]) => {
      const heir = await addBeneficiary(owner.token, await rsaOaepPublicKey())
      for (const types of lists) await identityPolicy(owner.token, [heir.id], [approver.id], 1, types)
      return heir
    }
    const send = async (heirId: string, documentType: string) =>
      (await upload(`/api/identity-verification/${heirId}`, owner.token, { document: new File([PNG], 'id.png', { type: 'image/png' }), documentType })).status

    const overlapping = await heirWith(['drivers_license', 'passport'], ['passport'])
    expect(await send(overlapping.id, 'drivers_license')).toBe(400)
    expect(await send(overlapping.id, 'passport')).toBe(201)

    const disjoint = await heirWith(['passport'], ['drivers_license'])
    expect(await send(disjoint.id, 'national_id')).toBe(400)
    expect(await send(disjoint.id, 'drivers_license')).toBe(201)

    const open = await heirWith([])
    expect(await send(open.id, 'national_id')).toBe(201)
  })
})

describe('one beneficiary’s document list', () => {
  it('never shows another beneficiary’s documents', { timeout: 20_000 }, async () => {
    const { owner, beneficiary: first } = await setting(1)
    const second = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const post = async (id: string, documentType: string) =>
      (await (await upload(`/api/identity-verification/${id}`, owner.token, { document: new File([PNG], 'a.png'), documentType })).json()) as IdentityDocument
    const mine = await post(first.id, 'passport')
    const theirs = await post(second.id, 'drivers_license')
    const list = async (id: string) => ((await (await call(`/api/identity-documents/beneficiary/${id}`, { token: owner.token })).json()) as IdentityDocument[]).map((d) => d.id)
    expect(await list(first.id)).toEqual([mine.id])
    expect(await list(second.id)).toEqual([theirs.id])
  })
})

describe('an identity-review link', () => {
  it('of an approver who has not verified their address is refused', { timeout: 20_000 }, async () => {
    const { owner, beneficiary, approverA } = await setting(1)
    expect((await upload(`/api/identity-verification/${beneficiary.id}`, owner.token, { document: new File([PNG], 'a.png'), documentType: 'passport' })).status).toBe(201)
    const token = reviewToken((await reviewMail(approverA.email)).text)
    // The address is no longer verified (as after it changed): the link they hold does not open.
    await ownerExec(owner.user.id, ['update approvers set email_verified_at = null where id = ?', approverA.id])
    const view = await call(`/api/identity-reviews?token=${encodeURIComponent(token)}`)
    expect(view.status).toBe(400)
    expect((await call(`/api/identity-reviews/file/front?token=${encodeURIComponent(token)}`)).status).toBe(400)
    const review = await call('/api/identity-verifications', { body: { token, status: 'approved', verificationNotes: 'Looks right.' } })
    expect(review.status).toBe(400)
    expect(await beneficiaryStatus(owner.token, beneficiary.id)).toBe('pending')
  })
})

describe('an identity document with a back image', () => {
  /** The heir sends a passport from the portal: a PNG front and a PDF back. */
  function portalSend(ownerId: string, beneficiaryId: string) {
    const token = signLinkToken(env, 'beneficiaryAccess', beneficiaryId, { owner: ownerId })
    const form = new FormData()
    form.set('documentType', 'passport')
    form.set('documentNumber', 'P1234567')
    form.set('issuingAuthority', 'State Department')
    form.set('expirationDate', '2031-01-01')
    form.set('frontImage', new File([PNG], 'front.png', { type: 'image/png' }))
    form.set('backImage', new File([PDF], 'back.pdf', { type: 'application/pdf' }))
    const url = `http://localhost/api/beneficiaries/${beneficiaryId}/identity-document?token=${encodeURIComponent(token)}`
    return exports.default.fetch(new Request(url, { method: 'POST', body: form, headers: { 'cf-connecting-ip': freshIp() } }))
  }

  it('keeps the back it was sent: the owner and the reviewer are shown the back the heir uploaded', async () => {
    const { owner, beneficiary, approverA } = await setting(1)
    const sent = await portalSend(owner.user.id, beneficiary.id)
    expect(sent.status).toBe(201)
    const [document] = (await (await call(`/api/identity-documents/beneficiary/${beneficiary.id}`, { token: owner.token })).json()) as IdentityDocument[]
    expect(document!.hasBack).toBe(true)
    const ownerBack = await call(`/api/identity-documents/${document!.id}/file/back`, { token: owner.token })
    expect(ownerBack.status).toBe(200)
    expect(ownerBack.headers.get('content-type')).toBe('application/pdf')
    expect(new Uint8Array(await ownerBack.arrayBuffer())).toEqual(PDF)
    const token = reviewToken((await reviewMail(approverA.email)).text)
    const reviewerBack = await call(`/api/identity-reviews/file/back?token=${encodeURIComponent(token)}`)
    expect(reviewerBack.status).toBe(200)
    expect(new Uint8Array(await reviewerBack.arrayBuffer())).toEqual(PDF)
  })

  it("is audited as sent by whoever sent it: the owner's upload as the owner's act, the heir's from the portal as the heir's", async () => {
    const auditOf = async (token: string) => ((await (await call('/api/audit', { token })).json()) as Array<{ action: string; actor: string }>).map((e) => `${e.actor}:${e.action}`)
    const byOwner = await setting(1)
    expect((await uploadPassport(byOwner.owner.token, byOwner.beneficiary.id)).status).toBe(201)
    const ownerActs = await auditOf(byOwner.owner.token)
    expect(ownerActs).toContain('user:circle.identity_document_submitted')
    expect(ownerActs).not.toContain('beneficiary:release.identity_submitted')

    const byHeir = await setting(1)
    expect((await portalSend(byHeir.owner.user.id, byHeir.beneficiary.id)).status).toBe(201)
    const heirActs = await auditOf(byHeir.owner.token)
    expect(heirActs).toContain('beneficiary:release.identity_submitted')
    expect(heirActs).not.toContain('user:circle.identity_document_submitted')
  })
})
