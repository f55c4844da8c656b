import { assertUploadAfterMove } from '../owner/vault-key-move'
import { CHUNK_OVERHEAD_BYTES, SEAL_PAGE_SIZE, VAULT_ITEM_MESSAGES, type SealItemBody, type SealPage, type UploadCompleteBody, type UploadStartBody } from '../../contract/vault-items'
import { contentDigestOf } from '../../contract/vault-statements'
import * as items from './vault-items'
import { checkVaultSignature } from './key-signing'
import { assertVaultFormat } from '../owner/vault-keys'
import { type Account } from '../owner/account'
import { jsonText, settle } from '../owner/outcome'
import { DomainFacade, type OwnerHost } from '../owner/host'

// The item list kept in memory up to this size (about 8 MB of text; some thousands of items).
const ITEM_LIST_CACHE_MAX_CHARS = 4_000_000
// Ciphertext read and hashed for one page of sealing, at most (about the time of a large upload).
const SEAL_HASH_BUDGET_BYTES = 256 * 1024 * 1024

/** Vault items: uploads, the list, grants, sealing, deletion (worker/services/vault-items.ts). */
export class ItemsFacade extends DomainFacade {
  async startUpload(account: Account, body: UploadStartBody) {
    return settle(async () => {
      assertVaultFormat(this.h.storage, body.vaultFormat)
      items.assertUploadRoom(this.h.db, account, body.plainSize)
      const itemId = crypto.randomUUID()
      const r2Key = items.itemBlobKey(this.h.ownerId, itemId)
      const upload = await this.h.env.BLOBS.createMultipartUpload(r2Key, { httpMetadata: { contentType: 'application/octet-stream' } })
      try {
        return await this.h.act(account, (u) => items.reserveUpload(u, body, { itemId, r2Key, uploadId: upload.uploadId }))
      } catch (error) {
        // Another upload took the room meanwhile.
        await upload.abort().catch(() => undefined)
        throw error
      }
    })
  }

  async uploadSession(itemId: string) {
    return settle(() => items.uploadSession(this.h.db, items.findUpload(this.h.db, itemId)))
  }

  async partTarget(itemId: string, partNumber: number) {
    return settle(() => items.partTarget(this.h.db, itemId, partNumber))
  }

  async recordPart(itemId: string, partNumber: number, etag: string, size: number, digest: string) {
    return settle(() => items.recordPart(this.h.db, itemId, partNumber, etag, size, digest))
  }

  /**
   * Completes an upload only with the vault's signature over the manifest the object rebuilds from
   * what it holds (checked before R2 assembles anything: a refused upload can still be retried or
   * aborted), then again, without waiting, in the act that stores it.
   */
  async completeUpload(account: Account, itemId: string, body: UploadCompleteBody) {
    return settle(async () => {
      assertUploadAfterMove(this.h.storage, items.findUpload(this.h.db, itemId).createdAt)
      const { row, parts, manifest } = items.completionPlan(this.h.db, this.h.ownerId, itemId, body)
      await checkVaultSignature(this.h.storage, manifest, body.manifestSignature, 'manifestSignature', VAULT_ITEM_MESSAGES.manifestInvalid)
      let size: number
      try {
        size = (await this.h.env.BLOBS.resumeMultipartUpload(row.r2Key, row.uploadId!).complete(parts)).size
      } catch (error) {
        // A retried or concurrent completion (or an abort) got there first: that request answers.
        items.findUpload(this.h.db, itemId)
        throw error
      }
      const result = await this.h.act(account, (u) => items.activateUpload(u, itemId, body, size, manifest))
      if (!result.ok) throw result.error
      return result.item
    })
  }

  async abortUpload(itemId: string) {
    return settle(async () => {
      const { r2Key, uploadId } = this.h.storage.transactionSync(() => items.discardUpload(this.h.db, itemId))
      if (uploadId) await this.h.env.BLOBS.resumeMultipartUpload(r2Key, uploadId).abort().catch((error: unknown) => console.error(`aborting upload ${itemId} failed`, error))
    })
  }

