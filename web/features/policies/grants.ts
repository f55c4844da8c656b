import {
  CIRCLE_MESSAGES,
  ROTATION_PAGE_SIZE,
  type Beneficiary,
  type BeneficiaryRotateKeyBody,
  type RotationCommitBody,
  type RotationGrantsBody,
  type RotationStartBody,
  type RotationStarted,
} from '../../../contract/circle'
import type { ItemGrantsBody, PolicyItemsBody, PolicySelectors } from '../../../contract/policies'
import type { ItemMetadata, VaultItem } from '../../../contract/vault-items'
import type { StatedGrant } from '../../../contract/vault-statements'
import {
  decryptMetadata,
  importBeneficiaryPublicKey,
  unwrapDataKey,
  wrapDataKeyForBeneficiary,
  type BeneficiaryPublicKey,
  type MasterKey,
} from '@/crypto'
import { ApiRequestError } from '@/lib/api-client'
import { defaultFetch, sendJson, type FetchLike } from '@/features/vault/items/http'
import { VaultLockedError } from '@/features/vault/vault-session'
import { vaultSigner, type VaultSigner } from '@/features/vault/manifest'
import { grantsStatement } from '../../../contract/vault-statements'
import { matches } from './selectors'

// Grants: an item's data key wrapped with a beneficiary's public key, made here in the owner's
// browser whenever an item is assigned to someone (ARCHITECTURE §3). This file makes them for a
// policy's existing items, and re-makes every one of a beneficiary's on key rotation.

export interface GrantRecipient {
  id: string
  /** base64 SPKI, as the beneficiaries list returns it. */
  publicKey: string
  /** The version of that key, named in the grants statement the vault signs. */
  keyVersion: number
}

export interface PolicyGrantResult {
  /** Items the policy covers (whether or not they needed a new grant). */
  matchedItemIds: string[]
  /** Items that received at least one new grant. */
  updatedItemIds: string[]
  /** New grants stored, summed over items and beneficiaries. */
  newGrants: number
  /** Items that could not be read or updated; the rest were still done. */
  failed: Array<{ itemId: string; error: unknown }>
}

export interface ApplyPolicyGrantsInput<R extends GrantRecipient = GrantRecipient> {
  /** The policy being applied: the items it covers are recorded against it for the release engine. */
  policyId: string
  selectors: PolicySelectors
  recipients: readonly R[]
  /**
   * Throws (UntrustedKeyError) unless every recipient's key is one this vault signed: run before
   * anything is wrapped (the app passes assertTrustedKeys).
   */
  assertTrusted: (recipients: readonly R[]) => Promise<void>
  items: readonly VaultItem[]
  master: MasterKey
  fetch?: FetchLike
  /** Item requests in flight at once. */
  concurrency?: number
  /** Signs each item's grants statement; the unlocked vault unless a test passes another. */
  signer?: VaultSigner
}

const POLICY_ITEMS_PER_REQUEST = 300

const grantsUrl = (itemId: string) => `/api/vault/items/${encodeURIComponent(itemId)}/grants`

async function importRecipients(recipients: readonly GrantRecipient[]): Promise<Map<string, BeneficiaryPublicKey>> {
  const keys = new Map<string, BeneficiaryPublicKey>()
  for (const r of recipients) keys.set(r.id, await importBeneficiaryPublicKey(r.publicKey))
  return keys
}

async function eachLimited<T>(list: readonly T[], limit: number, run: (value: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < list.length) await run(list[next++]!)
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, list.length)) }, worker))
}

/**
 * Gives a policy's beneficiaries the items it covers: for each item whose type and tags match,
 * and each recipient without a grant yet (`item.beneficiaryIds`), the item's data key is
 * unwrapped with the master key and wrapped with the recipient's public key, then stored with
 * PUT /api/vault/items/:id/grants. Grants that exist are left as they are (the server adds or
 * replaces only the grants it is sent), each item's new grants signed by the vault (the grants
 * statement). A recipient key that cannot be used fails the whole call before anything is sent;
 * one item failing does not stop the others.
 */
