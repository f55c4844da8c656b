import { describe, expect, it } from 'vitest'
import { runInDurableObject } from 'cloudflare:test'
import { meResponseSchema } from '../../contract/auth'
import { FRESH_PROOF_MESSAGES, FRESH_PROOF_MS } from '../../contract/fresh-proof'
import { VAULT_MESSAGES } from '../../contract/vault'
import { RECOVERY_MESSAGES } from '../../contract/vault-recovery'
import { TRUST_CHANGES } from '../../worker/mail/trust-templates'
import type { OwnerVault } from '../../worker/host/vault-object'
import { call, me, messageOf, outboxFor, register, waitFor, ownerSessions } from './helpers'
import { ownerRows, ownerState, vaultOf } from './owner-helpers'
import { vaultSetupBody } from './vault-signing'

// The owner's recovery code (0.3 · 4 of 7 item 3): the server keeps only its salt and its wrap of
// the vault key. The first comes with setup; a new one (fresh proof, the owner told) replaces it,
// so the old code no longer opens the vault; a passphrase set through the code is recorded and
// told as such, and leaves the code's wrap in force.

const b64 = (n: number) => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(n))))
const recoveryBody = () => ({ recoverySalt: b64(32), wrappedVaultKey: b64(61) })
const changeBody = () => ({ vaultSalt: b64(32), passphraseCheck: b64(45), wrappedVaultKey: b64(61) })

interface Keys {
  salt: string
  vaultKey?: string
  format?: number
  recovery?: { salt: string; wrapped: string; madeAt: number }
}

async function ownerWithVault(withRecovery = true) {
  const owner = await register()
  const recovery = recoveryBody()
  const setup = await vaultSetupBody(owner.token, withRecovery ? { recovery } : {})
  const res = await call('/api/vault/setup', { token: owner.token, body: setup })
  expect(res.status).toBe(200)
  return { ...owner, setup, recovery }
}

const putRecovery = (token: string, body: unknown) => call('/api/vault/recovery', { token, method: 'PUT', body })
const userOf = async (token: string) => meResponseSchema.parse(await (await me(token)).json()).user

describe('the recovery code at vault setup', () => {
  it('keeps the first code’s salt and wrap with the vault and shows them to the owner', async () => {
    const owner = await ownerWithVault()
    const keys = (await ownerState<Keys>(owner.user.id, 'vaultKeys'))!
    expect(keys.recovery).toMatchObject({ salt: owner.recovery.recoverySalt, wrapped: owner.recovery.wrappedVaultKey })
    const user = await userOf(owner.token)
    expect(user.vaultRecovery).toMatchObject({ salt: owner.recovery.recoverySalt, wrappedVaultKey: owner.recovery.wrappedVaultKey })
    expect(Date.parse(user.vaultRecovery!.madeAt)).toBeGreaterThan(Date.now() - 60_000)
  })

  it('a vault set up without one shows none, and a malformed one refuses the whole setup', async () => {
    const owner = await ownerWithVault(false)
    expect((await userOf(owner.token)).vaultRecovery).toBeNull()

    const other = await register()
    const res = await call('/api/vault/setup', { token: other.token, body: await vaultSetupBody(other.token, { recovery: { recoverySalt: b64(16), wrappedVaultKey: b64(61) } }) })
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe('recovery.recoverySalt: recoverySalt must encode 32 bytes')
    expect(await ownerState(other.user.id, 'vaultKeys')).toBeUndefined()
  })
})

