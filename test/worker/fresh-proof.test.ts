import { describe, expect, it } from 'vitest'
import { FRESH_PROOF_MESSAGES, FRESH_PROOF_MS } from '../../contract/fresh-proof'
import { CHECKIN_GRACE_DAYS, SIGN_IN_GUARD } from '../../contract/constants'
import { WEBAUTHN_PATHS } from '../../contract/webauthn'
import { createTrigger, firingCount, manualRelease, ownerWithItem } from './engine-helpers'
import { runInDurableObject } from 'cloudflare:test'
import { TRUST_CHANGES } from '../../worker/mail/trust-templates'
import type { OwnerVault } from '../../worker/host/vault-object'
import { call, env, login, me, outboxFor, register, waitFor, ownerSessions } from './helpers'
import { ownerState, vaultOf } from './owner-helpers'
import { signingKeyPair, vaultSetupBody, WRAPPED_SIGNING_KEY_STANDIN } from './vault-signing'
import { SoftAuthenticator } from './soft-authenticator'
import { ownerWithBeneficiary } from './vault-helpers'

// A stolen session token is not the owner: every act that changes who can get in, who receives
// what or when, or that cannot be undone, is replayed here with a token whose holder has not proved
// who they are for more than 5 minutes (a token lifted from a shared computer): refused with 403
// `requiresFreshProof`, nothing changed; then the same act succeeds once the password or one of the
// owner's security keys is given.

/** Every session of the owner last proved more than FRESH_PROOF_MS ago: what a stolen token carries. */
async function staleProof(userId: string): Promise<void> {
  await ownerSessions(userId, 'update sessions set proved_at = ?', Date.now() - FRESH_PROOF_MS - 1000).run()
}

async function ok(res: Response, status = 200): Promise<void> {
  if (res.status !== status) throw new Error(`${res.status}: ${await res.text()}`)
}

async function expectProofRequired(res: Response, methods: string[] = ['password']): Promise<void> {
  expect(res.status).toBe(403)
  expect(await res.json()).toEqual({ message: FRESH_PROOF_MESSAGES.required, requiresFreshProof: true, methods })
}

function proveWithPassword(token: string, password: string) {
  return call('/api/auth/fresh-proof', { token, body: { method: 'password', password } })
}

async function keyCount(userId: string): Promise<number> {
  return (await env.DB.prepare('select count(*) as n from webauthn_credentials where user_id = ?').bind(userId).first<{ n: number }>())!.n
}

async function addKey(token: string, auth: SoftAuthenticator) {
  const options = await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST', token })
  if (options.status !== 200) return options
  return call(WEBAUTHN_PATHS.registerVerify, { token, body: { response: await auth.register(await options.json()), name: 'A key' } })
}

