import { describe, expect, it } from 'vitest'
import { RELEASE_MESSAGES } from '../../contract/releases'
import type { EngineStatus } from '../../contract/triggers'
import { assetRows, createTrigger, manualReleaseOk, policyCovering, verifiedApprover } from './engine-helpers'
import { addBeneficiary, call, linkTokenIn, messageOf, outboxFor, register, waitFor } from './helpers'
import { ownerExec, ownerRows } from './owner-helpers'
import { publicKey, uploadItem } from './vault-helpers'

// How many yeses a release needs, and when its noes end it (worker/engine/advance.ts), with more
// people asked than the policy needs: the two-of-two pin in promise-pins.test.ts cannot tell
// "enough approvals" from "every signer".

/** A release waiting on three verified approvers, of whom the policy needs `minimumApprovals`. */
async function releaseAskingThree(minimumApprovals: number) {
  const owner = await register()
  const heir = await addBeneficiary(owner.token, await publicKey())
  const { item } = await uploadItem(owner.token, [heir.id])
  await ownerExec(owner.user.id, ['update item_grants set direct = 0 where item_id = ?', item.id])
  const signers = [await verifiedApprover(owner.token), await verifiedApprover(owner.token), await verifiedApprover(owner.token)]
  await policyCovering(owner.token, heir.id, [item.id], {
    ruleJson: { assign: [{ beneficiaryId: heir.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 0, requiresApprover: true } },
    requiresApprover: true,
    approverContact: signers[0]!.email,
    minimumApprovals,
  })
  const trigger = await createTrigger(owner.token, { type: 'verified_death', config: {} })
  expect(await manualReleaseOk(owner.token, trigger.id)).toMatchObject({ transferredItems: 0, pendingReleases: 1 })
  const status = (await (await call('/api/trigger-engine/status', { token: owner.token })).json()) as EngineStatus
  expect(status.releases[0]).toMatchObject({ status: 'waiting', requiredApprovals: minimumApprovals, approvals: 0 })

  const answer = async (index: number, decision: 'approved' | 'rejected') => {
    const email = signers[index]!.email
    const mail = await waitFor(async () => (await outboxFor(email)).find((m) => m.text.includes('/approve-release')))
    return call('/api/release-approvals', { body: { token: linkTokenIn(mail, '/approve-release'), decision } })
  }
  const decide = async (index: number, decision: 'approved' | 'rejected') => {
    const res = await answer(index, decision)
    expect(res.status).toBe(200)
    return (await res.json()) as { status: string; approvals: number; requiredApprovals: number }
  }
  const released = async () => (await assetRows(owner.user.id, heir.id)).map((a) => a.status)
  return { answer, decide, released, owner, signers }
}

describe('a policy asking for 1 of 3 approvals', () => {
  it('one "no" does not reject it while enough approvers are undecided; one "yes" then releases it', { timeout: 20_000 }, async () => {
    const { decide, released } = await releaseAskingThree(1)
    expect(await decide(0, 'rejected')).toMatchObject({ status: 'waiting', approvals: 0, requiredApprovals: 1 })
    expect(await released()).toEqual([])
    expect(await decide(1, 'approved')).toMatchObject({ status: 'released', approvals: 1 })
    expect(await released()).toEqual(['available'])
  })
})

describe('each approver answers once', () => {
  it('a second click on the same link cannot turn a "no" into a "yes" (409, in plain words)', { timeout: 20_000 }, async () => {
    const { answer, decide, released } = await releaseAskingThree(1)
    expect(await decide(0, 'rejected')).toMatchObject({ status: 'waiting', approvals: 0 })
    const again = await answer(0, 'approved')
    expect(again.status).toBe(409)
    expect(await messageOf(again)).toBe(RELEASE_MESSAGES.alreadySigned)
    expect(await released()).toEqual([])
  })
})

describe('a release no longer waiting', () => {
  it('takes no more decisions: once it was released, another approver’s "no" is refused (409) and changes nothing', { timeout: 20_000 }, async () => {
    const { answer, decide, released } = await releaseAskingThree(1)
    expect(await decide(0, 'approved')).toMatchObject({ status: 'released' })
    const late = await answer(1, 'rejected')
    expect(late.status).toBe(409)
    expect(await messageOf(late)).toBe(RELEASE_MESSAGES.releaseNotWaiting)
    expect(await released()).toEqual(['available'])
  })
})

describe('a policy asking for 2 of 3 approvals', () => {
  it('one "no" and one "yes" leave it waiting', { timeout: 20_000 }, async () => {
    const { decide, released } = await releaseAskingThree(2)
    expect(await decide(0, 'rejected')).toMatchObject({ status: 'waiting', approvals: 0 })
    expect(await decide(1, 'approved')).toMatchObject({ status: 'waiting', approvals: 1, requiredApprovals: 2 })
    expect(await released()).toEqual([])
    expect(await decide(2, 'approved')).toMatchObject({ status: 'released', approvals: 2 })
    expect(await released()).toEqual(['available'])
  })

  it('two "no" reject it: it can no longer get enough approvals', { timeout: 20_000 }, async () => {
    const { decide, released } = await releaseAskingThree(2)
    expect(await decide(0, 'rejected')).toMatchObject({ status: 'waiting' })
    expect(await decide(1, 'rejected')).toMatchObject({ status: 'cancelled', approvals: 0 })
    expect(await released()).toEqual([])
  })
})

describe('who is asked to sign off', () => {
  it('a policy that names its approvers asks those alone: another verified approver of the owner gets no link', { timeout: 20_000 }, async () => {
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await publicKey())
    const { item } = await uploadItem(owner.token, [heir.id])
    await ownerExec(owner.user.id, ['update item_grants set direct = 0 where item_id = ?', item.id])
    const named = await verifiedApprover(owner.token)
    const other = await verifiedApprover(owner.token)
    await policyCovering(owner.token, heir.id, [item.id], {
      ruleJson: { assign: [{ beneficiaryId: heir.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 0, requiresApprover: true } },
      requiresApprover: true,
      approverContact: named.email,
      identityVerificationApprovers: [named.id],
      minimumApprovals: 1,
    })
    const trigger = await createTrigger(owner.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(owner.token, trigger.id)).toMatchObject({ pendingReleases: 1 })
    await waitFor(async () => (await outboxFor(named.email)).some((m) => m.text.includes('/approve-release')))
    expect((await outboxFor(other.email)).filter((m) => m.text.includes('/approve-release'))).toEqual([])
    const status = (await (await call('/api/trigger-engine/status', { token: owner.token })).json()) as EngineStatus
    expect(status.releases[0]).toMatchObject({ status: 'waiting', requiredApprovals: 1 })
  })
})

describe('a release waiting on sign-offs alone', () => {
  it('has started: an heir not in Secrecy Mode is told so at once, though it has no delay', { timeout: 20_000 }, async () => {
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await publicKey())
    const { item } = await uploadItem(owner.token, [heir.id])
    await ownerExec(owner.user.id, ['update item_grants set direct = 0 where item_id = ?', item.id])
    const signer = await verifiedApprover(owner.token)
    await policyCovering(owner.token, heir.id, [item.id], {
      ruleJson: { assign: [{ beneficiaryId: heir.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 0, requiresApprover: true } },
      requiresApprover: true,
      approverContact: signer.email,
      minimumApprovals: 1,
    })
    const trigger = await createTrigger(owner.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(owner.token, trigger.id)).toMatchObject({ transferredItems: 0, pendingReleases: 1 })
    await waitFor(async () => (await outboxFor(heir.email)).some((m) => m.subject.includes('has started a release to you')))
  })
})

describe('removing an approver who already answered', () => {
  it('keeps their answer: a yes given before the removal still counts toward the release', { timeout: 20_000 }, async () => {
    const { decide, released, owner, signers } = await releaseAskingThree(2)
    expect(await decide(0, 'approved')).toMatchObject({ status: 'waiting', approvals: 1 })
    expect((await call(`/api/approvers/${signers[0]!.id}`, { method: 'DELETE', token: owner.token })).status).toBe(200)
    const status = (await (await call('/api/trigger-engine/status', { token: owner.token })).json()) as EngineStatus
    expect(status.releases[0]).toMatchObject({ status: 'waiting', approvals: 1, requiredApprovals: 2 })
    expect(await decide(1, 'approved')).toMatchObject({ status: 'released', approvals: 2 })
    expect(await released()).toEqual(['available'])
  })
})

describe('removing an approver after the release went', () => {
  it('withdraws nothing from a release no longer waiting: no sign-off of it is touched, and the audit chain records no withdrawal', { timeout: 20_000 }, async () => {
    const { decide, released, owner, signers } = await releaseAskingThree(1)
    expect(await decide(0, 'approved')).toMatchObject({ status: 'released' })
    expect((await call(`/api/approvers/${signers[1]!.id}`, { method: 'DELETE', token: owner.token })).status).toBe(200)
    expect(await ownerRows(owner.user.id, "select action from audit where action = 'release.signer_withdrawn'")).toEqual([])
    expect(await ownerRows(owner.user.id, 'select count(*) as n from release_signoffs')).toEqual([{ n: 3 }])
    expect(await released()).toEqual(['available'])
  })
})

describe('removing an approver who has not answered', () => {
  it('withdraws their sign-off: a release that needed every approver goes once the others said yes', { timeout: 20_000 }, async () => {
    const { decide, released, owner, signers } = await releaseAskingThree(3)
    expect(await decide(0, 'approved')).toMatchObject({ status: 'waiting', approvals: 1 })
    expect(await decide(1, 'approved')).toMatchObject({ status: 'waiting', approvals: 2 })
    expect((await call(`/api/approvers/${signers[2]!.id}`, { method: 'DELETE', token: owner.token })).status).toBe(200)
    const status = (await (await call('/api/trigger-engine/status', { token: owner.token })).json()) as EngineStatus
    expect(status.releases[0]).toMatchObject({ status: 'released', approvals: 2 })
    expect(await released()).toEqual(['available'])
  })
})
