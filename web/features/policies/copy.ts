import { POLICY_DOCUMENT_TYPE_LABELS, type Policy } from '../../../contract/policies'
import { DEVICE_LOSS_MESSAGES, DEVICE_LOSS_TRIGGER_NAME, FAILED_UNLOCK_MESSAGES, FAILED_UNLOCK_TRIGGER_NAME } from '../../../contract/triggers'
import type { ItemType } from '../../../contract/vault-items'

// Words used only by the Access Policies screen (seeds 001 §2, §8, §9). Toast titles quoted by the
// seeds are kept to the letter; validation messages live in contract/policies.ts.

export const POLICY_TOASTS = {
  createFailed: 'Failed to create policy',
  deleteFailed: 'Failed to delete policy',
  updateFailed: 'Failed to update policy',
  fallback: 'Please try again.',
  created: 'Policy created',
  activated: 'Policy activated',
  deactivated: 'Policy deactivated',
  deleted: 'Policy deleted',
  applied: 'Policy applied',
} as const

export const TRIGGER_LABELS: Record<Policy['ruleJson']['release']['on'][number], { label: string; hint: string }> = {
  inactivity: { label: 'Inactivity', hint: 'You stop answering check-ins.' },
  verified_death: { label: 'Verified death', hint: 'An approver confirms a death certificate.' },
  biometric_failure: { label: FAILED_UNLOCK_TRIGGER_NAME, hint: FAILED_UNLOCK_MESSAGES.policyHint },
  device_loss: { label: DEVICE_LOSS_TRIGGER_NAME, hint: DEVICE_LOSS_MESSAGES.policyHint },
  manual_release: { label: 'Manual release', hint: 'You release it yourself from the Trigger Monitor.' },
}

export const ITEM_TYPE_LABELS: Record<ItemType, string> = {
  doc: 'Documents',
  photo: 'Photos',
  video: 'Videos',
  password: 'Passwords',
}

export const DOCUMENT_TYPE_LABELS = POLICY_DOCUMENT_TYPE_LABELS

export const STATUS_BADGES: Record<Policy['status'], { label: string; variant: 'success' | 'secondary' | 'warning' }> = {
  active: { label: 'Active', variant: 'success' },
  inactive: { label: 'Inactive', variant: 'secondary' },
  draft: { label: 'Draft', variant: 'warning' },
}

/** The delay guide (seeds 001 §9). */
export const DELAY_GUIDE = 'Guide: 24-72 hours is standard, 7+ days (168 hours) for financial accounts, 0 for emergency access.'

/** The matching rule, exactly as selectors.ts `matches` applies it. */
export const MATCH_RULE =
  'An item is covered when its type is one of the types you tick AND, if you name tags, it has at least one of them (capitals do not matter). With no tags, every item of those types is covered.'

export const TAGS_HINT = 'Comma-separated, optional, e.g. taxes, insurance. Leave empty to cover every item of the chosen types.'

export const GUIDELINES: Array<{ title: string; text: string }> = [
  {
    title: 'Which items',
    text: `${MATCH_RULE} Tags are encrypted, so the matching happens in this browser: your vault must be unlocked to create a policy, and items you upload later are matched as you upload them.`,
  },
  {
    title: 'Delay',
    text: 'How long a release waits before its items become available. When a death report, your inactivity or failed unlock attempts start it, it also waits at least your safety window: whichever is longer applies. When you release it by hand, the delay alone applies. Until then you can cancel it by checking in. 24-72 hours is standard; use 7 days or more for financial accounts and 0 only for emergency access.',
  },
  {
    title: 'Approvers and identity',
    text: 'Ask for an approver when someone you trust should confirm a release first. Ask for identity verification when beneficiaries must show a government ID, reviewed by your approvers, before they can open anything. Minimum approvals sets how many approvers must agree.',
  },
  {
    title: 'Activate and deactivate',
    text: 'New policies start active. A deactivated policy keeps its settings but releases nothing and no longer assigns new uploads; activate it again at any time.',
  },
]

export const LOCKED_SELECTORS = 'Unlock your vault to see which items this policy covers.'

/** 'Ada', 'Ada and Ben', 'Ada, Ben and Cy' (or 'Ada, Ben or Cy'). */
export function listNames(names: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  if (names.length <= 1) return names[0] ?? ''
  return `${names.slice(0, -1).join(', ')} ${conjunction} ${names[names.length - 1]}`
}

export function itemsPhrase(count: number): string {
  return count === 1 ? '1 item' : `${count} items`
}

/** "Policy created — 3 items now go to Ada" (the toast after creation or a re-apply). */
export function grantedText(count: number, names: readonly string[]): string {
  const who = listNames(names) || 'its beneficiaries'
  if (count === 0) return `No items match it yet; new uploads that match will go to ${who}.`
  return `${itemsPhrase(count)} now go${count === 1 ? 'es' : ''} to ${who}.`
}

export function failedItemsText(count: number): string {
  return `${itemsPhrase(count)} could not be assigned. Use Apply to items to try again.`
}

/** After assigning a policy's items: how many now go to whom, and how many could not be assigned (to try again). */
export function appliedText(result: { matchedItemIds: readonly string[]; failed: readonly unknown[] }, names: readonly string[]): string {
  if (!result.failed.length) return grantedText(result.matchedItemIds.length, names)
  const done = result.matchedItemIds.length - result.failed.length
  return `${grantedText(Math.max(0, done), names)} ${failedItemsText(result.failed.length)}`
}

export function delayText(hours: number): string {
  if (hours === 0) return 'No delay'
  if (hours % 24 === 0 && hours >= 48) return `${hours} hours (${hours / 24} days)`
  return hours === 1 ? '1 hour' : `${hours} hours`
}

export const deletePolicyText = (name: string) =>
  `"${name}" will be deleted: it will no longer release anything or assign new uploads. Items it already assigned stay with their beneficiaries. This cannot be undone.`

/** The policy form's Access on request section (rules and messages: contract/access-requests.ts). */
export const ACCESS_REQUEST_COPY = {
  title: 'Access on request',
  hint: 'The people you choose below can ask for this policy’s items. You are e-mailed at once and can refuse; if you do not refuse before the waiting time ends, the items are released to them.',
  requesters: {
    beneficiaries: { label: 'This policy’s beneficiaries', hint: 'Each one asks for what this policy leaves to them.' },
    approvers: { label: 'Its approvers', hint: 'Those ticked to review identity above, or all your verified approvers. Their request releases to this policy’s beneficiaries.' },
  },
} as const