describe('fresh proof', () => {
  it('a stale session cannot add a security key (the lasting way back in); the password given again lets it', async () => {
    const owner = await register()
    await staleProof(owner.user.id)
    await expectProofRequired(await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST', token: owner.token }))
    // Options obtained while fresh do not help once the proof is stale: the verify step checks again.
    await proveWithPassword(owner.token, owner.password)
    const options = await (await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST', token: owner.token })).json()
    await staleProof(owner.user.id)
    const auth = await SoftAuthenticator.create()
    await expectProofRequired(await call(WEBAUTHN_PATHS.registerVerify, { token: owner.token, body: { response: await auth.register(options as never) } }))
    expect(await keyCount(owner.user.id)).toBe(0)

    const proved = await proveWithPassword(owner.token, owner.password)
    expect(proved.status).toBe(200)
    expect(await proved.json()).toMatchObject({ message: FRESH_PROOF_MESSAGES.proved, provedUntil: expect.any(String) })
    expect((await addKey(owner.token, auth)).status).toBe(201)
    expect(await keyCount(owner.user.id)).toBe(1)
  })

  it('a wrong password is refused and counted like a failed sign-in, so a stolen session cannot guess at it', async () => {
    const owner = await register()
    await staleProof(owner.user.id)
    const wrong = await proveWithPassword(owner.token, 'not my password')
    expect(wrong.status).toBe(401)
    expect(((await wrong.json()) as { message: string }).message).toBe(FRESH_PROOF_MESSAGES.passwordWrong)
    const failures = await env.DB.prepare('select failures from sign_in_failures where email = ?').bind(owner.email.toLowerCase()).first<{ failures: number }>()
    expect(failures?.failures).toBe(1)
    let last = wrong
    for (let i = 0; i < 6 && last.status !== 429; i++) last = await proveWithPassword(owner.token, `guess ${i}`)
    expect(last.status).toBe(429)
    // Held: even the right password waits now, and the session is still not proved.
    expect((await proveWithPassword(owner.token, owner.password)).status).toBe(429)
    await expectProofRequired(await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST', token: owner.token }))
  })

  it('the right password given as fresh proof forgets the wrong ones before it, as a sign-in does', async () => {
    const owner = await register()
    const failures = async () => (await env.DB.prepare('select failures from sign_in_failures where email = ?').bind(owner.email.toLowerCase()).first<{ failures: number }>())?.failures ?? 0
    for (let i = 0; i < SIGN_IN_GUARD.freeFailures - 1; i++) expect((await proveWithPassword(owner.token, `guess ${i}`)).status).toBe(401)
    expect(await failures()).toBe(SIGN_IN_GUARD.freeFailures - 1)
    expect((await proveWithPassword(owner.token, owner.password)).status).toBe(200)
    expect(await failures()).toBe(0)
    // So a slip or two later does not hold the account.
    expect((await proveWithPassword(owner.token, 'one more slip')).status).toBe(401)
    expect((await login(owner.email, owner.password)).status).toBe(200)
  })

  it('proof belongs to the session that gave it, and lasts 5 minutes', async () => {
    const owner = await register()
    const other = await login(owner.email, owner.password)
    const { token: second } = (await other.json()) as { token: string }
    await staleProof(owner.user.id)
    expect((await proveWithPassword(owner.token, owner.password)).status).toBe(200)
    await ok(await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST', token: owner.token }), 200)
    await expectProofRequired(await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST', token: second }))
    // Inside the window it holds; a moment past it, it does not.
    const provedAgo = (ms: number) => ownerSessions(owner.user.id, 'update sessions set proved_at = ?', Date.now() - ms).run()
    await provedAgo(FRESH_PROOF_MS - 30_000)
    expect((await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST', token: owner.token })).status).toBe(200)
    await provedAgo(FRESH_PROOF_MS + 1000)
    await expectProofRequired(await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST', token: owner.token }))
    // A sign-in is proof: a new session may act at once.
    const fresh = (await (await login(owner.email, owner.password)).json()) as { token: string }
    await ok(await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST', token: fresh.token }), 200)
  })

  it('lasts 5 minutes by the clock, whatever the constant says: a proof 6 minutes old is stale', async () => {
    const owner = await register()
    await ownerSessions(owner.user.id, 'update sessions set proved_at = ?', Date.now() - 6 * 60_000).run()
    await expectProofRequired(await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST', token: owner.token }))
  })

  it('a security key of the account proves it; another account’s key does not', async () => {
    const owner = await register()
    const auth = await SoftAuthenticator.create()
    expect((await addKey(owner.token, auth)).status).toBe(201)
    const stranger = await register()
    const strangerAuth = await SoftAuthenticator.create()
    expect((await addKey(stranger.token, strangerAuth)).status).toBe(201)
    await staleProof(owner.user.id)

    const keyId = ((await env.DB.prepare('select id from webauthn_credentials where user_id = ?').bind(owner.user.id).first<{ id: string }>())!).id
    await expectProofRequired(await call(`/api/auth/security-keys/${encodeURIComponent(keyId)}`, { method: 'DELETE', token: owner.token }), ['password', 'security_key'])
    expect(await keyCount(owner.user.id)).toBe(1)

    const foreign = await call('/api/auth/fresh-proof/options', { method: 'POST', token: owner.token })
    const refused = await call('/api/auth/fresh-proof', { token: owner.token, body: { method: 'security_key', response: await strangerAuth.assert(await foreign.json()) } })
    expect(refused.status).toBe(401)
    await expectProofRequired(await call(`/api/auth/security-keys/${encodeURIComponent(keyId)}`, { method: 'DELETE', token: owner.token }), ['password', 'security_key'])

    const options = await call('/api/auth/fresh-proof/options', { method: 'POST', token: owner.token })
    expect(options.status).toBe(200)
    const proved = await call('/api/auth/fresh-proof', { token: owner.token, body: { method: 'security_key', response: await auth.assert(await options.json()) } })
    expect(proved.status).toBe(200)
    await ok(await call(`/api/auth/security-keys/${encodeURIComponent(keyId)}`, { method: 'DELETE', token: owner.token }), 200)
    expect(await keyCount(owner.user.id)).toBe(0)
    // Without a key, the key's way is refused with a reason.
    await ok(await call('/api/auth/fresh-proof/options', { method: 'POST', token: owner.token }), 409)
  })

  it("a security key's fresh proof is a use of a trusted device only once the key is marked trusted", async () => {
    const owner = await register()
    const auth = await SoftAuthenticator.create()
    expect((await addKey(owner.token, auth)).status).toBe(201)
    const prove = async () => {
      const options = await call('/api/auth/fresh-proof/options', { method: 'POST', token: owner.token })
      const res = await call('/api/auth/fresh-proof', { token: owner.token, body: { method: 'security_key', response: await auth.assert(await options.json()) } })
      expect(res.status).toBe(200)
    }
    await prove()
    // Not trusted: its use moves no Loss of trusted devices clock.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await ownerState(owner.user.id, 'lastTrustedUseAt')).toBeUndefined()
    const keyId = ((await env.DB.prepare('select id from webauthn_credentials where user_id = ?').bind(owner.user.id).first<{ id: string }>())!).id
    expect((await call(`/api/auth/security-keys/${encodeURIComponent(keyId)}/trust`, { method: 'PUT', token: owner.token })).status).toBe(200)
    await prove()
    await waitFor(async () => (await ownerState<number>(owner.user.id, 'lastTrustedUseAt')) !== undefined)
  })

  it('another account’s key refused even when it answers a sign-in challenge: it proves its own account, not this one', async () => {
    const owner = await register()
    const stranger = await register()
    const strangerAuth = await SoftAuthenticator.create()
    expect((await addKey(stranger.token, strangerAuth)).status).toBe(201)
    await staleProof(owner.user.id)
    const signIn = await call(WEBAUTHN_PATHS.loginOptions, { method: 'POST' })
    const refused = await call('/api/auth/fresh-proof', { token: owner.token, body: { method: 'security_key', response: await strangerAuth.assert(await signIn.json()) } })
    expect(refused.status).toBe(401)
    await expectProofRequired(await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST', token: owner.token }))
  })

  it('a stale session cannot turn two-factor off; it can still turn it on', async () => {
    const owner = await register()
    expect((await addKey(owner.token, await SoftAuthenticator.create())).status).toBe(201)
    const profile = { displayName: 'Ada Owner', phoneNumber: null, country: 'US', timezone: 'America/New_York', emergencyContact: null, emailNotifications: true }
    await staleProof(owner.user.id)
    await ok(await call('/api/profile', { method: 'PUT', token: owner.token, body: { ...profile, twoFactorEnabled: true } }), 200)
    await expectProofRequired(await call('/api/profile', { method: 'PUT', token: owner.token, body: { ...profile, twoFactorEnabled: false } }), ['password', 'security_key'])
    expect(((await (await me(owner.token)).json()) as { user: { twoFactorEnabled: boolean } }).user.twoFactorEnabled).toBe(true)
    await proveWithPassword(owner.token, owner.password)
    await ok(await call('/api/profile', { method: 'PUT', token: owner.token, body: { ...profile, twoFactorEnabled: false } }), 200)
  })

  it('a stale session cannot claim an older vault’s signing key (whoever called first would vouch for every heir key); fresh proof can, and the owner is told', async () => {
    const owner = await register()
    const setup = await vaultSetupBody(owner.token)
    await ok(await call('/api/vault/setup', { token: owner.token, body: setup }), 200)
    // As a vault made before signing keys: a salt and a check, no signing key.
    await runInDurableObject(vaultOf(owner.user.id), async (_i: OwnerVault, state) => {
      const { signing: _gone, ...rest } = state.storage.kv.get<Record<string, unknown>>('vaultKeys')!
      state.storage.kv.put('vaultKeys', rest)
    })
    const attacker = await signingKeyPair()
    await staleProof(owner.user.id)
    await expectProofRequired(await call('/api/vault/signing-key', { token: owner.token, body: { signingPublicKey: attacker.publicKey, wrappedSigningKey: WRAPPED_SIGNING_KEY_STANDIN } }))
    expect(((await (await me(owner.token)).json()) as { user: { vaultSigningKey: unknown } }).user.vaultSigningKey).toBeNull()

    await proveWithPassword(owner.token, owner.password)
    await ok(await call('/api/vault/signing-key', { token: owner.token, body: { signingPublicKey: setup.signingPublicKey, wrappedSigningKey: setup.wrappedSigningKey } }), 200)
    const told = await waitFor(async () => (await outboxFor(owner.email)).find((m) => m.subject === TRUST_CHANGES.signing_key_added.subject))
    expect(told.text).toContain('This wasn’t me')
  })

  it('a stale session cannot release now, delete a beneficiary or delete the account', async () => {
    const setup = await ownerWithItem()
    const trigger = await createTrigger(setup.token, { type: 'manual_release', config: {} })
    await staleProof(setup.ownerId)
    await expectProofRequired(await manualRelease(setup.token, trigger.id))
    expect(await firingCount(setup.ownerId)).toBe(0)
    await expectProofRequired(await call(`/api/beneficiaries/${setup.beneficiary.id}`, { method: 'DELETE', token: setup.token }))
    const heirs = (await (await call('/api/beneficiaries', { token: setup.token })).json()) as Array<{ id: string }>
    expect(heirs.map((b) => b.id)).toEqual([setup.beneficiary.id])
    await expectProofRequired(await call('/api/account/delete', { method: 'DELETE', token: setup.token }))
    expect((await me(setup.token)).status).toBe(200)

    await proveWithPassword(setup.token, setup.owner.password)
    expect((await manualRelease(setup.token, trigger.id)).status).toBe(200)
    expect(await firingCount(setup.ownerId)).toBe(1)
  })

  it('a stale session cannot bring a release sooner: a new or re-armed trigger, a shorter schedule, frequency or window; later is fine', async () => {
    const { owner, token, beneficiary } = await ownerWithBeneficiary()
    const inactivity = await createTrigger(token, { type: 'inactivity', config: { pingFrequency: 30, gracePeriod: 7 } })
    await staleProof(owner.user.id)

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString()
    await expectProofRequired(await call('/api/triggers', { token, body: { type: 'scheduled', status: 'active', config: { releaseDate: tomorrow, beneficiaries: [beneficiary.id] } } }))
    await expectProofRequired(await call('/api/triggers', { token, body: { type: 'verified_death', status: 'active', config: {} } }))
    // Paused, or a manual release trigger (whose release needs proof itself): nothing comes sooner.
    const paused = await call('/api/triggers', { token, body: { type: 'verified_death', status: 'paused', config: {} } })
    expect(paused.status).toBe(201)
    await ok(await call('/api/triggers', { token, body: { type: 'manual_release', status: 'active', config: {} } }), 201)
    const pausedId = ((await paused.json()) as { id: string }).id
    await expectProofRequired(await call(`/api/triggers/${pausedId}`, { method: 'PUT', token, body: { status: 'active' } }))
    await ok(await call(`/api/triggers/${inactivity.id}`, { method: 'PUT', token, body: { status: 'paused' } }), 200)
    await expectProofRequired(await call(`/api/triggers/${inactivity.id}`, { method: 'PUT', token, body: { status: 'active' } }))

    await expectProofRequired(await call(`/api/triggers/${inactivity.id}`, { method: 'PUT', token, body: { config: { pingFrequency: 7, gracePeriod: 1 } } }))
    await ok(await call(`/api/triggers/${inactivity.id}`, { method: 'PUT', token, body: { config: { pingFrequency: 60, gracePeriod: 7 } } }), 200)

    await expectProofRequired(await call('/api/user/safety-window', { method: 'PUT', token, body: { hours: 24 } }))
    expect(await (await call('/api/user/safety-window', { token })).json()).toEqual({ hours: 72 })
    await ok(await call('/api/user/safety-window', { method: 'PUT', token, body: { hours: 96 } }), 200)

    await ok(await call('/api/user/ping-settings', { method: 'PUT', token, body: { pingFrequency: 30, gracePeriod: CHECKIN_GRACE_DAYS } }), 200)
    await expectProofRequired(await call('/api/user/ping-settings', { method: 'PUT', token, body: { pingFrequency: 14, gracePeriod: CHECKIN_GRACE_DAYS } }))

    const triggers = (await (await call('/api/triggers', { token })).json()) as Array<{ type: string; status: string }>
    expect(triggers.filter((t) => t.type === 'scheduled')).toEqual([])
    expect(triggers.filter((t) => t.type === 'verified_death').map((t) => t.status)).toEqual(['paused'])

    await proveWithPassword(token, owner.password)
    await ok(await call('/api/user/safety-window', { method: 'PUT', token, body: { hours: 24 } }), 200)
    await ok(await call(`/api/triggers/${pausedId}`, { method: 'PUT', token, body: { status: 'active' } }), 200)
    await ok(await call('/api/triggers', { token, body: { type: 'scheduled', status: 'active', config: { releaseDate: tomorrow, beneficiaries: [beneficiary.id] } } }), 201)
  })

  it('a schedule one day shorter is sooner: a stale session cannot shorten the check-in grace by a day, and may keep the same total', async () => {
    const { owner, token } = await ownerWithBeneficiary()
    const inactivity = await createTrigger(token, { type: 'inactivity', config: { pingFrequency: 30, gracePeriod: 7 } })
    await staleProof(owner.user.id)
    await expectProofRequired(await call(`/api/triggers/${inactivity.id}`, { method: 'PUT', token, body: { config: { pingFrequency: 30, gracePeriod: 6 } } }))
    await ok(await call(`/api/triggers/${inactivity.id}`, { method: 'PUT', token, body: { config: { pingFrequency: 30, gracePeriod: 7 } } }), 200)
  })

  it('a safety window one hour shorter is sooner: a stale session cannot take an hour off it, and may keep it as it is', async () => {
    const owner = await register()
    await staleProof(owner.user.id)
    await expectProofRequired(await call('/api/user/safety-window', { method: 'PUT', token: owner.token, body: { hours: 71 } }))
    expect(await (await call('/api/user/safety-window', { token: owner.token })).json()).toEqual({ hours: 72 })
    await ok(await call('/api/user/safety-window', { method: 'PUT', token: owner.token, body: { hours: 72 } }), 200)
  })

  it('bad proof bodies are 400s, and the route needs a session', async () => {
    const owner = await register()
    for (const body of [{}, { method: 'pin', pin: '1234' }, { method: 'password' }, { method: 'password', password: '' }, { method: 'security_key', response: {} }]) {
      await ok(await call('/api/auth/fresh-proof', { token: owner.token, body }), 400)
    }
    await ok(await call('/api/auth/fresh-proof', { body: { method: 'password', password: owner.password } }), 401)
  })
})