export async function applyPolicyGrants<R extends GrantRecipient>(input: ApplyPolicyGrantsInput<R>): Promise<PolicyGrantResult> {
  const fetchFn = input.fetch ?? defaultFetch
  const signer = input.signer ?? vaultSigner()
  await input.assertTrusted(input.recipients)
  const keys = await importRecipients(input.recipients)
  const result: PolicyGrantResult = { matchedItemIds: [], updatedItemIds: [], newGrants: 0, failed: [] }
  const candidates = input.items.filter((item) => input.selectors.types.includes(item.type))

  await eachLimited(candidates, input.concurrency ?? 4, async (item) => {
    try {
      const dek = await unwrapDataKey(item.wrappedKey, input.master)
      if (input.selectors.tags.length > 0) {
        const metadata = await decryptMetadata<ItemMetadata>(dek, item.id, item.encryptedMetadata)
        const tags = Array.isArray(metadata?.tags) ? metadata.tags.filter((t): t is string => typeof t === 'string') : []
        if (!matches(input.selectors, { type: item.type, tags })) return
      }
      result.matchedItemIds.push(item.id)
      const missing = input.recipients.filter((r) => !item.beneficiaryIds.includes(r.id))
      if (missing.length === 0) return
      const grants = await Promise.all(
        missing.map(async (r) => ({ beneficiaryId: r.id, keyVersion: r.keyVersion, wrappedKey: await wrapDataKeyForBeneficiary(dek, keys.get(r.id)!) })),
      )
      const statement = grantsStatement(signer.ownerId, grants.map((g) => ({ itemId: item.id, ...g })))
      const body: ItemGrantsBody = { grants, grantsSignature: await signer.signText(statement) }
      await sendJson<{ beneficiaryIds: string[] }>(fetchFn, 'PUT', grantsUrl(item.id), body)
      result.updatedItemIds.push(item.id)
      result.newGrants += missing.length
    } catch (error) {
      result.failed.push({ itemId: item.id, error })
    }
  })
  // Keep the list's order, whatever order the parallel requests finished in.
  const order = new Map(input.items.map((item, i) => [item.id, i]))
  const byOrder = (a: string, b: string) => order.get(a)! - order.get(b)!
  result.matchedItemIds.sort(byOrder)
  result.updatedItemIds.sort(byOrder)
  // The server cannot read selectors, so it learns which items the policy covers from here.
  const covered = result.matchedItemIds.filter((id) => !result.failed.some((f) => f.itemId === id))
  for (let i = 0; i < covered.length; i += POLICY_ITEMS_PER_REQUEST) {
    const body: PolicyItemsBody = { itemIds: covered.slice(i, i + POLICY_ITEMS_PER_REQUEST) }
    await sendJson<{ itemCount: number }>(fetchFn, 'PUT', `/api/policies/${encodeURIComponent(input.policyId)}/items`, body)
  }
  return result
}

/**
 * Every item granted to one beneficiary, its data key re-wrapped with a new public key: the
 * grants of a key rotation. Rejects (DecryptionError) if any item's key cannot be unwrapped, since
 * the server accepts a rotation only when it re-wraps every grant.
 */
export async function rotationGrants(
  beneficiaryId: string,
  publicKeySpki: string,
  items: readonly VaultItem[],
  master: MasterKey | null,
): Promise<BeneficiaryRotateKeyBody['grants']> {
  const publicKey = await importBeneficiaryPublicKey(publicKeySpki)
  const granted = items.filter((item) => item.beneficiaryIds.includes(beneficiaryId))
  // Without a vault (none set up) there can be nothing to re-wrap; with one, it must be unlocked.
  if (granted.length > 0 && !master) throw new VaultLockedError()
  return Promise.all(
    granted.map(async (item) => ({
      itemId: item.id,
      wrappedKey: await wrapDataKeyForBeneficiary(await unwrapDataKey(item.wrappedKey, master!), publicKey),
    })),
  )
}

