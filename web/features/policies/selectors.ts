import { z } from 'zod'
import type { Policy, PolicySelectors } from '../../../contract/policies'
import { ITEM_TYPES, type ItemType } from '../../../contract/vault-items'
import { decryptMetadata, encryptMetadata, generateDataKey, unwrapDataKey, wrapDataKey, type MasterKey } from '@/crypto'

// A policy's selectors (which item types and tags it covers) are decided and kept in the owner's
// browser, since item tags are encrypted (ARCHITECTURE §3). Each policy gets a data key of its own,
// stored wrapped by the master key (`wrappedKey`), and the selectors are sealed with it
// (`encryptedSelectors`) the way item metadata is.
//
// The AAD binding. Item metadata binds its ciphertext to the item's id. A policy's id is chosen by
// the server when the policy is created, after the selectors have to be sealed, and the create
// body has nowhere to carry a client-made id that a later decryption could read back. So the
// selectors are bound to a fixed purpose string instead. Together with the policy's own key this
// stops a ciphertext from being reused for another purpose: selectors never open as an item's
// metadata (item ids are UUIDs, never this string) and an item's metadata never opens as
// selectors. What it does not stop is the server swapping the (selectors, key) pair of two of the
// same owner's policies; the server keeps who receives a policy's items in clear anyway, so that
// swap gives it no power it lacks.
export const POLICY_SELECTORS_BINDING = 'policy-selectors'

const selectorsSchema = z.object({
  types: z.array(z.enum(ITEM_TYPES)).min(1),
  tags: z.array(z.string().max(200)).max(100),
})

/** How tags compare: trimmed, Unicode-normalised, case-insensitive. */
export function tagKey(tag: string): string {
  return tag.trim().normalize('NFC').toLowerCase()
}

/** Types in the contract's order without repeats; tags trimmed, empties and case-insensitive repeats dropped. */
export function normalizeSelectors(selectors: { types: readonly ItemType[]; tags: readonly string[] }): PolicySelectors {
  const seen = new Set<string>()
  const tags: string[] = []
  for (const raw of selectors.tags) {
    const tag = raw.trim()
    const key = tagKey(tag)
    if (!key || seen.has(key)) continue
    seen.add(key)
    tags.push(tag)
  }
  return { types: ITEM_TYPES.filter((t) => selectors.types.includes(t)), tags }
}

/**
 * The rule, shown to the owner as written here: an item is covered when its type is one of the
 * policy's types AND either the policy names no tags or the item has at least one of them
 * (ignoring case).
 */
export function matches(selectors: PolicySelectors, item: { type: ItemType; tags: readonly string[] }): boolean {
  if (!selectors.types.includes(item.type)) return false
  if (selectors.tags.length === 0) return true
  const wanted = new Set(selectors.tags.map(tagKey))
  return item.tags.some((tag) => wanted.has(tagKey(tag)))
}

/** A fresh policy key, wrapped by the master key, and the selectors sealed with it. */
export async function encryptSelectors(
  selectors: PolicySelectors,
  master: MasterKey,
): Promise<{ encryptedSelectors: string; wrappedKey: string }> {
  const value = selectorsSchema.parse(normalizeSelectors(selectors))
  const dek = await generateDataKey()
  const [encryptedSelectors, wrappedKey] = await Promise.all([
    encryptMetadata(dek, POLICY_SELECTORS_BINDING, value),
    wrapDataKey(dek, master),
  ])
  return { encryptedSelectors, wrappedKey }
}

/** The selectors back; DecryptionError for the wrong master key or altered bytes, ZodError for a bad shape. */
export async function decryptSelectors(
  policy: Pick<Policy, 'encryptedSelectors' | 'wrappedKey'>,
  master: MasterKey,
): Promise<PolicySelectors> {
  const dek = await unwrapDataKey(policy.wrappedKey, master)
  return selectorsSchema.parse(await decryptMetadata<unknown>(dek, POLICY_SELECTORS_BINDING, policy.encryptedSelectors))
}
