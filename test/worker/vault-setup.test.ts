import { describe, expect, it } from 'vitest'
import { meResponseSchema, publicUserSchema } from '../../contract/auth'
import { AUTH_ERRORS, GENERIC_ERRORS } from '../../contract/messages'
import { VAULT_MESSAGES } from '../../contract/vault'
import { toBase64 } from '../../worker/lib/crypto'
import { call, me, messageOf, register } from './helpers'
import { ownerState } from './owner-helpers'
import { signingKeyPair, WRAPPED_SIGNING_KEY_STANDIN } from './vault-signing'

const SIGNING_PUBLIC_KEY = (await signingKeyPair()).publicKey

function randomBase64(bytes: number): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(bytes)))
}

/** A body as the setup modal sends it: a 32-byte salt, a small AES-GCM check value and the signing key. */
function setupBody(overrides: Record<string, unknown> = {}) {
  return { vaultSalt: randomBase64(32), passphraseCheck: randomBase64(44), wrappedVaultKey: randomBase64(61), signingPublicKey: SIGNING_PUBLIC_KEY, wrappedSigningKey: WRAPPED_SIGNING_KEY_STANDIN, ...overrides }
}

function setUp(token: string | undefined, body: unknown) {
  return call('/api/vault/setup', { token, body })
}

/** What the owner's object keeps of the vault's setup: its salt and check, or nothing. */
async function storedVault(userId: string) {
  const keys = await ownerState<{ salt: string; check: string }>(userId, 'vaultKeys')
  return keys ? { salt: keys.salt, check: keys.check } : null
}

async function currentUser(token: string) {
  const res = await me(token)
  expect(res.status).toBe(200)
  return meResponseSchema.parse(await res.json()).user
}

