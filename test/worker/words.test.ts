import { mirrorAccount } from '../../worker/owner/account'
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { IDENTITY_MESSAGES, type IdentityDocument } from '../../contract/identity'
import type { BeneficiaryPortalView } from '../../contract/releases'
import { assetRows, createTrigger, guard, manualReleaseOk, policyCovering, verifiedApprover } from './engine-helpers'
import { emailDate, emailDay, parseEmailDate } from '../../worker/mail/dates'
import type { EngineStatus } from '../../contract/triggers'
import { addBeneficiary, call, env, freshIp, linkTokenIn, messageOf, outboxFor, register, rsaOaepPublicKey, waitFor } from './helpers'
import { ownerExec, ownerRow } from './owner-helpers'
import { publicKey, uploadItem } from './vault-helpers'

// What the owner's screens promise about the e-mails heirs receive, held to what the engine does
// (issue 0.3 · 6 of 7, "every sentence true").

const HOUR = 3_600_000
const settle = () => new Promise((resolve) => setTimeout(resolve, 150))

describe('"Disable Notifications" and an unconfirmed address', () => {
  it('stop only the early notice: the release e-mail with the link still goes, to an address never confirmed', async () => {
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await publicKey(), { fullName: 'Quiet Heir', sendAssetNotifications: false })
    expect((await ownerRow(owner.user.id, 'select email_verified_at from beneficiaries where id = ?', heir.id))!.email_verified_at).toBeNull()
    const { item } = await uploadItem(owner.token, [heir.id])
    await ownerExec(owner.user.id, ['update item_grants set direct = 0 where item_id = ?', item.id])
    await policyCovering(owner.token, heir.id, [item.id])
    const trigger = await createTrigger(owner.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(owner.token, trigger.id)).toMatchObject({ pendingReleases: 1 })

    await settle()
    const subjects = async () => (await outboxFor(heir.email)).map((m) => m.subject)
    expect((await subjects()).filter((s) => s.endsWith('has started a release to you'))).toEqual([])

    await guard(owner.user.id).tick(Date.now() + 73 * HOUR)
    await waitFor(async () => (await subjects()).some((s) => s.endsWith('has left something for you')))
    expect((await assetRows(owner.user.id, heir.id)).map((a) => a.status)).toEqual(['available'])
  })
})

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])

function upload(path: string, token: string | null, fields: Record<string, string | Blob>) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  const headers: Record<string, string> = { 'cf-connecting-ip': freshIp() }
  if (token) headers.authorization = `Bearer ${token}`
  return exports.default.fetch(new Request(`http://localhost${path}`, { method: 'POST', headers, body: form }))
}

const png = () => new File([PNG], 'id.png', { type: 'image/png' })

/** An owner whose one policy asks for the heir's identity, accepting only `types`. */
async function identitySetting(types: string[]) {
  const owner = await register()
  const heir = await addBeneficiary(owner.token, await rsaOaepPublicKey(), { fullName: 'Ida Heir' })
  const approver = await verifiedApprover(owner.token)
  const policy = await call('/api/policies', {
    token: owner.token,
    body: {
      name: 'Needs ID',
      description: 'Release only after the identity document is checked.',
      ruleJson: { assign: [{ beneficiaryId: heir.id }], release: { on: ['verified_death'] } },
      encryptedSelectors: btoa('s'),
      wrappedKey: btoa('k'),
      requiresIdentityVerification: true,
      identityVerificationApprovers: [approver.id],
      requiredDocumentTypes: types,
      minimumApprovals: 1,
    },
  })
  expect(policy.status).toBe(201)
  return { owner, heir, approver, policyId: ((await policy.json()) as { id: string }).id }
}

async function reviewTokenFor(email: string): Promise<string> {
  const mail = await waitFor(async () => (await outboxFor(email)).find((m) => m.text.includes('/review-identity')))
  return linkTokenIn(mail, '/review-identity')
}

async function documentsOf(token: string, heirId: string) {
  return (await (await call(`/api/identity-documents/beneficiary/${heirId}`, { token })).json()) as IdentityDocument[]
}

describe('a policy’s accepted identity documents', () => {
  it('are enforced at upload: another type is refused with a plain message, and nothing is stored', async () => {
    const { owner, heir } = await identitySetting(['passport', 'national_id'])
    const refused = await upload(`/api/identity-verification/${heir.id}`, owner.token, { document: png(), documentType: 'drivers_license' })
    expect(refused.status).toBe(400)
    expect(await messageOf(refused)).toBe(IDENTITY_MESSAGES.typeNotAccepted('Passport, National ID'))
    expect(await documentsOf(owner.token, heir.id)).toEqual([])

    const accepted = await upload(`/api/identity-verification/${heir.id}`, owner.token, { document: png(), documentType: 'passport' })
    expect(accepted.status).toBe(201)
  })

  it('are enforced at review: a type the policy no longer accepts cannot be approved (409), only rejected', async () => {
    const { owner, heir, approver, policyId } = await identitySetting(['passport'])
    expect((await upload(`/api/identity-verification/${heir.id}`, owner.token, { document: png(), documentType: 'passport' })).status).toBe(201)
    await ownerExec(owner.user.id, [`update policies set required_document_types = '["drivers_license"]' where id = ?`, policyId])

    const token = await reviewTokenFor(approver.email)
    const approve = await call('/api/identity-verifications', { body: { token, status: 'approved', verificationNotes: 'Looks fine.' } })
    expect(approve.status).toBe(409)
    expect(await messageOf(approve)).toBe(IDENTITY_MESSAGES.approveTypeNotAccepted('Passport', "Driver's licence"))
    expect((await documentsOf(owner.token, heir.id))[0]).toMatchObject({ status: 'pending', reviews: [] })
  })
})

