import { describe, expect, it } from 'vitest'
import { NOT_PROTECTED, OWNER_UNCONFIRMED, type ReadinessProblem, type ReleaseReadiness } from '../../contract/readiness'
import { createTrigger, DAY_MS, ownerWithItem, policyCovering, verifiedApprover } from './engine-helpers'
import { addApprover, addBeneficiary, call, env, linkTokenIn, outboxFor, register, waitFor } from './helpers'
import { ownerExec } from './owner-helpers'
import { ownerWithBeneficiary, publicKey, uploadItem } from './vault-helpers'

// GET /api/release-readiness (issue 0.2 · 2 of 7, point 1): one entry per reason a chosen item
// could not reach a chosen person today, each with where to fix it.

async function readiness(token: string): Promise<ReleaseReadiness> {
  const res = await call('/api/release-readiness', { token })
  expect(res.status).toBe(200)
  return (await res.json()) as ReleaseReadiness
}

const kinds = (r: ReleaseReadiness) => r.problems.map((p) => `${p.kind}:${p.subject.type}`).sort()
const find = (r: ReleaseReadiness, kind: ReadinessProblem['kind']) => r.problems.find((p) => p.kind === kind)

/** The 'nothing_protected' entry naming `step`, about the owner's own account. */
const notProtected = (ownerId: string, step: keyof typeof NOT_PROTECTED): ReadinessProblem => ({
  kind: 'nothing_protected',
  severity: 'error',
  subject: { type: 'account', id: ownerId },
  ...NOT_PROTECTED[step],
})
const missing = (r: ReleaseReadiness) => find(r, 'nothing_protected')?.message ?? null
const directOnly = (ownerId: string, direct: boolean) => ownerExec(ownerId, ['update item_grants set direct = ?', direct ? 1 : 0])

async function confirmOwner(email: string) {
  const mail = await waitFor(async () => (await outboxFor(email)).find((m) => m.text.includes('/confirm-email')))
  const res = await call('/api/auth/confirm-email', { body: { token: linkTokenIn(mail, '/confirm-email') } })
  expect(res.status).toBe(200)
}

async function verifyBeneficiary(email: string) {
  const invite = await waitFor(async () => (await outboxFor(email)).find((m) => m.text.includes('/verify-beneficiary')))
  const res = await call('/api/beneficiaries/verify', { body: { token: linkTokenIn(invite, '/verify-beneficiary') } })
  expect(res.status).toBe(200)
}

