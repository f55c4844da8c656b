import { describe, expect, it } from 'vitest'
import { runInDurableObject } from 'cloudflare:test'
import { FRESH_PROOF_MESSAGES, FRESH_PROOF_MS } from '../../contract/fresh-proof'
import { KEY_MOVE_MESSAGES, type KeyMoveState } from '../../contract/vault-key-move'
import type { OwnerVault } from '../../worker/host/vault-object'
import { sweepKeyMove } from '../../worker/owner/vault-key-move'
import { call, messageOf, register, ownerSessions } from './helpers'
import { ownerRows, ownerState, vaultOf } from './owner-helpers'
import { vaultSetupBody } from './vault-signing'
import { VAULT_ITEM_MESSAGES } from '../../contract/vault-items'
import { VAULT_MESSAGES } from '../../contract/vault'
import { policyBody } from './engine-helpers'
import { completeBody, completeRaw, ownerWithBeneficiary, putAllParts, startUpload, startUploadRaw, uploadItem } from './vault-helpers'

// The move of a vault of format 1 (0.2: the passphrase's key wraps every data key) to a vault
// key: pages of re-wrapped keys staged, one commit that swaps them all, the old wraps in force
// until then. Wraps are opaque to the server, so they are random bytes of the right size here
// (the browser side is test/web/key-move.test.ts).

const b64 = (n: number) => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(n))))
const wrap = () => b64(61)

interface Keys {
  salt: string
  check: string
  vaultKey?: string
  format?: number
  signing?: { publicKey: string; wrapped: string }
}

/** An owner whose vault is as 0.2 made it: format 1, `items` active items and one policy, each with its old wrap. */
async function formatOneVault(items: number) {
  const owner = await register()
  const setup = await vaultSetupBody(owner.token)
  expect((await call('/api/vault/setup', { token: owner.token, body: setup })).status).toBe(200)
  await runInDurableObject(vaultOf(owner.user.id), async (_i: OwnerVault, state) => {
    state.storage.transactionSync(() => {
      const { vaultKey: _k, format: _f, ...v1 } = state.storage.kv.get<Keys>('vaultKeys')!
      state.storage.kv.put('vaultKeys', v1)
      for (let i = 0; i < items; i++) {
        const id = crypto.randomUUID()
        state.storage.sql.exec(
          `insert into vault_items (id, type, status, plain_size, cipher_size, chunk_bytes, part_count, r2_key, wrapped_key, created_at, completed_at)
           values (?, 'doc', 'active', 1, 1, 8388608, 1, ?, ?, 1, 1)`,
          id,
          `items/${owner.user.id}/${id}`,
          `old-${i}`,
        )
      }
      state.storage.sql.exec(
        `insert into policies (id, name, description, status, release_on, delay_hours, requires_approver, requires_identity_verification,
           identity_verification_approvers, required_document_types, minimum_approvals, encrypted_selectors, wrapped_key, created_at, updated_at)
         values (?, 'P', '', 'active', '[]', 0, 0, 0, '[]', '[]', 0, 'sel', 'old-policy', 1, 1)`,
        crypto.randomUUID(),
      )
    })
  })
  return { ...owner, setup }
}

/** A vault set up in format 2 read as one of format 1 (its vault key dropped). */
async function toFormatOne(ownerId: string) {
  await runInDurableObject(vaultOf(ownerId), async (_i: OwnerVault, state) => {
    const { vaultKey: _k, format: _f, ...v1 } = state.storage.kv.get<Keys>('vaultKeys')!
    state.storage.kv.put('vaultKeys', v1)
  })
}

const startBody = () => ({ wrappedVaultKey: wrap(), wrappedSigningKey: b64(150) })

async function start(token: string, body = startBody()): Promise<KeyMoveState> {
  const res = await call('/api/vault/key-move', { token, body })
  expect(res.status).toBe(200)
  return (await res.json()) as KeyMoveState
}

async function stage(token: string, wraps: Array<{ kind: string; id: string; wrappedKey: string }>): Promise<KeyMoveState> {
  const res = await call('/api/vault/key-move/pages', { method: 'PUT', token, body: { wraps } })
  if (res.status !== 200) throw new Error(`${res.status}: ${await res.text()}`)
  return (await res.json()) as KeyMoveState
}

const commit = (token: string) => call('/api/vault/key-move/commit', { method: 'POST', token })
const rewrap = (missing: KeyMoveState['missing'], into: Map<string, string>) =>
  missing.map((m) => {
    const wrappedKey = wrap()
    into.set(m.id, wrappedKey)
    return { kind: m.kind, id: m.id, wrappedKey }
  })

const wrapsOf = async (ownerId: string) =>
  new Map(
    (await ownerRows<{ id: string; wrapped_key: string }>(ownerId, "select id, wrapped_key from vault_items where status = 'active' union all select id, wrapped_key from policies")).map((r) => [
      r.id,
      r.wrapped_key,
    ]),
  )