export interface RotateKeyResult {
  beneficiary: Beneficiary
  /** Items re-wrapped for the new key. */
  itemCount: number
}

/**
 * Replaces a beneficiary's public key (a lost Access Kit), at any number of items: starts a
 * rotation with the new key (stated by the vault for the next version), re-wraps every item granted
 * to them and sends the grants in pages (ROTATION_PAGE_SIZE), then commits with the vault's
 * signature over every grant it sent, which switches key and grants at once on the server; until
 * then the old key and grants stay in force. A commit refused because an item was granted meanwhile
 * (409) fetches the items again, sends what is new, signs the whole set again and commits once
 * more. Only the public key is sent.
 */
export async function rotateBeneficiaryKey(input: {
  beneficiaryId: string
  /** The key version the owner chose to replace: a rotation made meanwhile elsewhere is not undone. */
  replacesKeyVersion: number
  publicKeySpki: string
  /** The vault's beneficiary statement (contract/vault-statements.ts) for the new key at version replacesKeyVersion + 1. */
  keySignature: string
  statementSequence: number
  /** The vault's signature over grantsStatement(owner, grants): the complete set sent, at the new version. */
  signGrants: (grants: StatedGrant[]) => Promise<string>
  /** Null only for an owner who has no vault yet (and so no items). */
  master: MasterKey | null
  fetch?: FetchLike
}): Promise<RotateKeyResult> {
  const fetchFn = input.fetch ?? defaultFetch
  const base = `/api/beneficiaries/${encodeURIComponent(input.beneficiaryId)}/rotations`
  const start: RotationStartBody = {
    publicKey: input.publicKeySpki,
    keySignature: input.keySignature,
    statementSequence: input.statementSequence,
    replacesKeyVersion: input.replacesKeyVersion,
  }
  const { rotationId } = await sendJson<RotationStarted>(fetchFn, 'POST', base, start)
  const rotation = `${base}/${encodeURIComponent(rotationId)}`
  const keyVersion = input.replacesKeyVersion + 1
  // What was staged, by item (a page sent again replaces its grants there too): what the vault signs.
  const sent = new Map<string, string>()
  for (let attempt = 1; ; attempt++) {
    const items = await sendJson<VaultItem[]>(fetchFn, 'GET', '/api/vault/items')
    const granted = items.filter((item) => item.beneficiaryIds.includes(input.beneficiaryId))
    const unsent = granted.filter((item) => !sent.has(item.id))
    // A page at a time: a few hundred data keys in memory, whatever the vault's size.
    for (let i = 0; i < unsent.length; i += ROTATION_PAGE_SIZE) {
      const page = unsent.slice(i, i + ROTATION_PAGE_SIZE)
      const body: RotationGrantsBody = { grants: await rotationGrants(input.beneficiaryId, input.publicKeySpki, page, input.master) }
      await sendJson<{ received: number }>(fetchFn, 'PUT', `${rotation}/grants`, body)
      body.grants.forEach((g) => sent.set(g.itemId, g.wrappedKey))
    }
    try {
      const staged = [...sent].map(([itemId, wrappedKey]) => ({ itemId, wrappedKey, beneficiaryId: input.beneficiaryId, keyVersion }))
      const commit: RotationCommitBody = { grantsSignature: await input.signGrants(staged) }
      const beneficiary = await sendJson<Beneficiary>(fetchFn, 'POST', `${rotation}/commit`, commit)
      return { beneficiary, itemCount: granted.length }
    } catch (error) {
      const incomplete = error instanceof ApiRequestError && error.status === 409 && error.detail === CIRCLE_MESSAGES.rotationIncomplete
      if (attempt >= 2 || !incomplete) throw error
    }
  }
}