describe('GET /api/release-readiness', () => {
  it('is never ready for a new account: it says what is missing, one step at a time, each fix flipping the message', async () => {
    expect((await call('/api/release-readiness')).status).toBe(401)
    const owner = await register({ confirmed: false })
    const id = owner.user.id
    // Nothing chosen and the address unconfirmed: two errors, the first missing thing first.
    expect(await readiness(owner.token)).toEqual({
      ready: false,
      problems: [
        { kind: 'nothing_protected', severity: 'error', subject: { type: 'account', id }, message: 'Not protected yet: add a beneficiary', fix: { label: 'Add a beneficiary', href: '/beneficiaries' } },
        { kind: 'owner_unconfirmed', severity: 'error', subject: { type: 'account', id }, ...OWNER_UNCONFIRMED },
      ],
    })
    expect(OWNER_UNCONFIRMED.message).toMatch(/^Confirm your e-mail address/)

    const beneficiary = await addBeneficiary(owner.token, await publicKey())
    expect(missing(await readiness(owner.token))).toBe('Not protected yet: add an item to your vault')
    expect(find(await readiness(owner.token), 'nothing_protected')!.fix.href).toBe('/vault')

    // An item left to nobody (its only beneficiary was removed) protects nothing.
    const gone = await addBeneficiary(owner.token, await publicKey())
    await uploadItem(owner.token, [gone.id], 100, { policy: { protocol: 'INACTIVITY_90_DAYS' } })
    expect((await call(`/api/beneficiaries/${gone.id}`, { method: 'DELETE', token: owner.token })).status).toBe(200)
    expect(missing(await readiness(owner.token))).toBe('Not protected yet: choose who receives an item')

    await uploadItem(owner.token, [beneficiary.id], 100, { policy: { protocol: 'INACTIVITY_90_DAYS' } })
    let r = await readiness(owner.token)
    expect(find(r, 'nothing_protected')).toEqual(notProtected(id, 'noTrigger'))
    expect(find(r, 'nothing_protected')!.message).toBe('Not protected yet: set up a trigger')
    expect(find(r, 'nothing_protected')!.fix.href).toBe('/triggers')

    // A paused trigger is not a route.
    const trigger = await createTrigger(owner.token, { type: 'inactivity', config: {}, status: 'paused' })
    expect(missing(await readiness(owner.token))).toBe(NOT_PROTECTED.triggersPaused.message)
    await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token: owner.token, body: { status: 'active' } })

    // Something reaches someone now; only the owner's address is left, and that still blocks.
    r = await readiness(owner.token)
    expect(r.ready).toBe(false)
    expect(kinds(r)).toEqual(['beneficiary_unverified:beneficiary', 'owner_unconfirmed:account'])

    // Confirmed: the held invitation goes out, the beneficiary confirms, and nothing is left.
    await confirmOwner(owner.email)
    expect(await readiness(owner.token)).toMatchObject({ ready: true, problems: [{ kind: 'beneficiary_unverified' }] })
    await verifyBeneficiary(beneficiary.email)
    // Ready; only a warning is left: the heir can open what is left to them with their kit alone.
    r = await readiness(owner.token)
    expect(r.ready).toBe(true)
    expect(kinds(r)).toEqual(['beneficiary_kit_only:beneficiary'])
    expect(find(r, 'beneficiary_kit_only')!.severity).toBe('warning')
  })

  it('is ready only when an active item reaches a beneficiary through an active trigger of its kind', async () => {
    // A Verified Death item and an active Inactivity trigger: there is a trigger, but not one that releases it.
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    await createTrigger(s.token, { type: 'inactivity', config: {} })
    let r = await readiness(s.token)
    expect(r.ready).toBe(false)
    expect(missing(r)).toBe(NOT_PROTECTED.noRoute.message)
    expect(kinds(r)).toContain('item_trigger_missing:item')

    // An item released by hand: a paused trigger could be released by hand, but it is not active.
    const manual = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const paused = await createTrigger(manual.token, { type: 'manual_release', config: {}, status: 'paused' })
    r = await readiness(manual.token)
    expect(r.ready).toBe(false)
    expect(r.problems.filter((p) => p.severity === 'error')).toEqual([notProtected(manual.ownerId, 'triggersPaused')])
    await call(`/api/triggers/${paused.id}`, { method: 'PUT', token: manual.token, body: { status: 'active' } })
    expect((await readiness(manual.token)).ready).toBe(true)

    // The item goes (the vault keeps none of it active): nothing is protected again.
    await ownerExec(manual.ownerId, ["update vault_items set status = 'uploading'"])
    expect(missing(await readiness(manual.token))).toBe(NOT_PROTECTED.noItem.message)
  })

  it('counts an item’s own future date, a scheduled trigger naming its beneficiary, and an active policy on an active trigger', async () => {
    // Its own date, and no trigger at all.
    const dated = await ownerWithItem({ protocol: 'SCHEDULED', scheduledAt: new Date(Date.now() + 30 * DAY_MS).toISOString() })
    expect(await readiness(dated.token)).toMatchObject({ ready: true, problems: [{ kind: 'beneficiary_unverified' }] })

    // Left to someone only through a grant no protocol governs: a scheduled trigger naming them is the route.
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    await directOnly(s.ownerId, false)
    expect(missing(await readiness(s.token))).toBe(NOT_PROTECTED.noTrigger.message)
    const other = await addBeneficiary(s.token, await publicKey())
    const releaseDate = new Date(Date.now() + 30 * DAY_MS).toISOString()
    await createTrigger(s.token, { type: 'scheduled', config: { releaseDate, beneficiaries: [other.id], description: 'Someone with nothing' } })
    expect(missing(await readiness(s.token))).toBe(NOT_PROTECTED.noRoute.message)
    await createTrigger(s.token, { type: 'scheduled', config: { releaseDate, beneficiaries: [s.beneficiary.id], description: 'A date' } })
    expect((await readiness(s.token)).ready).toBe(true)

    // A policy: active and on an active trigger, or it is not a route.
    const p = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    await directOnly(p.ownerId, false)
    const policy = await policyCovering(p.token, p.beneficiary.id, [p.item.id], {
      ruleJson: { assign: [{ beneficiaryId: p.beneficiary.id, access: 'read' }], release: { on: ['inactivity'], delayHours: 72, requiresApprover: false } },
      status: 'draft',
    })
    await createTrigger(p.token, { type: 'inactivity', config: {} })
    expect(missing(await readiness(p.token))).toBe(NOT_PROTECTED.noRoute.message)
    const activated = await call(`/api/policies/${policy.id}`, { method: 'PUT', token: p.token, body: { status: 'active' } })
    expect(activated.status).toBe(200)
    expect((await readiness(p.token)).ready).toBe(true)
  })

  it('does not count an item whose own date has already passed: it reaches no one any more', async () => {
    const dated = await ownerWithItem({ protocol: 'SCHEDULED', scheduledAt: new Date(Date.now() + 30 * DAY_MS).toISOString() })
    expect((await readiness(dated.token)).ready).toBe(true)
    await ownerExec(dated.ownerId, ['update vault_items set scheduled_at = ? where id = ?', Date.now() - DAY_MS, dated.item.id])
    const after = await readiness(dated.token)
    expect(after.ready).toBe(false)
    expect(find(after, 'nothing_protected')).toBeTruthy()
  })

  it('says nothing of a beneficiary nothing is left to, however unready they are', async () => {
    const s = await ownerWithItem({ protocol: 'SCHEDULED', scheduledAt: new Date(Date.now() + 30 * DAY_MS).toISOString() })
    const idle = await addBeneficiary(s.token, await publicKey(), { fullName: 'Nothing Left' })
    const r = await readiness(s.token)
    expect(r.problems.filter((p) => p.subject.id === idle.id)).toEqual([])
    expect(r.problems.filter((p) => p.subject.id === s.beneficiary.id).map((p) => p.kind)).toEqual(['beneficiary_unverified'])
  })

  it('asks for death-report links only for an active Verified death trigger: a paused one is not named', async () => {
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    expect(find(await readiness(s.token), 'death_link_unsent')).toBeDefined()
    expect((await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token: s.token, body: { status: 'paused' } })).status).toBe(200)
    expect(find(await readiness(s.token), 'death_link_unsent')).toBeUndefined()
  })

  it('names a Verified death trigger whose verified approvers hold no working report link, and points to resending them', async () => {
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    await verifiedApprover(s.token)
    await createTrigger(s.token, { type: 'verified_death', config: {} })
    expect(find(await readiness(s.token), 'death_link_unsent')).toBeUndefined()
    // Their link used or voided by a cancelled release.
    await ownerExec(s.ownerId, ['update approvers set death_link_nonce = null'])
    const problem = find(await readiness(s.token), 'death_link_unsent')
    expect(problem?.fix).toEqual({ label: 'Resend report links', href: '/triggers' })
  })

  it('does not count a paused scheduled trigger naming the beneficiary as a route', async () => {
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    await directOnly(s.ownerId, false)
    const releaseDate = new Date(Date.now() + 30 * DAY_MS).toISOString()
    await createTrigger(s.token, { type: 'scheduled', status: 'paused', config: { releaseDate, beneficiaries: [s.beneficiary.id], description: 'A date' } })
    expect((await readiness(s.token)).ready).toBe(false)
    expect(missing(await readiness(s.token))).not.toBeNull()
  })

  it('never counts another owner’s items, people or triggers', async () => {
    const a = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    await createTrigger(a.token, { type: 'manual_release', config: {} })
    expect((await readiness(a.token)).ready).toBe(true)

    const b = await register()
    expect(await readiness(b.token)).toEqual({ ready: false, problems: [notProtected(b.user.id, 'noBeneficiary')] })
    // B leaves an item to someone; A's active trigger is not B's.
    const heir = await addBeneficiary(b.token, await publicKey())
    await uploadItem(b.token, [heir.id], 100, { policy: { protocol: 'MANUAL_RELEASE' } })
    expect(missing(await readiness(b.token))).toBe(NOT_PROTECTED.noTrigger.message)
    // And A's answer names A, never B.
    expect((await readiness(a.token)).problems.every((p) => p.subject.type !== 'account' || p.subject.id === a.ownerId)).toBe(true)
  })

  it('walks a new owner from an item no trigger serves to a plan that works, one fix at a time', async () => {
    // The default protocol, Verified Death, and no trigger at all: the item would never go.
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    let r = await readiness(s.token)
    expect(r.ready).toBe(false)
    expect(kinds(r)).toEqual(['beneficiary_unverified:beneficiary', 'item_trigger_missing:item', 'nothing_protected:account'])
    expect(missing(r)).toBe('Not protected yet: set up a trigger')
    expect(find(r, 'item_trigger_missing')).toEqual({
      kind: 'item_trigger_missing',
      severity: 'error',
      subject: { type: 'item', id: s.item.id },
      message: 'An item set to Verified Death waits for a Verified Death trigger, and you have none.',
      fix: { label: 'Set up a Verified Death trigger', href: '/triggers?create=verified_death' },
    })
    expect(find(r, 'beneficiary_unverified')).toMatchObject({ severity: 'warning', subject: { type: 'beneficiary', id: s.beneficiary.id } })
    expect(find(r, 'beneficiary_unverified')!.message).toContain(s.beneficiary.fullName)
    // No id reaches the owner's words.
    for (const p of r.problems) expect(p.message).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/)

    // The trigger, paused: still stuck, and said so.
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {}, status: 'paused' })
    r = await readiness(s.token)
    expect(find(r, 'item_trigger_paused')).toMatchObject({ severity: 'error', fix: { href: '/triggers' } })
    expect(missing(r)).toBe(NOT_PROTECTED.triggersPaused.message)
    // Active, but no approver can report a death.
    await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token: s.token, body: { status: 'active' } })
    r = await readiness(s.token)
    expect(kinds(r)).toEqual(['beneficiary_unverified:beneficiary', 'death_link_unsent:trigger'])
    expect(find(r, 'death_link_unsent')!.fix.href).toBe('/beneficiaries')
    // A verified approver gets the report link: that is fixed too.
    await verifiedApprover(s.token)
    await verifyBeneficiary(s.beneficiary.email)
    r = await readiness(s.token)
    expect(r.ready).toBe(true)
    expect(kinds(r)).toEqual(['beneficiary_kit_only:beneficiary'])
  })

  it('names policies short of approvers, with an unverified contact, or with no one to review identity; a warning alone leaves the plan ready', async () => {
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    await createTrigger(s.token, { type: 'verified_death', config: {} })
    await ownerExec(s.ownerId, ['update item_grants set direct = 0 where item_id = ?', s.item.id])
    const pending = await addApprover(s.token)
    const policy = await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
      name: 'Family papers',
      ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 72, requiresApprover: true } },
      requiresApprover: true,
      approverContact: pending.email,
      minimumApprovals: 2,
      requiresIdentityVerification: true,
    })
    const r = await readiness(s.token)
    expect(r.ready).toBe(false)
    expect(kinds(r)).toEqual([
      'beneficiary_unverified:beneficiary',
      'death_link_unsent:trigger',
      'identity_no_reviewer:policy',
      'policy_approvals_short:policy',
      'policy_approver_contact_unverified:policy',
    ])
    expect(find(r, 'policy_approvals_short')).toMatchObject({
      subject: { type: 'policy', id: policy.id },
      message: 'The policy “Family papers” needs 2 approvals, and only 0 verified approvers can give them.',
    })
    // The contact verifies: one approval of the two can be given, still short by one.
    const invite = await waitFor(async () => (await outboxFor(pending.email)).find((m) => m.text.includes('/verify-approver')))
    expect((await call('/api/approvers/verify', { body: { token: linkTokenIn(invite, '/verify-approver') } })).status).toBe(200)
    expect(find(await readiness(s.token), 'policy_approvals_short')).toMatchObject({
      message: 'The policy “Family papers” needs 2 approvals, and only 1 verified approver can give them.',
    })
    // A second approver verifies: only the beneficiary's address is left, a warning.
    await verifiedApprover(s.token)
    const after = await readiness(s.token)
    expect(kinds(after)).toEqual(['beneficiary_unverified:beneficiary'])
    expect(after.ready).toBe(true)
  })

  it('names a beneficiary whose e-mail could not be delivered', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    await createTrigger(s.token, { type: 'manual_release', config: {} })
    expect(kinds(await readiness(s.token))).toEqual(['beneficiary_unverified:beneficiary'])
    // The invitation bounced until the outbox gave up on it.
    await env.DB.prepare("update email_outbox set status = 'failed', attempts = 5 where to_address = ?").bind(s.beneficiary.email.toLowerCase()).run()
    const r = await readiness(s.token)
    expect(r.ready).toBe(false)
    expect(find(r, 'beneficiary_undeliverable')).toMatchObject({ severity: 'error', subject: { type: 'beneficiary', id: s.beneficiary.id }, fix: { href: '/beneficiaries' } })
    expect(find(r, 'beneficiary_undeliverable')!.message).toContain(s.beneficiary.fullName)
  })

  it('lists every affected item of a large vault, and only the owner’s own', async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_90_DAYS' })
    const now = Date.now()
    const rows: Array<[string, ...unknown[]]> = []
    for (let i = 0; i < 999; i++) {
      rows.push([
        `insert into vault_items (id, type, status, plain_size, cipher_size, chunk_bytes, part_count, r2_key, release_protocol, created_at, completed_at)
         values (?, 'doc', 'active', 1, 1, 8388608, 1, ?, 'INACTIVITY_90_DAYS', ?, ?)`,
        `seed-${i}`,
        `items/${s.ownerId}/seed-${i}`,
        now,
        now,
      ])
      rows.push(['insert into item_grants (item_id, beneficiary_id, wrapped_key, key_version, direct, created_at) values (?, ?, ?, 1, 1, ?)', `seed-${i}`, s.beneficiary.id, 'wrapped', now])
    }
    await ownerExec(s.ownerId, ...rows)
    const r = await readiness(s.token)
    expect(r.problems.filter((p) => p.kind === 'item_trigger_missing')).toHaveLength(1000)
    expect(find(r, 'item_trigger_missing')!.fix.href).toBe('/triggers?create=inactivity')
    const other = await register()
    expect(await readiness(other.token)).toEqual({ ready: false, problems: [notProtected(other.user.id, 'noBeneficiary')] })
  })
})

