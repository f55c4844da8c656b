import type { QueryClient } from '@tanstack/react-query'
import type { Beneficiary } from '../../../contract/circle'
import type { ItemMetadata, SealItemBody, SealPage, UnsealedItem, VaultItem } from '../../../contract/vault-items'
import { decryptMetadata, importBeneficiaryPublicKey, unwrapDataKey, wrapDataKeyForBeneficiary, type MasterKey } from '@/crypto'
import { assertTrustedKeys } from '@/features/circle/trusted-keys'
import { defaultFetch, sendJson, type FetchLike } from './items/http'
import { vaultItemsKey } from './items/api'
import { manifestText, vaultSigner, type VaultSigner } from './manifest'
import { vaultSession } from './vault-session'

// Items stored before manifests are sealed at the owner's next unlock, in the background, a page
// at a time (GET /api/vault/seal). For each, this browser first proves the item is the owner's: its
// data key unwraps with the master key and its metadata decrypts. Then it wraps the data key again
// for the same beneficiaries (only keys this vault signed), signs the manifest over the item as the
// server holds it, and sends both (POST /api/vault/items/:id/seal), which the server takes in one
// act. An item that cannot be sealed now is left as it is and tried again at the next unlock.

export interface SealOutcome {
  sealed: number
  /** Not the owner's (their keys do not open it), an untrusted or changed grantee, or refused. */
  skipped: number
  /** Its stored content is gone. */
  missing: number
}

export interface SealOptions {
  fetch?: FetchLike
  master?: MasterKey
  signer?: VaultSigner
  /** Whether beneficiaries' keys are ones this vault signed; throws (UntrustedKeyError) if not. */
  assertTrusted?: (beneficiaries: Beneficiary[]) => Promise<void>
}

const sealUrl = (itemId: string) => `/api/vault/items/${encodeURIComponent(itemId)}/seal`

/** Seals every item it can; never throws for one item's sake (a locked vault ends the run). */
export async function sealStoredItems(options: SealOptions = {}): Promise<SealOutcome> {
  const fetchFn = options.fetch ?? defaultFetch
  const master = options.master ?? vaultSession.requireKey()
  const signer = options.signer ?? vaultSigner()
  const assertTrusted = options.assertTrusted ?? assertTrustedKeys
  const outcome: SealOutcome = { sealed: 0, skipped: 0, missing: 0 }
  let people: Map<string, Beneficiary> | null = null
  let after: string | null = null
  do {
    const page: SealPage = await sendJson<SealPage>(fetchFn, 'GET', `/api/vault/seal${after ? `?after=${encodeURIComponent(after)}` : ''}`)
    outcome.missing += page.missing.length
    if (page.items.length > 0 && !people) {
      const list = await sendJson<Beneficiary[]>(fetchFn, 'GET', '/api/beneficiaries')
      people = new Map(list.map((b) => [b.id, b]))
    }
    for (const item of page.items) {
      if (!options.master && !vaultSession.isUnlocked()) return outcome
      const body = await sealBody(item, master, signer, people!, assertTrusted)
      if (!body) {
        outcome.skipped++
        continue
      }
      try {
        await sendJson<VaultItem>(fetchFn, 'POST', sealUrl(item.id), body)
        outcome.sealed++
      } catch {
        outcome.skipped++
      }
    }
    after = page.next
  } while (after)
  return outcome
}

/** The seal of one item, or null when this vault cannot vouch for it now. */
async function sealBody(
  item: UnsealedItem,
  master: MasterKey,
  signer: VaultSigner,
  people: Map<string, Beneficiary>,
  assertTrusted: (beneficiaries: Beneficiary[]) => Promise<void>,
): Promise<SealItemBody | null> {
  try {
    const dek = await unwrapDataKey(item.wrappedKey, master)
    await decryptMetadata<ItemMetadata>(dek, item.id, item.encryptedMetadata)
    const grantees = item.grants.map((g) => people.get(g.beneficiaryId))
    // Someone the list does not have, or whose key changed since the page was read: next time.
    if (grantees.some((b, i) => !b || b.keyVersion !== item.grants[i]!.keyVersion)) return null
    await assertTrusted(grantees as Beneficiary[])
    const grants = await Promise.all(
      (grantees as Beneficiary[]).map(async (b) => ({
        beneficiaryId: b.id,
        keyVersion: b.keyVersion,
        wrappedKey: await wrapDataKeyForBeneficiary(dek, await importBeneficiaryPublicKey(b.publicKey)),
      })),
    )
    const manifest = manifestText({
      ownerId: signer.ownerId,
      itemId: item.id,
      type: item.type,
      plainSize: item.plainSize,
      content: { chunkCount: item.chunkCount, contentDigest: item.contentDigest },
      encryptedMetadata: item.encryptedMetadata,
      grants,
    })
    return { grants, manifestSignature: await signer.signText(manifest) }
  } catch {
    return null
  }
}

let running: Promise<SealOutcome | null> | null = null

/**
 * Starts sealing after an unlock, once at a time, quietly: nothing is shown unless an item was
 * sealed, and then only the item list changes (its "Not yet sealed" marks go).
 */
export function sealInBackground(queryClient: QueryClient): Promise<SealOutcome | null> {
  running ??= sealStoredItems()
    .then(async (outcome) => {
      if (outcome.sealed > 0) await queryClient.invalidateQueries({ queryKey: vaultItemsKey, exact: true })
      return outcome
    })
    .catch(() => null)
    .finally(() => {
      running = null
    })
  return running
}