describe('POST /api/vault/setup', () => {
  it('answers 401 without a session, and 401 with a signed-out one', async () => {
    const res = await setUp(undefined, setupBody())
    expect(res.status).toBe(401)
    expect(await messageOf(res)).toBe(AUTH_ERRORS.notSignedIn)

    const account = await register()
    expect((await call('/api/auth/logout', { token: account.token, method: 'POST' })).status).toBe(200)
    const afterLogout = await setUp(account.token, setupBody())
    expect(afterLogout.status).toBe(401)
    expect(await messageOf(afterLogout)).toBe(AUTH_ERRORS.sessionExpired)
    expect(await storedVault(account.user.id)).toBeNull()
  })

  it('starts with no vault', async () => {
    const account = await register()
    expect(account.user.vaultSetup).toBe(false)
    const user = await currentUser(account.token)
    expect(user.vaultSetup).toBe(false)
    expect(user.vaultSalt).toBeNull()
    expect(user.vaultCheck).toBeNull()
  })

  it('records the salt and the check, and /me then shows them', async () => {
    const account = await register()
    const body = setupBody()
    const res = await setUp(account.token, body)
    expect(res.status).toBe(200)
    const answer = (await res.json()) as { message: string; user: unknown }
    expect(Object.keys(answer).sort()).toEqual(['message', 'user'])
    expect(answer.message).toBe('Vault set up.')
    const user = publicUserSchema.parse(answer.user)
    expect(user.id).toBe(account.user.id)
    expect(user.vaultSetup).toBe(true)
    expect(user.vaultSalt).toBe(body.vaultSalt)
    expect(user.vaultCheck).toBe(body.passphraseCheck)

    const fromMe = await currentUser(account.token)
    expect(fromMe.vaultSetup).toBe(true)
    expect(fromMe.vaultSalt).toBe(body.vaultSalt)
    expect(fromMe.vaultCheck).toBe(body.passphraseCheck)
    expect(await storedVault(account.user.id)).toEqual({ salt: body.vaultSalt, check: body.passphraseCheck })
  })

  it('accepts a salt without its padding', async () => {
    const account = await register()
    const body = setupBody({ vaultSalt: randomBase64(32).replace(/=+$/, '') })
    const res = await setUp(account.token, body)
    expect(res.status).toBe(200)
    expect((await currentUser(account.token)).vaultSalt).toBe(body.vaultSalt)
  })

  it('affects only the signed-in owner', async () => {
    const first = await register()
    const second = await register()
    expect((await setUp(first.token, setupBody())).status).toBe(200)
    expect((await currentUser(second.token)).vaultSetup).toBe(false)
    expect(await storedVault(second.user.id)).toBeNull()
  })

  it('refuses a second setup with 409 and keeps the first salt and check', async () => {
    const account = await register()
    const first = setupBody()
    expect((await setUp(account.token, first)).status).toBe(200)

    const again = await setUp(account.token, setupBody())
    expect(again.status).toBe(409)
    expect(await messageOf(again)).toBe(VAULT_MESSAGES.alreadySetUp)

    // Even the very same body is refused: setup happens once.
    const same = await setUp(account.token, first)
    expect(same.status).toBe(409)
    expect(await messageOf(same)).toBe(VAULT_MESSAGES.alreadySetUp)

    const user = await currentUser(account.token)
    expect(user.vaultSalt).toBe(first.vaultSalt)
    expect(user.vaultCheck).toBe(first.passphraseCheck)
    expect(await storedVault(account.user.id)).toEqual({ salt: first.vaultSalt, check: first.passphraseCheck })
  })

  it('lets exactly one of two concurrent setups win, and stores the winner', async () => {
    const account = await register()
    const bodies = [setupBody(), setupBody()]
    const responses = await Promise.all(bodies.map((body) => setUp(account.token, body)))
    const statuses = responses.map((r) => r.status)
    expect([...statuses].sort()).toEqual([200, 409])
    const winner = bodies[statuses.indexOf(200)]!
    expect(await messageOf(responses[statuses.indexOf(409)]!)).toBe(VAULT_MESSAGES.alreadySetUp)
    const user = await currentUser(account.token)
    expect(user.vaultSalt).toBe(winner.vaultSalt)
    expect(user.vaultCheck).toBe(winner.passphraseCheck)
  })

  describe('validation (400 naming the field, nothing stored)', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['a missing vaultSalt', { vaultSalt: undefined }, 'vaultSalt: vaultSalt is required'],
      ['a vaultSalt that is not a string', { vaultSalt: 42 }, 'vaultSalt: vaultSalt is required'],
      ['an empty vaultSalt', { vaultSalt: '' }, 'vaultSalt: vaultSalt must be base64'],
      ['a vaultSalt that is not base64', { vaultSalt: 'not base64 at all, but 44 characters long!!' }, 'vaultSalt: vaultSalt must be base64'],
      ['a base64url vaultSalt', { vaultSalt: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA-_' }, 'vaultSalt: vaultSalt must be base64'],
      ['a 31-byte vaultSalt', { vaultSalt: randomBase64(31) }, 'vaultSalt: vaultSalt must encode 32 bytes'],
      ['a 33-byte vaultSalt', { vaultSalt: randomBase64(33) }, 'vaultSalt: vaultSalt must encode 32 bytes'],
      ['a 16-byte vaultSalt', { vaultSalt: randomBase64(16) }, 'vaultSalt: vaultSalt must encode 32 bytes'],
      ['a missing passphraseCheck', { passphraseCheck: undefined }, 'passphraseCheck: passphraseCheck is required'],
      ['a passphraseCheck that is not base64', { passphraseCheck: '%%%% definitely not base64 %%%%' }, 'passphraseCheck: passphraseCheck must be base64'],
      ['a passphraseCheck that is too short', { passphraseCheck: randomBase64(8) }, 'passphraseCheck: passphraseCheck is too short'],
      ['a passphraseCheck that is too long', { passphraseCheck: randomBase64(600) }, 'passphraseCheck: passphraseCheck is too long'],
      ['a missing wrappedVaultKey', { wrappedVaultKey: undefined }, 'wrappedVaultKey: wrappedVaultKey is required'],
      ['a wrappedVaultKey of another size', { wrappedVaultKey: randomBase64(60) }, 'wrappedVaultKey: wrappedVaultKey must be a wrapped 256-bit key'],
    ]
    for (const [name, overrides, message] of cases) {
      it(`refuses ${name}`, async () => {
        const account = await register()
        const body = JSON.parse(JSON.stringify(setupBody(overrides))) as Record<string, unknown>
        const res = await setUp(account.token, body)
        expect(res.status).toBe(400)
        const answer = (await res.json()) as { message: string; errors: Array<{ field: string; message: string }> }
        expect(answer.message).toBe(message)
        expect(answer.errors[0]).toEqual({ field: message.split(':')[0], message: message.slice(message.indexOf(': ') + 2) })
        expect((await currentUser(account.token)).vaultSetup).toBe(false)
        expect(await storedVault(account.user.id)).toBeNull()
      })
    }

    it('refuses an empty body, naming vaultSalt first', async () => {
      const account = await register()
      const res = await setUp(account.token, {})
      expect(res.status).toBe(400)
      const answer = (await res.json()) as { message: string; errors: Array<{ field: string }> }
      expect(answer.message).toBe('vaultSalt: vaultSalt is required')
      expect(answer.errors.map((e) => e.field)).toEqual(['vaultSalt', 'passphraseCheck', 'wrappedVaultKey', 'signingPublicKey', 'wrappedSigningKey'])
    })

    it('refuses a body that is not JSON', async () => {
      const account = await register()
      const res = await call('/api/vault/setup', { token: account.token, rawBody: '{"vaultSalt":' })
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe(GENERIC_ERRORS.invalidJson)
      expect((await currentUser(account.token)).vaultSetup).toBe(false)
    })
  })
})
