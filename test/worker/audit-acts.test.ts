import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import type { AuditEntry } from '../../contract/audit'
import type { Beneficiary } from '../../contract/circle'
import type { IdentityDocument } from '../../contract/identity'
import { b64, policyBody, policyCovering, verifiedApprover } from './engine-helpers'
import { addApprover, addBeneficiary, call, freshIp, login, outboxFor, register, requestResetToken, rsaOaepPublicKey, uniqueEmail, waitFor } from './helpers'
import { publicKey, signedGrantsBody, uploadItem } from './vault-helpers'
import { signedRotation, signedUpdate, vaultSetupBody } from './vault-signing'

// Every state-changing act of the owner lands in their audit chain (contract/audit.ts), with ids,
// counts, types and statuses only: never names, addresses, keys, wrapped keys or passwords.

async function auditOf(token: string): Promise<AuditEntry[]> {
  const res = await call('/api/audit', { token })
  expect(res.status).toBe(200)
  return (await res.json()) as AuditEntry[]
}

async function verifyOf(token: string) {
  return (await call('/api/audit/verify', { token })).json()
}

/** [action, actor] pairs, oldest first. */
const acts = (entries: AuditEntry[]) => [...entries].reverse().map((e) => [e.action, e.actor])

async function ok(res: Response, status = 200): Promise<unknown> {
  if (res.status !== status) throw new Error(`${res.url}: ${res.status} ${await res.text()}`)
  return res.json()
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])

