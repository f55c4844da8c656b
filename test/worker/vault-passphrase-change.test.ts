import { describe, expect, it } from 'vitest'
import { runInDurableObject } from 'cloudflare:test'
import { meResponseSchema } from '../../contract/auth'
import { FRESH_PROOF_MESSAGES, FRESH_PROOF_MS } from '../../contract/fresh-proof'
import { VAULT_MESSAGES } from '../../contract/vault'
import { TRUST_CHANGES } from '../../worker/mail/trust-templates'
import type { OwnerVault } from '../../worker/host/vault-object'
import { call, me, messageOf, outboxFor, register, waitFor, ownerSessions } from './helpers'
import { ownerRows, ownerState, vaultOf } from './owner-helpers'
import { vaultSetupBody } from './vault-signing'

// A passphrase change re-wraps the vault key only (vault format 2): the salt, the check and the
// wrapped vault key change in one request; every item's and policy's wrap, and the signing key,
// stay as they are, however many there are.

const b64 = (n: number) => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(n))))
const changeBody = () => ({ vaultSalt: b64(32), passphraseCheck: b64(45), wrappedVaultKey: b64(61) })

interface Keys {
  salt: string
  check: string
  vaultKey?: string
  format?: number
  signing?: { publicKey: string; wrapped: string }
  passphraseChangedAt?: number
}

async function ownerWithVault() {
  const owner = await register()
  const setup = await vaultSetupBody(owner.token)
  const res = await call('/api/vault/setup', { token: owner.token, body: setup })
  expect(res.status).toBe(200)
  return { ...owner, setup }
}

function changePassphrase(token: string, body: unknown) {
  return call('/api/vault/passphrase', { token, body })
}

/** `count` active items with a wrap each, as rows (the server never reads a wrap). */
async function seedItems(ownerId: string, count: number): Promise<void> {
  await runInDurableObject(vaultOf(ownerId), async (_i: OwnerVault, state) => {
    state.storage.transactionSync(() => {
      for (let i = 0; i < count; i++) {
        const id = crypto.randomUUID()
        state.storage.sql.exec(
          `insert into vault_items (id, type, status, plain_size, cipher_size, chunk_bytes, part_count, r2_key, wrapped_key, created_at, completed_at)
           values (?, 'doc', 'active', 1, 1, 8388608, 1, ?, ?, 1, 1)`,
          id,
          `items/${ownerId}/${id}`,
          `wrap-${i}`,
        )
      }
    })
  })
}

describe('POST /api/vault/passphrase', () => {
  it('records a vault of format 2 at setup: the wrapped vault key is kept and shown to the owner', async () => {
    const owner = await ownerWithVault()
    const keys = (await ownerState<Keys>(owner.user.id, 'vaultKeys'))!
    expect(keys.format).toBe(2)
    expect(keys.vaultKey).toBe(owner.setup.wrappedVaultKey)
    const user = meResponseSchema.parse(await (await me(owner.token)).json()).user
    expect(user.vaultKey).toBe(owner.setup.wrappedVaultKey)
  })

  it('changes the salt, the check and the vault key’s wrap in one request, leaving 1 000 items’ wraps and the signing key as they were', async () => {
    const owner = await ownerWithVault()
    await seedItems(owner.user.id, 1000)
    const before = await ownerRows<{ id: string; wrapped_key: string }>(owner.user.id, 'select id, wrapped_key from vault_items order by id')
    const body = changeBody()
    const res = await changePassphrase(owner.token, body)
    expect(res.status).toBe(200)
    const answer = (await res.json()) as { message: string; user: { vaultSalt: string; vaultCheck: string; vaultKey: string } }
    expect(answer.message).toBe(VAULT_MESSAGES.passphraseChanged)
    expect([answer.user.vaultSalt, answer.user.vaultCheck, answer.user.vaultKey]).toEqual([body.vaultSalt, body.passphraseCheck, body.wrappedVaultKey])
    const keys = (await ownerState<Keys>(owner.user.id, 'vaultKeys'))!
    expect(keys).toMatchObject({ salt: body.vaultSalt, check: body.passphraseCheck, vaultKey: body.wrappedVaultKey, format: 2 })
    expect(keys.signing).toEqual({ publicKey: owner.setup.signingPublicKey, wrapped: owner.setup.wrappedSigningKey })
    expect(await ownerRows(owner.user.id, 'select id, wrapped_key from vault_items order by id')).toEqual(before)
    const audit = await ownerRows<{ action: string }>(owner.user.id, "select action from audit where action = 'vault.passphrase_changed'")
    expect(audit).toHaveLength(1)
    const told = await waitFor(async () => (await outboxFor(owner.email)).find((m) => m.subject === TRUST_CHANGES.passphrase_changed.subject))
    expect(told.text).toContain('This wasn’t me')
  })

  it('needs fresh proof: a stale session changes nothing', async () => {
    const owner = await ownerWithVault()
    await ownerSessions(owner.user.id, 'update sessions set proved_at = ?', Date.now() - FRESH_PROOF_MS - 1000).run()
    const res = await changePassphrase(owner.token, changeBody())
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ message: FRESH_PROOF_MESSAGES.required, requiresFreshProof: true, methods: ['password'] })
    expect((await ownerState<Keys>(owner.user.id, 'vaultKeys'))!.vaultKey).toBe(owner.setup.wrappedVaultKey)
  })

  it('refuses a vault not set up, and a vault of format 1 (it moves at its next unlock first), with 409 and nothing changed', async () => {
    const bare = await register()
    const none = await changePassphrase(bare.token, changeBody())
    expect(none.status).toBe(409)
    expect(await messageOf(none)).toBe(VAULT_MESSAGES.notSetUp)
    expect(await ownerState(bare.user.id, "vaultKeys")).toBeUndefined()

    const older = await ownerWithVault()
    await runInDurableObject(vaultOf(older.user.id), async (_i: OwnerVault, state) => {
      const { vaultKey: _k, format: _f, ...v1 } = state.storage.kv.get<Keys>('vaultKeys')!
      state.storage.kv.put('vaultKeys', v1)
    })
    const before = await ownerState<Keys>(older.user.id, 'vaultKeys')
    const res = await changePassphrase(older.token, changeBody())
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(VAULT_MESSAGES.moveFirst)
    expect(await ownerState<Keys>(older.user.id, 'vaultKeys')).toEqual(before)
  })

  it('refuses a malformed body with 400 naming the field, nothing changed', async () => {
    const owner = await ownerWithVault()
    const res = await changePassphrase(owner.token, { ...changeBody(), wrappedVaultKey: b64(48) })
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe('wrappedVaultKey: wrappedVaultKey must be a wrapped 256-bit key')
    expect((await ownerState<Keys>(owner.user.id, 'vaultKeys'))!.salt).toBe(owner.setup.vaultSalt)
  })

  it('changes only the signed-in owner’s vault', async () => {
    const first = await ownerWithVault()
    const second = await ownerWithVault()
    expect((await changePassphrase(first.token, changeBody())).status).toBe(200)
    expect((await ownerState<Keys>(second.user.id, 'vaultKeys'))!.vaultKey).toBe(second.setup.wrappedVaultKey)
  })
})