  /**
   * The item list, as JSON text. Kept in memory while the object's SQLite reports no change at all
   * since it was made (total_changes() counts every row any statement of this connection wrote,
   * rolled back or not, so any write anywhere makes it stale): the app reads the list again on
   * every visit and tab return, and it rarely changed in between.
   */
  async listItems() {
    return settle(() => {
      const changes = this.h.storage.sql.exec<{ n: number }>('select total_changes() as n').one().n
      if (this.h.itemList?.changes === changes) return this.h.itemList.text
      const text = jsonText(items.listItems(this.h.db))
      this.h.itemList = text.length <= ITEM_LIST_CACHE_MAX_CHARS ? { changes, text } : null
      return text
    })
  }

  async estateItems() {
    return settle(() => items.estateItems(this.h.db))
  }

  async itemBlob(itemId: string) {
    return settle(() => items.findActiveItem(this.h.db, itemId).r2Key)
  }

  async putGrants(account: Account, itemId: string, body: { grants: Array<{ beneficiaryId: string; wrappedKey: string; keyVersion?: number | undefined }>; grantsSignature: string }) {
    return settle(async () => {
      const { statement } = items.grantsPlan(this.h.db, this.h.ownerId, itemId, body.grants)
      await checkVaultSignature(this.h.storage, statement, body.grantsSignature, 'grantsSignature', VAULT_ITEM_MESSAGES.grantsSignatureInvalid)
      return this.h.act(account, (u) => items.putGrants(u, itemId, body.grants, statement))
    })
  }

  /**
   * A page of items stored before manifests, for the owner's browser to seal. An item's content
   * digest is computed here from its R2 object the first time (and kept); an item whose object is
   * gone is reported apart. Hashing stops for this page past SEAL_HASH_BUDGET_BYTES.
   */
  async sealPage(after: string | undefined) {
    return settle(async (): Promise<SealPage> => {
      const rows = items.unsealedRows(this.h.db, after)
      const page: SealPage = { items: [], missing: [], next: rows.length === SEAL_PAGE_SIZE ? rows.at(-1)!.id : null }
      let hashed = 0
      for (const [i, row] of rows.entries()) {
        if (!row.contentDigest) {
          // Never at the first row (nothing hashed yet), so every page moves on.
          if (hashed >= SEAL_HASH_BUDGET_BYTES) {
            page.next = rows[i - 1]!.id
            break
          }
          const digest = await storedContentDigest(this.h, row)
          hashed += row.cipherSize
          if (!digest) {
            page.missing.push(row.id)
            continue
          }
          items.recordContentDigest(this.h.db, row.id, digest)
          row.contentDigest = digest
        }
        page.items.push(items.unsealedItem(this.h.db, row))
      }
      return page
    })
  }

  async sealItem(account: Account, itemId: string, body: SealItemBody) {
    return settle(async () => {
      const { manifest } = items.sealPlan(this.h.db, this.h.ownerId, itemId, body)
      await checkVaultSignature(this.h.storage, manifest, body.manifestSignature, 'manifestSignature', VAULT_ITEM_MESSAGES.manifestInvalid)
      return this.h.act(account, (u) => items.sealItem(u, itemId, body, manifest))
    })
  }

  async deleteItem(account: Account, itemId: string) {
    return settle(() => this.h.act(account, (u) => items.deleteItem(u, itemId)))
  }
}

/** The content digest of a stored item from its R2 object; null if the object is gone or not the item's size. */
async function storedContentDigest(h: OwnerHost, row: { r2Key: string; cipherSize: number; chunkBytes: number; partCount: number }): Promise<string | null> {
  const object = await h.env.BLOBS.get(row.r2Key)
  if (!object) return null
  if (object.size !== row.cipherSize) {
    await object.body.cancel()
    return null
  }
  const digests = await items.chunkDigests(object.body, row.chunkBytes + CHUNK_OVERHEAD_BYTES)
  return digests.length === row.partCount ? contentDigestOf(digests) : null
}