function uploadDocument(token: string, beneficiaryId: string) {
  const form = new FormData()
  form.append('document', new File([PNG], 'secret-passport-scan.png', { type: 'image/png' }))
  form.append('documentType', 'passport')
  form.append('documentNumber', 'P-98765-SECRET')
  form.append('issuingAuthority', 'Ministry of Somewhere')
  form.append('expirationDate', '2031-01-01')
  return exports.default.fetch(
    new Request(`http://localhost/api/identity-verification/${beneficiaryId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'cf-connecting-ip': freshIp() },
      body: form,
    }),
  )
}

describe('audit of the owner’s acts', () => {
  it('records each act, in order, by the user, in a valid chain that holds no secrets or names', async () => {
    const password = `pw-${crypto.randomUUID()}`
    const displayName = `Owner ${crypto.randomUUID().slice(0, 8)}`
    const owner = await register({ password, displayName })
    const ownerId = owner.user.id
    const signedIn = await ok(await login(owner.email, password))
    let token = (signedIn as { token: string }).token

    await ok(await call('/api/vault/setup', { token, body: await vaultSetupBody(token) }))

    const beneficiaryName = `Bea ${crypto.randomUUID().slice(0, 8)}`
    const beneficiaryEmail = uniqueEmail('heir')
    const beneficiary = await addBeneficiary(token, await publicKey(), { fullName: beneficiaryName, email: beneficiaryEmail })
    const approverName = `Arthur ${crypto.randomUUID().slice(0, 8)}`
    const approverEmail = uniqueEmail('lawyer')
    const approver = await addApprover(token, { fullName: approverName, email: approverEmail, sendVerificationEmail: false })

    const renamed = `Beatrice ${crypto.randomUUID().slice(0, 8)}`
    await ok(await call(`/api/beneficiaries/${beneficiary.id}`, { method: 'PUT', token, body: await signedUpdate(token, beneficiary.id, { fullName: renamed, relationship: 'Niece' }) }))

    const wrappedItemKey = b64(`item key ${crypto.randomUUID()}`)
    const grantKey = b64(`grant key ${crypto.randomUUID()}`)
    const { item } = await uploadItem(token, [beneficiary.id], 100, {
      wrappedKey: wrappedItemKey,
      grants: [{ beneficiaryId: beneficiary.id, wrappedKey: grantKey }],
      policy: { protocol: 'MANUAL_RELEASE' },
    })
    const { item: second } = await uploadItem(token, [beneficiary.id])
    const regrantKey = b64(`regrant ${crypto.randomUUID()}`)
    await ok(await call(`/api/vault/items/${item.id}/grants`, { method: 'PUT', token, body: await signedGrantsBody(token, item.id, [{ beneficiaryId: beneficiary.id, wrappedKey: regrantKey }]) }))

    const policyKey = b64(`policy key ${crypto.randomUUID()}`)
    const policy = await policyCovering(token, beneficiary.id, [item.id, second.id], { wrappedKey: policyKey })
    await ok(await call(`/api/policies/${policy.id}`, { method: 'PUT', token, body: { status: 'inactive' } }))
    await ok(await call(`/api/policies/${policy.id}`, { method: 'PUT', token, body: { status: 'active' } }))

    const rotatedKeys = [b64(`rotated ${crypto.randomUUID()}`), b64(`rotated ${crypto.randomUUID()}`)]
    const newPublicKey = await rsaOaepPublicKey()
    await ok(
      await call(`/api/beneficiaries/${beneficiary.id}/rotate-key`, {
        token,
        body: await signedRotation(token, beneficiary.id, { publicKey: newPublicKey, grants: [item.id, second.id].map((itemId, i) => ({ itemId, wrappedKey: rotatedKeys[i] })) }),
      }),
    )

    await ok(await call(`/api/vault/items/${second.id}`, { method: 'DELETE', token }))
    await ok(await call('/api/user/ping-settings', { method: 'PUT', token, body: { pingFrequency: 14, gracePeriod: 3 } }))
    await ok(await call(`/api/policies/${policy.id}`, { method: 'DELETE', token }))
    await ok(await call(`/api/approvers/${approver.id}`, { method: 'DELETE', token }))

    // Refused acts change nothing and record nothing.
    expect((await call(`/api/policies/${policy.id}`, { method: 'DELETE', token })).status).toBe(404)
    expect((await call('/api/user/ping-settings', { method: 'PUT', token, body: { pingFrequency: 1, gracePeriod: 3 } })).status).toBe(400)

    await ok(await call('/api/auth/logout', { method: 'POST', token }))
    const newPassword = `pw2-${crypto.randomUUID()}`
    const resetToken = await requestResetToken(owner.email)
    await ok(await call('/api/auth/reset-password', { body: { token: resetToken, password: newPassword } }))
    token = ((await ok(await login(owner.email, newPassword))) as { token: string }).token

    const entries = await auditOf(token)
    expect(acts(entries)).toEqual([
      ['account.registered', 'user'],
      ['account.signed_in', 'user'],
      ['vault.setup', 'user'],
      ['circle.beneficiary_added', 'user'],
      ['circle.approver_added', 'user'],
      ['circle.beneficiary_updated', 'user'],
      ['vault.item_added', 'user'],
      ['vault.item_added', 'user'],
      ['vault.grants_updated', 'user'],
      ['policy.created', 'user'],
      ['policy.items_recorded', 'user'],
      ['policy.status_changed', 'user'],
      ['policy.status_changed', 'user'],
      ['circle.beneficiary_key_rotated', 'user'],
      ['vault.item_deleted', 'user'],
      ['account.settings_updated', 'user'],
      ['policy.deleted', 'user'],
      ['circle.approver_removed', 'user'],
      ['account.signed_out', 'user'],
      ['account.password_reset', 'user'],
      ['account.signed_in', 'user'],
    ])
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => entries.length - i))

    const details = (action: string) => [...entries].reverse().filter((e) => e.action === action).map((e) => e.details)
    expect(details('circle.beneficiary_added')).toEqual([{ beneficiaryId: beneficiary.id, verificationEmailSent: true }])
    expect(details('circle.beneficiary_updated')).toEqual([{ beneficiaryId: beneficiary.id, fields: 'fullName,relationship', verificationEmailSent: false }])
    expect(details('circle.approver_added')).toEqual([{ approverId: approver.id, verificationEmailSent: false }])
    expect(details('circle.approver_removed')).toEqual([{ approverId: approver.id }])
    expect(details('vault.item_added')[0]).toMatchObject({ itemId: item.id, type: 'doc', protocol: 'MANUAL_RELEASE', grants: 1 })
    expect(details('vault.grants_updated')).toEqual([{ itemId: item.id, count: 1, total: 1 }])
    expect(details('vault.item_deleted')).toEqual([{ itemId: second.id }])
    expect(details('policy.created')).toEqual([
      expect.objectContaining({ policyId: policy.id, triggers: 'verified_death', delayHours: 72, status: 'active', beneficiaries: 1 }),
    ])
    expect(details('policy.items_recorded')).toEqual([{ policyId: policy.id, itemCount: 2 }])
    expect(details('policy.status_changed')).toEqual([
      { policyId: policy.id, status: 'inactive' },
      { policyId: policy.id, status: 'active' },
    ])
    expect(details('policy.deleted')).toEqual([{ policyId: policy.id }])
    expect(details('circle.beneficiary_key_rotated')).toEqual([{ beneficiaryId: beneficiary.id, items: 2, keyVersion: 2 }])
    expect(details('account.settings_updated')).toEqual([{ pingFrequency: 14 }])

    expect(await verifyOf(token)).toMatchObject({ valid: true, headMatches: true, brokenAt: null, checked: entries.length })

    const json = JSON.stringify(entries)
    const secrets = [
      owner.email,
      displayName,
      password,
      newPassword,
      resetToken,
      owner.token,
      token,
      beneficiaryEmail,
      beneficiaryName,
      renamed,
      approverEmail,
      approverName,
      'Niece',
      wrappedItemKey,
      grantKey,
      regrantKey,
      policyKey,
      ...rotatedKeys,
      newPublicKey,
      beneficiary.publicKey,
      beneficiary.publicKeyFingerprint,
      b64('encrypted metadata'),
    ]
    for (const secret of secrets) expect(json).not.toContain(secret)
    expect(json).not.toMatch(/@|wrapped|token|password"|secret/i)

    // Another owner's chain holds only their own acts.
    const other = await register()
    await addBeneficiary(other.token, await publicKey())
    const theirs = await auditOf(other.token)
    expect(acts(theirs)).toEqual([
      ['account.registered', 'user'],
      ['vault.setup', 'user'],
      ['circle.beneficiary_added', 'user'],
    ])
    const theirJson = JSON.stringify(theirs)
    for (const id of [ownerId, beneficiary.id, approver.id, item.id, second.id, policy.id, ...secrets]) expect(theirJson).not.toContain(id)
    expect(await verifyOf(other.token)).toMatchObject({ valid: true, checked: 3 })
  })

  it('records beneficiary removal and verification resends', async () => {
    const owner = await register()
    const beneficiary = await addBeneficiary(owner.token, await publicKey(), { sendVerificationEmail: false })
    await ok(await call(`/api/beneficiaries/${beneficiary.id}/resend-verification`, { method: 'POST', token: owner.token }))
    await ok(await call(`/api/beneficiaries/${beneficiary.id}`, { method: 'DELETE', token: owner.token }))
    expect((await call(`/api/beneficiaries/${beneficiary.id}`, { method: 'DELETE', token: owner.token })).status).toBe(404)
    const entries = await auditOf(owner.token)
    expect(acts(entries)).toEqual([
      ['account.registered', 'user'],
      ['vault.setup', 'user'],
      ['circle.beneficiary_added', 'user'],
      ['circle.verification_resent', 'user'],
      ['circle.beneficiary_removed', 'user'],
    ])
    // Newest first: removed, resent, added.
    expect(entries[0]!.details).toEqual({ beneficiaryId: beneficiary.id })
    expect(entries[1]!.details).toEqual({ beneficiaryId: beneficiary.id, verificationEmailSent: true })
    expect(entries[2]!.details).toEqual({ beneficiaryId: beneficiary.id, verificationEmailSent: false })
    expect(JSON.stringify(entries)).not.toContain(beneficiary.email)
  })

  it('records the owner’s identity upload, and the approver’s review in the owner’s chain', async () => {
    const owner = await register()
    const beneficiary = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    // Review links go only to verified approvers.
    const approver = await verifiedApprover(owner.token)
    const created = await call('/api/policies', {
      token: owner.token,
      body: policyBody(beneficiary.id, { requiresIdentityVerification: true, identityVerificationApprovers: [approver.id], minimumApprovals: 1 }),
    })
    expect(created.status).toBe(201)
    const res = await uploadDocument(owner.token, beneficiary.id)
    expect(res.status).toBe(201)
    const document = (await res.json()) as IdentityDocument

    const review = await waitFor(async () => (await outboxFor(approver.email)).find((m) => m.text.includes('/review-identity')))
    const reviewToken = decodeURIComponent(/\/review-identity\?token=([^\s&]+)/.exec(review.text)![1]!)
    const notes = `Photo matches ${crypto.randomUUID()}`
    const decided = await call('/api/identity-verifications', { body: { token: reviewToken, status: 'approved', verificationNotes: notes } })
    expect(((await decided.json()) as { documentStatus: string }).documentStatus).toBe('verified')

    const entries = await auditOf(owner.token)
    const tail = acts(entries).slice(-2)
    expect(tail).toEqual([
      ['circle.identity_document_submitted', 'user'],
      ['circle.identity_reviewed', 'approver'],
    ])
    expect(entries[1]!.details).toEqual({ beneficiaryId: beneficiary.id, documentId: document.id, documentType: 'passport', hasBack: false, requiredApprovals: 1 })
    expect(entries[0]!.details).toEqual({ documentId: document.id, beneficiaryId: beneficiary.id, approverId: approver.id, decision: 'approved', status: 'verified' })
    const json = JSON.stringify(entries)
    for (const secret of [notes, 'P-98765-SECRET', 'Ministry of Somewhere', 'secret-passport-scan', reviewToken, approver.email, approver.fullName, beneficiary.email])
      expect(json).not.toContain(secret)
    expect(await verifyOf(owner.token)).toMatchObject({ valid: true })
    const listed = (await (await call('/api/beneficiaries', { token: owner.token })).json()) as Beneficiary[]
    expect(listed[0]!.identityStatus).toBe('verified')
  })
})