describe('a vault of format 1', () => {
  it('is set up already: a second setup is refused (409) and its keys are kept', async () => {
    const owner = await formatOneVault(0)
    const before = await ownerState<Keys>(owner.user.id, 'vaultKeys')
    const again = await call('/api/vault/setup', { token: owner.token, body: await vaultSetupBody(owner.token) })
    expect(again.status).toBe(409)
    expect(await messageOf(again)).toBe(VAULT_MESSAGES.alreadySetUp)
    expect(await ownerState<Keys>(owner.user.id, 'vaultKeys')).toEqual(before)
  })
})

describe('the move of a vault of format 1 to a vault key', () => {
  it('moves 1 000 items and a policy in pages, interrupted and resumed with the same vault key, committed in one transaction', async () => {
    const owner = await formatOneVault(1000)
    const before = await wrapsOf(owner.user.id)
    const first = startBody()
    let state = await start(owner.token, first)
    expect(state.wrappedVaultKey).toBe(first.wrappedVaultKey)
    expect(state.remaining).toBe(1001)
    expect(state.missing).toHaveLength(500)
    // The browser gets each key's current wrap to unwrap with the passphrase's key.
    for (const m of state.missing) expect(m.wrappedKey).toBe(before.get(m.id))

    const staged = new Map<string, string>()
    state = await stage(owner.token, rewrap(state.missing, staged))
    expect(state.remaining).toBe(501)

    // Interrupted here (the tab closed). The next unlock starts again with a new vault key: the
    // move under way is answered instead, so no wrap is ever made under a second vault key.
    state = await start(owner.token)
    expect(state.wrappedVaultKey).toBe(first.wrappedVaultKey)
    expect(state.wrappedSigningKey).toBe(first.wrappedSigningKey)
    expect(state.remaining).toBe(501)
    expect(state.missing.every((m) => !staged.has(m.id))).toBe(true)

    // Committing now is refused, and every old wrap is still in force.
    const early = await commit(owner.token)
    expect(early.status).toBe(409)
    expect(await messageOf(early)).toBe(KEY_MOVE_MESSAGES.incomplete)
    expect(await wrapsOf(owner.user.id)).toEqual(before)
    expect((await ownerState<Keys>(owner.user.id, 'vaultKeys'))!.vaultKey).toBeUndefined()

    state = await stage(owner.token, rewrap(state.missing, staged))
    state = await stage(owner.token, rewrap(state.missing, staged))
    expect(state).toMatchObject({ remaining: 0, missing: [] })

    const done = await commit(owner.token)
    expect(done.status).toBe(200)
    expect(((await done.json()) as { user: { vaultKey: string } }).user.vaultKey).toBe(first.wrappedVaultKey)
    expect(await wrapsOf(owner.user.id)).toEqual(staged)
    const keys = (await ownerState<Keys>(owner.user.id, 'vaultKeys'))!
    expect(keys).toMatchObject({ vaultKey: first.wrappedVaultKey, format: 2, salt: owner.setup.vaultSalt, check: owner.setup.passphraseCheck })
    expect(keys.signing).toEqual({ publicKey: owner.setup.signingPublicKey, wrapped: first.wrappedSigningKey })
    expect(await ownerRows(owner.user.id, 'select * from vault_key_staging')).toEqual([])
    expect(await ownerState(owner.user.id, 'vaultKeyMove')).toBeUndefined()
    expect(await ownerRows(owner.user.id, "select details from audit where action = 'vault.key_moved'")).toEqual([{ details: JSON.stringify({ items: 1000, policies: 1 }) }])

    // Moved once: a second start is refused, and the passphrase can now change.
    const again = await call('/api/vault/key-move', { token: owner.token, body: startBody() })
    expect(again.status).toBe(409)
    expect(await messageOf(again)).toBe(KEY_MOVE_MESSAGES.alreadyMoved)
  })

  it('refuses the commit while an item uploaded during the move lacks its wrap; staged, it commits', async () => {
    const owner = await formatOneVault(3)
    const staged = new Map<string, string>()
    let state = await start(owner.token)
    await stage(owner.token, rewrap(state.missing, staged))
    const late = crypto.randomUUID()
    await ownerRows(
      owner.user.id,
      `insert into vault_items (id, type, status, plain_size, cipher_size, chunk_bytes, part_count, r2_key, wrapped_key, created_at, completed_at)
       values (?, 'doc', 'active', 1, 1, 8388608, 1, 'k', 'old-late', 2, 2)`,
      late,
    )
    expect((await commit(owner.token)).status).toBe(409)
    state = await start(owner.token)
    expect(state.missing.map((m) => m.id)).toEqual([late])
    await stage(owner.token, rewrap(state.missing, staged))
    expect((await commit(owner.token)).status).toBe(200)
    expect(await wrapsOf(owner.user.id)).toEqual(staged)
  })

  it('refuses to complete an upload reserved before the move committed (its key was wrapped by the old key)', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    await toFormatOne(ownerId)
    const owner = { token }
    const session = await startUpload(owner.token, 100)
    await putAllParts(owner.token, session, 100)
    expect((await start(owner.token)).remaining).toBe(0)
    expect((await commit(owner.token)).status).toBe(200)
    const res = await completeRaw(owner.token, session.itemId, completeBody([beneficiary.id]))
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(KEY_MOVE_MESSAGES.uploadedDuringMove)
    // One reserved after the commit completes.
    await uploadItem(owner.token, [beneficiary.id])
  })

  it('refuses an upload or a policy from a browser still holding the key of before the move (unlocked on another device), and takes one that says the new format', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    await toFormatOne(ownerId)
    expect((await startUploadRaw(token, { type: 'doc', plainSize: 10, vaultFormat: 1 })).status).toBe(201)
    expect((await start(token)).remaining).toBe(0)
    expect((await commit(token)).status).toBe(200)
    const stale = await startUploadRaw(token, { type: 'doc', plainSize: 10, vaultFormat: 1 })
    expect(stale.status).toBe(409)
    expect(await messageOf(stale)).toBe(VAULT_ITEM_MESSAGES.vaultMovedElsewhere)
    expect((await startUploadRaw(token, { type: 'doc', plainSize: 10, vaultFormat: 2 })).status).toBe(201)
    // A policy's key, wrapped the same way, likewise.
    const stalePolicy = await call('/api/policies', { token, body: policyBody(beneficiary.id, { vaultFormat: 1 }) })
    expect(stalePolicy.status).toBe(409)
    expect(await messageOf(stalePolicy)).toBe(VAULT_ITEM_MESSAGES.vaultMovedElsewhere)
    expect((await call('/api/policies', { token, body: policyBody(beneficiary.id, { vaultFormat: 2 }) })).status).toBe(201)
  })

  it('stages nothing of another owner’s vault, and another owner without a move gets 404', async () => {
    const a = await formatOneVault(2)
    const b = await formatOneVault(1)
    const aState = await start(a.token)
    // b has no move under way.
    const none = await call('/api/vault/key-move/pages', { method: 'PUT', token: b.token, body: { wraps: [{ kind: 'item', id: aState.missing[0]!.id, wrappedKey: wrap() }] } })
    expect(none.status).toBe(404)
    expect(await messageOf(none)).toBe(KEY_MOVE_MESSAGES.noMove)
    const noCommit = await commit(b.token)
    expect(noCommit.status).toBe(404)
    // With one, a's ids are not b's: skipped, b's own item still missing, a's move untouched.
    await start(b.token)
    const bState = await stage(b.token, aState.missing.map((m) => ({ kind: m.kind, id: m.id, wrappedKey: wrap() })))
    expect(bState.remaining).toBe(2)
    expect(await ownerRows(b.user.id, 'select * from vault_key_staging')).toEqual([])
    expect(await ownerRows(a.user.id, 'select * from vault_key_staging')).toEqual([])
  })

  it('commits only with fresh proof; a stale session changes nothing', async () => {
    const owner = await formatOneVault(1)
    const state = await start(owner.token)
    await stage(owner.token, rewrap(state.missing, new Map()))
    const before = await wrapsOf(owner.user.id)
    await ownerSessions(owner.user.id, 'update sessions set proved_at = ?', Date.now() - FRESH_PROOF_MS - 1000).run()
    const res = await commit(owner.token)
    expect(res.status).toBe(403)
    expect(await messageOf(res)).toBe(FRESH_PROOF_MESSAGES.required)
    expect(await wrapsOf(owner.user.id)).toEqual(before)
  })

  it('validates pages: at most 500 wraps, each of a wrapped key’s size', async () => {
    const owner = await formatOneVault(1)
    await start(owner.token)
    const many = Array.from({ length: 501 }, () => ({ kind: 'item', id: 'x', wrappedKey: wrap() }))
    const tooMany = await call('/api/vault/key-move/pages', { method: 'PUT', token: owner.token, body: { wraps: many } })
    expect(tooMany.status).toBe(400)
    expect(await messageOf(tooMany)).toBe('wraps: wraps may hold at most 500 keys')
    const bad = await call('/api/vault/key-move/pages', { method: 'PUT', token: owner.token, body: { wraps: [{ kind: 'item', id: 'x', wrappedKey: b64(30) }] } })
    expect(bad.status).toBe(400)
  })

  it('a move left for a day is swept with its staged wraps, and starts afresh', async () => {
    const owner = await formatOneVault(2)
    const first = startBody()
    const state = await start(owner.token, first)
    await stage(owner.token, rewrap(state.missing.slice(0, 1), new Map()))
    const swept = await runInDurableObject(vaultOf(owner.user.id), async (_i: OwnerVault, s) => [
      sweepKeyMove(s.storage, Date.now() + 24 * 3_600_000 - 60_000),
      sweepKeyMove(s.storage, Date.now() + 24 * 3_600_000 + 1000),
    ])
    expect(swept).toEqual([false, true])
    expect(await ownerRows(owner.user.id, 'select * from vault_key_staging')).toEqual([])
    const fresh = startBody()
    const next = await start(owner.token, fresh)
    expect(next.wrappedVaultKey).toBe(fresh.wrappedVaultKey)
    expect(next.remaining).toBe(3)
  })
})
