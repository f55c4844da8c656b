import { settle } from '../owner/outcome'
import { plantItem, type DevPlantedItem } from '../owner/dev-plant'
import { VAULT_KEYS, vaultKeysOf } from '../owner/vault-keys'
import { DomainFacade } from '../owner/host'

/** Local only (the dev routes check): arrangements the browser tests and the bench need. */
export class DevFacade extends DomainFacade {
  /** Local only (the dev route checks): the vault as format 1 made it, with the wraps the browser test computed. */
  async devMakeFormatOne(wrappedSigningKey: string, wraps: Array<{ kind: 'item' | 'policy'; id: string; wrappedKey: string }>) {
    return settle(() => this.h.storage.transactionSync(() => {
      const keys = vaultKeysOf(this.h.storage)
      if (keys?.signing) {
        const { vaultKey: _k, format: _f, movedAt: _m, recovery: _r, ...v1 } = keys
        this.h.storage.kv.put(VAULT_KEYS, { ...v1, signing: { ...keys.signing, wrapped: wrappedSigningKey } })
      }
      for (const w of wraps) this.h.storage.sql.exec(`update ${w.kind === 'item' ? 'vault_items' : 'policies'} set wrapped_key = ? where id = ?`, w.wrappedKey, w.id)
      return { wraps: wraps.length }
    }))
  }

  /**
   * Local only (the dev route checks): the vault as one made before signing keys was, with no
   * signing key and no signed beneficiary key, for the browser test of its first unlock.
   */
  async devMakeLegacy(): Promise<{ beneficiaries: number }> {
    return this.h.storage.transactionSync(() => {
      const keys = vaultKeysOf(this.h.storage)
      if (keys) {
        const { signing: _dropped, ...rest } = keys
        this.h.storage.kv.put(VAULT_KEYS, rest)
      }
      const n = this.h.storage.sql.exec('update beneficiaries set key_signature = null, statement_sequence = null, kit_has_vault_fingerprint = 0').rowsWritten
      return { beneficiaries: n }
    })
  }

  /** Local only (the dev route checks): every item as one stored before manifests, not yet sealed. */
  async devUnsealItems(): Promise<number> {
    const n = this.h.storage.sql.exec('update vault_items set manifest = null, manifest_signature = null, content_digest = null').rowsWritten
    this.h.itemList = null
    return n
  }

  /** Local only (the dev route checks): an item planted as a hostile server could (dev-plant.ts). */
  async devPlantItem(item: DevPlantedItem): Promise<void> {
    await plantItem(this.h.storage, this.h.env.BLOBS, this.h.ownerId, item)
    await this.h.updateDirectory(true)
  }

  /** Local only (the dev route checks): every beneficiary's kit as one printed before kits carried the vault's fingerprint. */
  /** Dev only: every waiting access request's wait ends now; the tick releases them. Answers how many requests went. */
  async devElapseAccessRequests(): Promise<number> {
    const now = Date.now()
    this.h.storage.transactionSync(() => {
      this.h.storage.sql.exec(
        "update releases set release_at = ? where status = 'waiting' and firing_id in (select firing_id from access_requests where status = 'waiting')",
        now,
      )
      this.h.storage.sql.exec("update access_requests set decide_by = ? where status = 'waiting'", now)
    })
    await this.h.runTick(undefined, now)
    return this.h.storage.sql.exec<{ n: number }>("select count(*) as n from access_requests where status = 'released'").one().n
  }

  /** Dev only: every session's proof as if long past (the browser tests of fresh proof); answers how many sessions. */
  async devAgeProof(): Promise<number> {
    return this.h.storage.sql.exec('update sessions set proved_at = 0').rowsWritten
  }

  async devOlderKits(): Promise<{ beneficiaries: number }> {
    return { beneficiaries: this.h.storage.sql.exec('update beneficiaries set kit_has_vault_fingerprint = 0').rowsWritten }
  }

  /**
   * Local only (the dev route checks): `count` active items with no content, each granted directly
   * to every beneficiary, written in SQL in one transaction: a large vault for the bench.
   */
  async devFillItems(count: number): Promise<number> {
    const now = Date.now()
    this.h.storage.transactionSync(() => {
      const people = this.h.storage.sql.exec<{ id: string }>('select id from beneficiaries').toArray()
      for (let i = 0; i < count; i++) {
        const id = crypto.randomUUID()
        this.h.storage.sql.exec(
          `insert into vault_items (id, type, status, plain_size, cipher_size, chunk_bytes, part_count, r2_key, release_protocol, created_at, completed_at)
           values (?, 'doc', 'active', 1, 1, 8388608, 1, ?, 'VERIFIED_DEATH', ?, ?)`,
          id,
          `items/${this.h.ownerId}/${id}`,
          now,
          now,
        )
        for (const p of people) {
          this.h.storage.sql.exec('insert into item_grants (item_id, beneficiary_id, wrapped_key, key_version, direct, created_at) values (?, ?, ?, 1, 1, ?)', id, p.id, 'bench', now)
        }
      }
    })
    await this.h.updateDirectory(true)
    return count
  }
}
