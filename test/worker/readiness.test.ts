import { describe, expect, it } from 'vitest'
import type { ReadinessProblem, ReleaseReadiness } from '../../contract/readiness'
import { createTrigger, ownerWithItem, policyCovering, verifiedApprover } from './engine-helpers'
import { addApprover, call, env, linkTokenIn, outboxFor, register, waitFor } from './helpers'
import { ownerExec } from './owner-helpers'

// GET /api/release-readiness (issue 0.2 · 2 of 7, point 1): one entry per reason a chosen item
// could not reach a chosen person today, each with where to fix it.

async function readiness(token: string): Promise<ReleaseReadiness> {
  const res = await call('/api/release-readiness', { token })
  expect(res.status).toBe(200)
  return (await res.json()) as ReleaseReadiness
}

const kinds = (r: ReleaseReadiness) => r.problems.map((p) => `${p.kind}:${p.subject.type}`).sort()
const find = (r: ReleaseReadiness, kind: ReadinessProblem['kind']) => r.problems.find((p) => p.kind === kind)

async function verifyBeneficiary(email: string) {
  const invite = await waitFor(async () => (await outboxFor(email)).find((m) => m.text.includes('/verify-beneficiary')))
  const res = await call('/api/beneficiaries/verify', { body: { token: linkTokenIn(invite, '/verify-beneficiary') } })
  expect(res.status).toBe(200)
}

describe('GET /api/release-readiness', () => {
  it('is ready with nothing chosen, and answers 401 without a session', async () => {
    const owner = await register()
    expect(await readiness(owner.token)).toEqual({ ready: true, problems: [] })
    expect((await call('/api/release-readiness')).status).toBe(401)
  })

  it('walks a new owner from an item no trigger serves to a plan that works, one fix at a time', async () => {
    // The default protocol, Verified Death, and no trigger at all: the item would never go.
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    let r = await readiness(s.token)
    expect(r.ready).toBe(false)
    expect(kinds(r)).toEqual(['beneficiary_unverified:beneficiary', 'item_trigger_missing:item'])
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
    // Active, but no approver can report a death.
    await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token: s.token, body: { status: 'active' } })
    r = await readiness(s.token)
    expect(kinds(r)).toEqual(['beneficiary_unverified:beneficiary', 'death_link_unsent:trigger'])
    expect(find(r, 'death_link_unsent')!.fix.href).toBe('/beneficiaries')
    // A verified approver gets the report link: that is fixed too.
    await verifiedApprover(s.token)
    await verifyBeneficiary(s.beneficiary.email)
    expect(await readiness(s.token)).toEqual({ ready: true, problems: [] })
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
    expect(await readiness(other.token)).toEqual({ ready: true, problems: [] })
  })
})