describe('an heir whose identity document is rejected', () => {
  it('is told by e-mail and on the portal, with the approver’s note and what to send instead, and can send it', async () => {
    const { owner, heir, approver } = await identitySetting(['drivers_license', 'passport'])
    expect((await upload(`/api/identity-verification/${heir.id}`, owner.token, { document: png(), documentType: 'passport' })).status).toBe(201)
    const token = await reviewTokenFor(approver.email)
    const reject = await call('/api/identity-verifications', { body: { token, status: 'rejected', verificationNotes: 'The photo is too dark to read.' } })
    expect(reject.status).toBe(200)

    const mail = await waitFor(async () => (await outboxFor(heir.email)).find((m) => m.subject === 'Your identity document was not accepted'))
    expect(mail.text).toContain('Their note: "The photo is too dark to read."')
    expect(mail.text).toContain("Please send a clear, current copy of one of these instead: Driver's licence, Passport.")
    const portalToken = linkTokenIn(mail, '/beneficiary-portal')

    const portal = (await (await call(`/api/beneficiaries/${heir.id}/portal?token=${encodeURIComponent(portalToken)}`)).json()) as BeneficiaryPortalView
    expect(portal).toMatchObject({ identityStatus: 'rejected', rejectionReason: 'The photo is too dark to read.', acceptedDocumentTypes: ['drivers_license', 'passport'] })

    const path = `/api/beneficiaries/${heir.id}/identity-document?token=${encodeURIComponent(portalToken)}`
    const wrong = await upload(path, null, { frontImage: png(), documentType: 'national_id' })
    expect(wrong.status).toBe(400)
    expect(await messageOf(wrong)).toBe(IDENTITY_MESSAGES.typeNotAccepted("Driver's licence, Passport"))
    expect((await upload(path, null, { frontImage: png(), documentType: 'drivers_license' })).status).toBe(201)
  })
})

describe('dates in e-mails', () => {
  it('are written in the zone asked for, the zone named, and read back to the second (workerd’s own Intl)', () => {
    const at = Date.UTC(2026, 10, 27, 19, 35, 7)
    expect(emailDate(at, 'Europe/Paris')).toBe('Friday 27 November 2026, 20:35:07 (Europe/Paris time, GMT+01:00)')
    expect(emailDate(at, 'Asia/Kolkata')).toBe('Saturday 28 November 2026, 01:05:07 (Asia/Kolkata time, GMT+05:30)')
    expect(emailDate(at, null)).toBe('Friday 27 November 2026, 19:35:07 (UTC)')
    expect(emailDate(at, 'Not/AZone')).toBe('Friday 27 November 2026, 19:35:07 (UTC)')
    expect(emailDay(at, 'America/Los_Angeles')).toBe('27 November 2026 (America/Los Angeles time)')
    for (const zone of ['Europe/Paris', 'Asia/Kolkata', 'America/New_York', 'UTC']) expect(parseEmailDate(emailDate(at, zone))).toBe(at)
  })

  it('to the owner are in the owner’s time zone: the release they can still cancel', async () => {
    const owner = await register()
    await env.DB.prepare('update users set timezone = ? where id = ?').bind('Asia/Tokyo', owner.user.id).run()
    await mirrorAccount(owner.user.id)
    const heir = await addBeneficiary(owner.token, await publicKey())
    const { item } = await uploadItem(owner.token, [heir.id])
    await ownerExec(owner.user.id, ['update item_grants set direct = 0 where item_id = ?', item.id])
    await policyCovering(owner.token, heir.id, [item.id])
    const trigger = await createTrigger(owner.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(owner.token, trigger.id)
    const releaseAt = Date.parse(((await (await call('/api/trigger-engine/status', { token: owner.token })).json()) as EngineStatus).releases[0]!.releaseAt)

    const started = await waitFor(async () => (await outboxFor(owner.email)).find((m) => m.text.includes('/cancel-release')))
    expect(started.text).toContain(`at ${emailDate(releaseAt, 'Asia/Tokyo')} at the earliest`)
    expect(started.text).toContain('(Asia/Tokyo time, GMT+09:00)')
    expect(started.text).not.toMatch(/GMT\b(?!\+09:00)/)
  })
})