describe('PUT /api/vault/recovery', () => {
  it('replaces the code’s wrap (the old code no longer opens the vault), records it and tells the owner', async () => {
    const owner = await ownerWithVault()
    const body = recoveryBody()
    const res = await putRecovery(owner.token, body)
    expect(res.status).toBe(200)
    const answer = (await res.json()) as { message: string; user: { vaultRecovery: { salt: string; wrappedVaultKey: string } } }
    expect(answer.message).toBe(RECOVERY_MESSAGES.made)
    expect(answer.user.vaultRecovery).toMatchObject({ salt: body.recoverySalt, wrappedVaultKey: body.wrappedVaultKey })
    const keys = (await ownerState<Keys>(owner.user.id, 'vaultKeys'))!
    expect(keys.recovery).toMatchObject({ salt: body.recoverySalt, wrapped: body.wrappedVaultKey })
    // Nothing else of the vault's keys moved.
    expect(keys).toMatchObject({ salt: owner.setup.vaultSalt, vaultKey: owner.setup.wrappedVaultKey, format: 2 })
    const audit = await ownerRows<{ action: string; details: string }>(owner.user.id, "select action, details from audit where action = 'vault.recovery_code_made'")
    expect(audit).toHaveLength(1)
    expect(JSON.parse(audit[0]!.details)).toEqual({ replaced: true })
    const told = await waitFor(async () => (await outboxFor(owner.email)).find((m) => m.subject === TRUST_CHANGES.recovery_code_made.subject))
    expect(told.text).toContain('This wasn’t me')
  })

  it('gives a vault made without a code its first one', async () => {
    const owner = await ownerWithVault(false)
    const body = recoveryBody()
    expect((await putRecovery(owner.token, body)).status).toBe(200)
    expect((await userOf(owner.token)).vaultRecovery).toMatchObject({ salt: body.recoverySalt })
  })

  it('needs fresh proof: a stale session (a stolen token) cannot put in a code of its own', async () => {
    const owner = await ownerWithVault()
    await ownerSessions(owner.user.id, 'update sessions set proved_at = ?', Date.now() - FRESH_PROOF_MS - 1000).run()
    const res = await putRecovery(owner.token, recoveryBody())
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ message: FRESH_PROOF_MESSAGES.required, requiresFreshProof: true, methods: ['password'] })
    expect((await ownerState<Keys>(owner.user.id, 'vaultKeys'))!.recovery!.wrapped).toBe(owner.recovery.wrappedVaultKey)
  })

  it('refuses a vault not set up, and one of format 1 (no vault key to wrap yet), with 409 and nothing changed', async () => {
    const bare = await register()
    const none = await putRecovery(bare.token, recoveryBody())
    expect(none.status).toBe(409)
    expect(await messageOf(none)).toBe(VAULT_MESSAGES.notSetUp)

    const older = await ownerWithVault(false)
    await runInDurableObject(vaultOf(older.user.id), async (_i: OwnerVault, state) => {
      const { vaultKey: _k, format: _f, ...v1 } = state.storage.kv.get<Keys>('vaultKeys')!
      state.storage.kv.put('vaultKeys', v1)
    })
    const res = await putRecovery(older.token, recoveryBody())
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(VAULT_MESSAGES.moveFirst)
    expect((await ownerState<Keys>(older.user.id, 'vaultKeys'))!.recovery).toBeUndefined()
  })

  it('refuses a malformed body with 400 naming the field, nothing changed', async () => {
    const owner = await ownerWithVault()
    for (const [body, message] of [
      [{ ...recoveryBody(), wrappedVaultKey: b64(48) }, 'wrappedVaultKey: wrappedVaultKey must be a wrapped 256-bit key'],
      [{ wrappedVaultKey: b64(61) }, 'recoverySalt: recoverySalt is required'],
      [{ ...recoveryBody(), recoverySalt: 'not base64!' }, 'recoverySalt: recoverySalt must be base64'],
    ] as const) {
      const res = await putRecovery(owner.token, body)
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe(message)
    }
    expect((await ownerState<Keys>(owner.user.id, 'vaultKeys'))!.recovery!.wrapped).toBe(owner.recovery.wrappedVaultKey)
  })

  it('changes only the signed-in owner’s vault', async () => {
    const first = await ownerWithVault()
    const second = await ownerWithVault()
    expect((await putRecovery(first.token, recoveryBody())).status).toBe(200)
    expect((await ownerState<Keys>(second.user.id, 'vaultKeys'))!.recovery!.wrapped).toBe(second.recovery.wrappedVaultKey)
  })
})

describe('a passphrase set through the recovery code', () => {
  it('is recorded and told as a recovery, and leaves the code’s wrap in force', async () => {
    const owner = await ownerWithVault()
    const body = { ...changeBody(), via: 'recovery_code' }
    const res = await call('/api/vault/passphrase', { token: owner.token, body })
    expect(res.status).toBe(200)
    const keys = (await ownerState<Keys>(owner.user.id, 'vaultKeys'))!
    expect(keys).toMatchObject({ salt: body.vaultSalt, vaultKey: body.wrappedVaultKey })
    expect(keys.recovery).toMatchObject({ salt: owner.recovery.recoverySalt, wrapped: owner.recovery.wrappedVaultKey })
    const actions = (await ownerRows<{ action: string }>(owner.user.id, "select action from audit where action like 'vault.%'")).map((r) => r.action)
    expect(actions).toContain('vault.recovered')
    expect(actions).not.toContain('vault.passphrase_changed')
    const told = await waitFor(async () => (await outboxFor(owner.email)).find((m) => m.subject === TRUST_CHANGES.vault_recovered.subject))
    expect(told.text).toContain('recovery code')
  })

  it('still needs fresh proof, and refuses an unknown way with 400', async () => {
    const owner = await ownerWithVault()
    const odd = await call('/api/vault/passphrase', { token: owner.token, body: { ...changeBody(), via: 'magic' } })
    expect(odd.status).toBe(400)
    expect(await messageOf(odd)).toBe('via: via must be passphrase or recovery_code')
    await ownerSessions(owner.user.id, 'update sessions set proved_at = ?', Date.now() - FRESH_PROOF_MS - 1000).run()
    const stale = await call('/api/vault/passphrase', { token: owner.token, body: { ...changeBody(), via: 'recovery_code' } })
    expect(stale.status).toBe(403)
    expect((await ownerState<Keys>(owner.user.id, 'vaultKeys'))!.salt).toBe(owner.setup.vaultSalt)
  })
})