describe('readiness and approvers', () => {
  it('lists an item whose approver contact is not a verified approver, while another approver is verified', { timeout: 20_000 }, async () => {
    const s = await ownerWithBeneficiary()
    await createTrigger(s.token, { type: 'verified_death', config: {} })
    await verifiedApprover(s.token)
    const pending = await addApprover(s.token)
    const { item } = await uploadItem(s.token, [s.beneficiary.id], 100, { policy: { protocol: 'VERIFIED_DEATH', requiresApprover: true, approverContact: pending.email } })
    const stranger = await uploadItem(s.token, [s.beneficiary.id], 100, { policy: { protocol: 'VERIFIED_DEATH', requiresApprover: true, approverContact: 'not-an-approver@example.com' } })
    const listed = async () => (await readiness(s.token)).problems.filter((p) => p.kind === 'item_approver_unverified').map((p) => p.subject.id).sort()
    expect(await listed()).toEqual([item.id, stranger.item.id].sort())

    const invite = await waitFor(async () => (await outboxFor(pending.email)).find((m) => m.text.includes('/verify-approver')))
    expect((await call('/api/approvers/verify', { body: { token: linkTokenIn(invite, '/verify-approver') } })).status).toBe(200)
    expect(await listed()).toEqual([stranger.item.id])
  })

  it('lists a policy whose named identity reviewers are all unverified, even when another approver is verified', { timeout: 20_000 }, async () => {
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    await createTrigger(s.token, { type: 'verified_death', config: {} })
    await ownerExec(s.ownerId, ['update item_grants set direct = 0 where item_id = ?', s.item.id])
    await verifiedApprover(s.token)
    const named = await addApprover(s.token)
    const policy = await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
      name: 'Checked papers',
      requiresIdentityVerification: true,
      identityVerificationApprovers: [named.id],
    })
    expect(find(await readiness(s.token), 'identity_no_reviewer')).toMatchObject({
      subject: { type: 'policy', id: policy.id },
      message: 'The policy “Checked papers” asks for identity checks, and no verified approver can review them.',
    })

    const invite = await waitFor(async () => (await outboxFor(named.email)).find((m) => m.text.includes('/verify-approver')))
    expect((await call('/api/approvers/verify', { body: { token: linkTokenIn(invite, '/verify-approver') } })).status).toBe(200)
    expect(find(await readiness(s.token), 'identity_no_reviewer')).toBeUndefined()
  })
})
