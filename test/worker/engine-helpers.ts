import { runInDurableObject } from 'cloudflare:test'
import type { EngineStatus, ManualReleaseResult, Trigger } from '../../contract/triggers'
import { runningSchedule, type ClockState } from '../../worker/engine/clock'
import { parseEmailDate } from '../../worker/mail/dates'
import type { OwnerVault } from '../../worker/host/vault-object'
import { addApprover, call, linksIn, linkTokenIn, nextMessageTo, outboxFor, waitFor } from './helpers'
import { ownerExec, ownerRow, ownerRows, vaultOf } from './owner-helpers'
import { ownerWithBeneficiary, uploadItem } from './vault-helpers'

export const DAY_MS = 86_400_000
export const b64 = (s: string) => btoa(s)

/** The owner's object. */
export const guard = vaultOf

/**
 * Rewrites the owner's clock, as if time had passed since the last check-in. A check-in e-mail it
 * says went out (a phase past 'ok') went out under the schedule running now, unless `scheduleKey`
 * says otherwise: one sent under another schedule would be sent again (worker/engine/clock.ts).
 */
export async function setClock(ownerId: string, clock: Partial<ClockState>): Promise<void> {
  await guard(ownerId).tick()
  await runInDurableObject(guard(ownerId), async (_instance: OwnerVault, state) => {
    const current = state.storage.kv.get<ClockState>('clock')!
    const next = { ...current, ...clock }
    if (next.phase !== 'ok' && !('scheduleKey' in clock)) {
      const rows = state.storage.sql
        .exec<{ id: string; config: string; updated_at: number; created_at: number }>("select id, config, updated_at, created_at from triggers where type = 'inactivity' and status = 'active'")
        .toArray()
      next.scheduleKey = runningSchedule(rows.map((r) => ({ id: r.id, config: JSON.parse(r.config), updatedAt: r.updated_at, createdAt: r.created_at })))?.key ?? null
    }
    state.storage.kv.put('clock', next)
  })
}

/** The engine status, as the monitor reads it. */
export async function engineStatus(token: string): Promise<EngineStatus> {
  const res = await call('/api/trigger-engine/status', { token })
  if (res.status !== 200) throw new Error(`engine status failed: ${res.status} ${await res.text()}`)
  return (await res.json()) as EngineStatus
}

/** The deadline a check-in e-mail (or reminder) names: "If we hear nothing by <time>". */
export function mailedDeadline(text: string): number {
  const match = /If we hear nothing by (.+?), your inactivity triggers/.exec(text)
  if (!match) throw new Error(`no deadline in the e-mail: ${text}`)
  return parseEmailDate(match[1]!)
}

export async function clockOf(ownerId: string): Promise<ClockState> {
  return runInDurableObject(guard(ownerId), async (_i: OwnerVault, state) => state.storage.kv.get<ClockState>('clock')!)
}

export async function createTrigger(token: string, body: Record<string, unknown>): Promise<Trigger> {
  const res = await call('/api/triggers', { token, body: { status: 'active', ...body } })
  if (res.status !== 201) throw new Error(`create trigger failed: ${res.status} ${await res.text()}`)
  return (await res.json()) as Trigger
}

export async function manualRelease(token: string, triggerId: string, reason = 'Rehearsal') {
  return call(`/api/trigger-engine/manual/${triggerId}`, { token, body: { reason, confirm: 'RELEASE' } })
}

export async function manualReleaseOk(token: string, triggerId: string): Promise<ManualReleaseResult> {
  const res = await manualRelease(token, triggerId)
  if (res.status !== 200) throw new Error(`manual release failed: ${res.status} ${await res.text()}`)
  return (await res.json()) as ManualReleaseResult
}

/** An owner, one beneficiary, one uploaded item granted to them under `protocol`. */
export async function ownerWithItem(policy: Record<string, unknown> = { protocol: 'MANUAL_RELEASE' }) {
  const setup = await ownerWithBeneficiary()
  const { item, parts } = await uploadItem(setup.token, [setup.beneficiary.id], 100, { policy })
  return { ...setup, item, parts }
}

/**
 * An owner whose one item reaches its heir only through a policy with a `delayHours` delay, and a
 * manual release of its death trigger waiting on that delay (nothing handed over yet).
 */
export async function waitingPolicyRelease(delayHours: number) {
  const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
  await ownerExec(s.ownerId, ['update item_grants set direct = 0 where item_id = ?', s.item.id])
  await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
    ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['verified_death'], delayHours, requiresApprover: false } },
  })
  const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
  const result = await manualReleaseOk(s.token, trigger.id)
  if (result.pendingReleases !== 1) throw new Error(`expected one waiting release, got ${JSON.stringify(result)}`)
  return { ...s, trigger }
}

export function policyBody(beneficiaryId: string, overrides: Record<string, unknown> = {}) {
  return {
    name: 'Family documents',
    description: 'Everything my children need to settle the estate.',
    ruleJson: { assign: [{ beneficiaryId, access: 'read' }], release: { on: ['verified_death'], delayHours: 72, requiresApprover: false } },
    encryptedSelectors: b64('sealed selectors'),
    wrappedKey: b64('wrapped policy key'),
    requiresApprover: false,
    requiresIdentityVerification: false,
    identityVerificationApprovers: [],
    requiredDocumentTypes: [],
    minimumApprovals: 1,
    status: 'active',
    ...overrides,
  }
}

/** Creates a policy and records that it covers `itemIds` (as the owner's browser does). */
export async function policyCovering(token: string, beneficiaryId: string, itemIds: string[], overrides: Record<string, unknown> = {}) {
  const res = await call('/api/policies', { token, body: policyBody(beneficiaryId, overrides) })
  if (res.status !== 201) throw new Error(`policy failed: ${res.status} ${await res.text()}`)
  const policy = (await res.json()) as { id: string }
  const covered = await call(`/api/policies/${policy.id}/items`, { method: 'PUT', token, body: { itemIds } })
  if (covered.status !== 200) throw new Error(`policy items failed: ${covered.status} ${await covered.text()}`)
  return policy
}

/** An approver whose address is verified through the link of their invitation. */
export async function verifiedApprover(token: string) {
  const approver = await addApprover(token)
  const invite = await nextMessageTo(approver.email)
  const res = await call('/api/approvers/verify', { body: { token: linkTokenIn(invite, '/verify-approver') } })
  if (res.status !== 200) throw new Error(`approver verify failed: ${res.status}`)
  return approver
}

export async function firingCount(ownerId: string): Promise<number> {
  return (await ownerRow<{ n: number }>(ownerId, 'select count(*) as n from firings'))!.n
}

export async function assetRows(ownerId: string, beneficiaryId: string) {
  return (await ownerRows(ownerId, 'select * from released_assets where beneficiary_id = ?', beneficiaryId)) as Array<{
    id: string
    status: string
    download_count: number
    max_downloads: number
    expires_at: number | null
  }>
}

/** The portal token from the newest "released to you" e-mail to `address`. */
export async function portalToken(address: string): Promise<string> {
  return waitFor(async () => {
    for (const m of await outboxFor(address)) {
      const url = linksIn(m, '/beneficiary-portal').find((u) => u.searchParams.get('view') === 'assets')
      if (url) return url.searchParams.get('token')!
    }
    return undefined
  })
}
