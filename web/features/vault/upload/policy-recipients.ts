import type { Policy, PolicySelectors } from '../../../../contract/policies'
import type { ItemType } from '../../../../contract/vault-items'
import type { MasterKey } from '@/crypto'
import { listNames, TRIGGER_LABELS } from '@/features/policies/copy'
import { decryptSelectors, matches } from '@/features/policies/selectors'
import { policyEarliestSummary } from '@/features/triggers/earliest'
import type { UploadBeneficiary } from './upload-file'

// At upload time, an item also goes to the beneficiaries of every active policy that covers it,
// besides the ones chosen in the Add Item dialog. The vault is unlocked then, so the policies'
// selectors can be opened here (their tags are encrypted, so the server could not do this).

export interface ReadablePolicy {
  id: string
  name: string
  selectors: PolicySelectors
  beneficiaryIds: string[]
  /** When the policy releases: on which triggers, after how long. */
  release: { on: readonly TriggerKind[]; delayHours: number }
}

type TriggerKind = Policy['ruleJson']['release']['on'][number]

/** The active policies with their selectors opened; those that cannot be opened are listed apart. */
export async function readActivePolicies(
  policies: readonly Policy[],
  master: MasterKey,
): Promise<{ readable: ReadablePolicy[]; unreadable: Policy[] }> {
  const active = policies.filter((p) => p.status === 'active')
  const opened = await Promise.all(
    active.map(async (policy) => {
      try {
        return { policy, selectors: await decryptSelectors(policy, master) }
      } catch {
        return { policy, selectors: null }
      }
    }),
  )
  const readable: ReadablePolicy[] = []
  const unreadable: Policy[] = []
  for (const { policy, selectors } of opened) {
    if (!selectors) unreadable.push(policy)
    else readable.push(readablePolicy(policy, selectors))
  }
  return { readable, unreadable }
}

export interface ItemRecipients {
  /** The chosen beneficiaries first, then those the policies add, each once. */
  beneficiaries: UploadBeneficiary[]
  /** Beneficiaries added by a policy (not chosen in the dialog). */
  added: UploadBeneficiary[]
  /** The policies that cover the item. */
  policies: ReadablePolicy[]
}

/**
 * Who an item goes to: the beneficiaries chosen for it, plus every beneficiary of each readable
 * active policy whose selectors match its type and tags. A policy's beneficiary that no longer
 * exists (not in `known`) is skipped, since the server would refuse a grant for it.
 */
export function recipientsFor(
  item: { type: ItemType; tags: readonly string[] },
  chosen: readonly UploadBeneficiary[],
  policies: readonly ReadablePolicy[],
  known: readonly UploadBeneficiary[],
): ItemRecipients {
  const byId = new Map(known.map((b) => [b.id, b]))
  const beneficiaries = [...chosen]
  const seen = new Set(chosen.map((b) => b.id))
  const added: UploadBeneficiary[] = []
  const covering = policies.filter((p) => matches(p.selectors, item))
  for (const policy of covering) {
    for (const id of policy.beneficiaryIds) {
      const b = byId.get(id)
      if (!b || seen.has(id)) continue
      seen.add(id)
      beneficiaries.push(b)
      added.push(b)
    }
  }
  return { beneficiaries, added, policies: covering }
}

/** A policy with its selectors opened. */
export function readablePolicy(policy: Policy, selectors: PolicySelectors): ReadablePolicy {
  return {
    id: policy.id,
    name: policy.name,
    selectors,
    beneficiaryIds: policy.ruleJson.assign.map((a) => a.beneficiaryId),
    release: { on: policy.ruleJson.release.on, delayHours: policy.ruleJson.release.delayHours },
  }
}

export interface PolicyCoverage {
  /** Every item about to be added goes to someone through an active policy. */
  covered: boolean
  /** Who receives them through which policy, and when, in words. */
  lines: string[]
}

/**
 * What the active policies will do with the items about to be added (before any beneficiary is
 * chosen in the dialog): whether each item already goes to someone, and a sentence per policy
 * with the earliest time for its causes (`windowHours`: the owner's safety window, null if unknown).
 */
export function policyCoverage(
  items: ReadonlyArray<{ type: ItemType; tags: readonly string[] }>,
  policies: readonly ReadablePolicy[],
  people: ReadonlyArray<{ id: string; fullName: string }>,
  windowHours: number | null,
): PolicyCoverage {
  const names = new Map(people.map((p) => [p.id, p.fullName]))
  const recipients = (policy: ReadablePolicy) => policy.beneficiaryIds.filter((id) => names.has(id))
  const covering = (item: { type: ItemType; tags: readonly string[] }) => policies.filter((p) => matches(p.selectors, item) && recipients(p).length > 0)
  const used = new Map<string, ReadablePolicy>()
  for (const item of items) for (const p of covering(item)) used.set(p.id, p)
  const lines = [...used.values()].map((p) => {
    const who = listNames(recipients(p).map((id) => names.get(id)!))
    const triggers = listNames(p.release.on.map((t) => TRIGGER_LABELS[t].label), 'or')
    const when = triggers ? ` when ${/^[aeiou]/i.test(triggers) ? 'an' : 'a'} ${triggers} trigger fires` : ''
    const earliest = policyEarliestSummary(p.release.on, p.release.delayHours, windowHours)
    return `${who} ${recipients(p).length === 1 ? 'receives' : 'receive'} ${items.length === 1 ? 'it' : 'matching items'} through your policy “${p.name}”${when}${earliest ? `: ${earliest}` : ''}.`
  })
  return { covered: items.length > 0 && items.every((item) => covering(item).length > 0), lines }
}
