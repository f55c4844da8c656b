import { mirrorAccount } from '../../worker/owner/account'
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server'
import { describe, expect, it } from 'vitest'
import type { AuditEntry } from '../../contract/audit'
import type { PublicUser } from '../../contract/auth'
import { AUTH_COOKIE, PRODUCT_NAME } from '../../contract/constants'
import { AUTH_ERRORS } from '../../contract/messages'
import { UNLOCK_FORGIVE_MS, type Trigger } from '../../contract/triggers'
import { SECURITY_KEY, WEBAUTHN_MESSAGES, WEBAUTHN_PATHS, type SecurityKey, type SecurityKeyList } from '../../contract/webauthn'
import { createTrigger, firingCount, guard } from './engine-helpers'
import { call, env, login, me, messageOf, register, waitFor, ownerSessions } from './helpers'
import { ownerRow, ownerState } from './owner-helpers'
import { fromBase64Url, SoftAuthenticator, toBase64Url, type AssertOverrides, type CoseAlgorithm, type RegisterOverrides } from './soft-authenticator'

// Security keys (WebAuthn, verified by the server): registration, sign-in with the key alone, the
// second factor of a password sign-in, and every way a signed answer can be wrong.

const PROFILE = {
  displayName: 'Ada Lovelace',
  phoneNumber: '+44 20 7946 0958',
  country: 'UK',
  timezone: 'Europe/London',
  emergencyContact: 'charles@example.com',
  emailNotifications: false,
  twoFactorEnabled: false,
}

interface CredentialRow {
  id: string
  user_id: string
  name: string
  public_key: string
  counter: number
  transports: string
  device_type: string
  backed_up: number
  aaguid: string | null
  attestation_format: string | null
  created_at: number
  last_used_at: number | null
}

async function registrationOptions(token: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const res = await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST', token })
  expect(res.status).toBe(200)
  return (await res.json()) as PublicKeyCredentialCreationOptionsJSON
}

function verifyRegistration(token: string, body: unknown) {
  return call(WEBAUTHN_PATHS.registerVerify, { token, body })
}

/** Registers the authenticator's key to the owner; throws unless 201. */
async function addKey(token: string, auth: SoftAuthenticator, name?: string) {
  const res = await verifyRegistration(token, { response: await auth.register(await registrationOptions(token)), name })
  if (res.status !== 201) throw new Error(`register key failed: ${res.status} ${await res.text()}`)
  return (await res.json()) as { key: SecurityKey; securityKeyCount: number }
}

async function ownerWithKey(algorithm: CoseAlgorithm = -7) {
  const owner = await register()
  const auth = await SoftAuthenticator.create({ algorithm })
  const { key } = await addKey(owner.token, auth)
  return { ...owner, ownerId: owner.user.id, auth, key }
}

async function signInOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const res = await call(WEBAUTHN_PATHS.loginOptions, { method: 'POST' })
  expect(res.status).toBe(200)
  return (await res.json()) as PublicKeyCredentialRequestOptionsJSON
}

function verifySignIn(response: unknown) {
  return call(WEBAUTHN_PATHS.loginVerify, { body: { response } })
}

/** A discoverable sign-in: fresh options, the authenticator's answer, the server's verdict. */
async function signInWithKey(auth: SoftAuthenticator, overrides: AssertOverrides = {}) {
  return verifySignIn(await auth.assert(await signInOptions(), overrides))
}

async function tokenOf(res: Response): Promise<string> {
  expect(res.status).toBe(200)
  const body = (await res.json()) as { token: string; user: PublicUser }
  expect(body.token).toEqual(expect.any(String))
  return body.token
}

async function listKeys(token: string): Promise<SecurityKeyList> {
  const res = await call(WEBAUTHN_PATHS.keys, { token })
  expect(res.status).toBe(200)
  return (await res.json()) as SecurityKeyList
}

async function credentialRows(userId: string): Promise<CredentialRow[]> {
  return (await env.DB.prepare('select * from webauthn_credentials where user_id = ?').bind(userId).all<CredentialRow>()).results
}

async function storedCounter(credentialId: string): Promise<number> {
  const row = await env.DB.prepare('select counter from webauthn_credentials where id = ?').bind(credentialId).first<{ counter: number }>()
  return row!.counter
}

async function passkeyFailures(ownerId: string): Promise<number> {
  return (await ownerRow<{ n: number }>(ownerId, `select count(*) as n from unlock_failures where kind = 'passkey'`))!.n
}

async function sessionCount(userId: string): Promise<number> {
  const row = await ownerSessions(userId, 'select count(*) as n from sessions').first<{ n: number }>()
  return row!.n
}

async function auditOf(token: string): Promise<AuditEntry[]> {
  const res = await call('/api/audit', { token })
  expect(res.status).toBe(200)
  return (await res.json()) as AuditEntry[]
}

async function userOf(token: string): Promise<PublicUser> {
  const res = await me(token)
  expect(res.status).toBe(200)
  return ((await res.json()) as { user: PublicUser }).user
}

function putProfile(token: string, body: unknown) {
  return call('/api/profile', { method: 'PUT', token, body })
}

/** A refusal that opened no session: the status, the message, no token and no cookie. */
async function expectRefused(res: Response, status: number, message: string | RegExp) {
  expect(res.status).toBe(status)
  expect(res.headers.get('set-cookie')).toBeNull()
  const body = (await res.json()) as { message: string; token?: string }
  expect(body.token).toBeUndefined()
  if (typeof message === 'string') expect(body.message).toBe(message)
  else expect(body.message).toMatch(message)
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
// The verifier's reason is logged, not shown: every refused signature reads the same. What makes
// each case fail is the one thing it changes from an answer that signs in.
const VERIFICATION_FAILED = WEBAUTHN_MESSAGES.verificationFailed

async function expireChallenge(challenge: string) {
  const result = await env.DB.prepare('update webauthn_challenges set expires_at = ? where challenge = ?').bind(Date.now() - 1000, challenge).run()
  expect(result.meta.changes).toBe(1)
}

describe('registration options', () => {
  it('carry the spec parameters and exclude the owner’s existing keys', async () => {
    const owner = await register({ displayName: 'Key Owner' })
    const first = await registrationOptions(owner.token)
    expect(first.timeout).toBe(60_000)
    expect(fromBase64Url(first.challenge)).toHaveLength(32)
    expect(first.pubKeyCredParams.map((p) => p.alg)).toEqual([-7, -257])
    expect(first.pubKeyCredParams.every((p) => p.type === 'public-key')).toBe(true)
    expect(first.authenticatorSelection).toMatchObject({
      authenticatorAttachment: 'cross-platform',
      userVerification: 'preferred',
      residentKey: 'required',
      requireResidentKey: true,
    })
    expect(first.attestation).toBe('direct')
    expect(first.rp).toEqual({ id: 'localhost', name: PRODUCT_NAME })
    // The user handle is the account id's bytes; no keys yet, nothing to exclude.
    expect(first.user).toEqual({ id: toBase64Url(new TextEncoder().encode(owner.user.id)), name: owner.email, displayName: 'Key Owner' })
    expect(first.excludeCredentials ?? []).toEqual([])

    // Each request gets its own challenge, stored for registration by this owner.
    const second = await registrationOptions(owner.token)
    expect(second.challenge).not.toBe(first.challenge)
    const row = await env.DB.prepare('select * from webauthn_challenges where challenge = ?').bind(second.challenge).first<{ purpose: string; user_id: string; expires_at: number; created_at: number }>()
    expect(row).toMatchObject({ purpose: 'register', user_id: owner.user.id })
    // A challenge lives 90 seconds: the browser's minute, and the round trip.
    expect(row!.expires_at - row!.created_at).toBe(90_000)

    const a = await SoftAuthenticator.create()
    const b = await SoftAuthenticator.create({ algorithm: -257 })
    await addKey(owner.token, a)
    await addKey(owner.token, b)
    const third = await registrationOptions(owner.token)
    expect(third.excludeCredentials!.map((c) => c.id).sort()).toEqual([a.credentialId, b.credentialId].sort())
    expect(third.excludeCredentials!.every((c) => c.type === 'public-key')).toBe(true)
    expect(third.excludeCredentials![0]!.transports).toEqual(['usb'])
  })

  it('need a session', async () => {
    const res = await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST' })
    expect(res.status).toBe(401)
    const auth = await SoftAuthenticator.create()
    const owner = await register()
    const response = await auth.register(await registrationOptions(owner.token))
    expect((await call(WEBAUTHN_PATHS.registerVerify, { body: { response } })).status).toBe(401)
    expect(await credentialRows(owner.user.id)).toEqual([])
  })

  it('stop at the most keys an owner may have', async () => {
    const owner = await register()
    const rows = Array.from({ length: SECURITY_KEY.maxPerOwner }, (_, i) =>
      env.DB.prepare(
        `insert into webauthn_credentials (id, user_id, name, public_key, counter, transports, device_type, backed_up, created_at)
         values (?, ?, ?, 'AA', 0, '[]', 'singleDevice', 0, ?)`,
      ).bind(`filler-${owner.user.id}-${i}`, owner.user.id, `Key ${i}`, Date.now() + i),
    )
    await env.DB.batch(rows)
    const res = await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST', token: owner.token })
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(WEBAUTHN_MESSAGES.tooMany)
  })
})

describe('signing in with a trusted key', () => {
  it('is a use of a trusted device; signing in with the same key untrusted is not', async () => {
    const owner = await ownerWithKey()
    expect((await signInWithKey(owner.auth)).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await ownerState(owner.ownerId, 'lastTrustedUseAt')).toBeUndefined()
    expect((await call(`/api/auth/security-keys/${encodeURIComponent(owner.key.id)}/trust`, { method: 'PUT', token: owner.token })).status).toBe(200)
    expect((await signInWithKey(owner.auth)).status).toBe(200)
    await waitFor(async () => (await ownerState<number>(owner.ownerId, 'lastTrustedUseAt')) !== undefined)
  })
})

describe('the most keys an owner may have', () => {
  it('hold at completion too: of two registrations started with room for one, the second is refused (409)', async () => {
    const owner = await register()
    const rows = Array.from({ length: SECURITY_KEY.maxPerOwner - 1 }, (_, i) =>
      env.DB.prepare(
        `insert into webauthn_credentials (id, user_id, name, public_key, counter, transports, device_type, backed_up, created_at)
         values (?, ?, ?, 'AA', 0, '[]', 'singleDevice', 0, ?)`,
      ).bind(`filler-${owner.user.id}-${i}`, owner.user.id, `Key ${i}`, Date.now() + i),
    )
    await env.DB.batch(rows)
    const [a, b] = [await SoftAuthenticator.create(), await SoftAuthenticator.create()]
    const [first, second] = [await registrationOptions(owner.token), await registrationOptions(owner.token)]
    expect((await verifyRegistration(owner.token, { response: await a.register(first) })).status).toBe(201)
    const late = await verifyRegistration(owner.token, { response: await b.register(second) })
    expect(late.status).toBe(409)
    expect(await messageOf(late)).toBe(WEBAUTHN_MESSAGES.tooMany)
    expect((await env.DB.prepare('select count(*) as n from webauthn_credentials where user_id = ?').bind(owner.user.id).first<{ n: number }>())!.n).toBe(SECURITY_KEY.maxPerOwner)
  })
})

describe('registering a key', () => {
  for (const [label, algorithm] of [['ES256', -7], ['RS256', -257]] as const) {
    it(`stores a ${label} key with its public key and counter, and lists it`, async () => {
      const owner = await register()
      const auth = await SoftAuthenticator.create({ algorithm })
      const options = await registrationOptions(owner.token)
      const res = await verifyRegistration(owner.token, { response: await auth.register(options), name: '  Blue YubiKey  ' })
      expect(res.status).toBe(201)
      const body = (await res.json()) as { key: SecurityKey; securityKeyCount: number }
      expect(body.securityKeyCount).toBe(1)
      expect(body.key).toMatchObject({ id: auth.credentialId, name: 'Blue YubiKey', lastUsedAt: null, transports: ['usb'], backedUp: false })
      expect(auth.userHandle).toBe(options.user.id)

      const list = await listKeys(owner.token)
      expect(list.twoFactorEnabled).toBe(false)
      expect(list.keys).toEqual([body.key])
      expect(Date.parse(list.keys[0]!.createdAt)).not.toBeNaN()
      expect((await userOf(owner.token)).securityKeyCount).toBe(1)

      const [row, ...more] = await credentialRows(owner.user.id)
      expect(more).toEqual([])
      expect(row).toMatchObject({ id: auth.credentialId, counter: 0, attestation_format: 'packed', device_type: 'singleDevice', last_used_at: null, aaguid: '00000000-0000-0000-0000-000000000000' })
      expect(JSON.parse(row!.transports)).toEqual(['usb'])
      // The COSE key: kty 2 (EC2) or 3 (RSA), then alg, as the authenticator encoded it.
      const cose = fromBase64Url(row!.public_key)
      expect(Array.from(cose.slice(0, 5))).toEqual(algorithm === -7 ? [0xa5, 0x01, 0x02, 0x03, 0x26] : [0xa4, 0x01, 0x03, 0x03, 0x39])

      // The challenge is gone: used once.
      const left = await env.DB.prepare('select count(*) as n from webauthn_challenges where challenge = ?').bind(options.challenge).first<{ n: number }>()
      expect(left!.n).toBe(0)
      const added = (await auditOf(owner.token)).find((e) => e.action === 'account.security_key_added')
      expect(added?.details).toEqual({ key: auth.credentialId.slice(0, 12), format: 'packed' })
    })
  }

  it('accepts "none" attestation and names an unnamed key by its number', async () => {
    const owner = await register()
    await addKey(owner.token, await SoftAuthenticator.create(), 'First')
    const auth = await SoftAuthenticator.create()
    const res = await verifyRegistration(owner.token, { response: await auth.register(await registrationOptions(owner.token), { fmt: 'none' }) })
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({ key: { name: 'Security key 2' }, securityKeyCount: 2 })
    const row = (await credentialRows(owner.user.id)).find((r) => r.id === auth.credentialId)
    expect(row!.attestation_format).toBe('none')
  })

  it('refuses the same key twice, on this account or another', async () => {
    const owner = await ownerWithKey()
    const again = await verifyRegistration(owner.token, { response: await owner.auth.register(await registrationOptions(owner.token)) })
    expect(again.status).toBe(409)
    expect(await messageOf(again)).toBe(WEBAUTHN_MESSAGES.alreadyRegistered)

    const other = await register()
    const elsewhere = await verifyRegistration(other.token, { response: await owner.auth.register(await registrationOptions(other.token)) })
    expect(elsewhere.status).toBe(409)
    expect(await messageOf(elsewhere)).toBe(WEBAUTHN_MESSAGES.alreadyRegistered)
    expect(await credentialRows(other.user.id)).toEqual([])
    expect((await credentialRows(owner.ownerId)).map((r) => r.user_id)).toEqual([owner.ownerId])
  })
})

describe('signing in with a key', () => {
  for (const [label, algorithm] of [['ES256', -7], ['RS256', -257]] as const) {
    it(`opens a session with a ${label} key alone`, async () => {
      const owner = await ownerWithKey(algorithm)
      const options = await signInOptions()
      expect(options).toMatchObject({ rpId: 'localhost', timeout: 60_000, userVerification: 'preferred' })
      expect(fromBase64Url(options.challenge)).toHaveLength(32)
      // Discoverable: no account is named.
      expect(options.allowCredentials ?? []).toEqual([])

      const res = await verifySignIn(await owner.auth.assert(options))
      expect(res.headers.get('set-cookie')).toMatch(new RegExp(`^${AUTH_COOKIE}=`))
      const body = (await res.clone().json()) as { user: PublicUser }
      expect(body.user).toMatchObject({ id: owner.ownerId, email: owner.email, securityKeyCount: 1 })
      const token = await tokenOf(res)
      expect((await userOf(token)).id).toBe(owner.ownerId)

      const [key] = (await listKeys(token)).keys
      expect(key!.lastUsedAt).not.toBeNull()
      expect(await storedCounter(owner.auth.credentialId)).toBe(1)

      const signedIn = (await auditOf(token)).find((e) => e.action === 'account.signed_in')
      expect(signedIn?.details).toEqual({ method: 'security_key', key: owner.auth.credentialId.slice(0, 12) })
    })
  }

  it('moves the stored counter with each use and accepts a key that keeps no counter', async () => {
    const owner = await ownerWithKey()
    owner.auth.counter = 41
    await tokenOf(await signInWithKey(owner.auth))
    expect(await storedCounter(owner.auth.credentialId)).toBe(42)

    const still = await ownerWithKey()
    // A key without a counter reports 0 each time.
    await tokenOf(await signInWithKey(still.auth, { counter: 0 }))
    await tokenOf(await signInWithKey(still.auth, { counter: 0 }))
    expect(await storedCounter(still.auth.credentialId)).toBe(0)
  })

  it('refuses an answer whose user handle names another account', async () => {
    const owner = await ownerWithKey()
    const other = await register()
    const before = [await sessionCount(owner.ownerId), await sessionCount(other.user.id)]
    owner.auth.userHandle = toBase64Url(new TextEncoder().encode(other.user.id))
    await expectRefused(await signInWithKey(owner.auth), 401, WEBAUTHN_MESSAGES.unknownCredential)
    expect([await sessionCount(owner.ownerId), await sessionCount(other.user.id)]).toEqual(before)
    expect(await storedCounter(owner.auth.credentialId)).toBe(0)
  })

  it('refuses a key that was never registered', async () => {
    const stranger = await SoftAuthenticator.create()
    await expectRefused(await signInWithKey(stranger), 401, WEBAUTHN_MESSAGES.unknownCredential)
  })

  it('refuses a paused account after a valid assertion', async () => {
    const owner = await ownerWithKey()
    await env.DB.prepare('update users set paused_at = ? where id = ?').bind(Date.now(), owner.ownerId).run()
    await mirrorAccount(owner.ownerId)
    const sessionsBefore = await sessionCount(owner.ownerId)
    await expectRefused(await signInWithKey(owner.auth), 403, AUTH_ERRORS.accountPaused)
    expect(await sessionCount(owner.ownerId)).toBe(sessionsBefore)
  })
})

describe('challenges', () => {
  it('are single use: a replayed sign-in or registration answer is refused', async () => {
    const owner = await ownerWithKey()
    const answer = await owner.auth.assert(await signInOptions())
    await tokenOf(await verifySignIn(answer))
    await expectRefused(await verifySignIn(answer), 400, WEBAUTHN_MESSAGES.challengeInvalid)

    const auth = await SoftAuthenticator.create()
    const registration = await auth.register(await registrationOptions(owner.token))
    expect((await verifyRegistration(owner.token, { response: registration })).status).toBe(201)
    const replay = await verifyRegistration(owner.token, { response: registration })
    expect(replay.status).toBe(400)
    expect(await messageOf(replay)).toBe(WEBAUTHN_MESSAGES.challengeInvalid)
    expect(await credentialRows(owner.ownerId)).toHaveLength(2)
  })

  it('are taken by a failed answer too', async () => {
    const owner = await ownerWithKey()
    const options = await signInOptions()
    await expectRefused(await verifySignIn(await owner.auth.assert(options, { tamperSignature: true })), 401, VERIFICATION_FAILED)
    await expectRefused(await verifySignIn(await owner.auth.assert(options)), 400, WEBAUTHN_MESSAGES.challengeInvalid)
  })

  it('expire', async () => {
    const owner = await ownerWithKey()
    const options = await signInOptions()
    await expireChallenge(options.challenge)
    await expectRefused(await verifySignIn(await owner.auth.assert(options)), 400, WEBAUTHN_MESSAGES.challengeInvalid)

    const auth = await SoftAuthenticator.create()
    const regOptions = await registrationOptions(owner.token)
    await expireChallenge(regOptions.challenge)
    const res = await verifyRegistration(owner.token, { response: await auth.register(regOptions) })
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe(WEBAUTHN_MESSAGES.challengeInvalid)
    expect(await credentialRows(owner.ownerId)).toHaveLength(1)
  })

  it('serve only their purpose and their owner', async () => {
    const owner = await ownerWithKey()
    // A registration challenge answered as a sign-in.
    const regOptions = await registrationOptions(owner.token)
    await expectRefused(await verifySignIn(await owner.auth.assert(await signInOptions(), { challenge: regOptions.challenge })), 400, WEBAUTHN_MESSAGES.challengeInvalid)

    // A sign-in challenge answered as a registration.
    const auth = await SoftAuthenticator.create()
    const signIn = await signInOptions()
    const asRegistration = await verifyRegistration(owner.token, { response: await auth.register(await registrationOptions(owner.token), { challenge: signIn.challenge }) })
    expect(asRegistration.status).toBe(400)
    expect(await messageOf(asRegistration)).toBe(WEBAUTHN_MESSAGES.challengeInvalid)

    // Another owner's registration challenge.
    const other = await register()
    const theirs = await registrationOptions(other.token)
    const stolen = await verifyRegistration(owner.token, { response: await auth.register(await registrationOptions(owner.token), { challenge: theirs.challenge }) })
    expect(stolen.status).toBe(400)
    expect(await messageOf(stolen)).toBe(WEBAUTHN_MESSAGES.challengeInvalid)
    // A challenge nobody issued.
    const made = toBase64Url(crypto.getRandomValues(new Uint8Array(32)))
    await expectRefused(await signInWithKey(owner.auth, { challenge: made }), 400, WEBAUTHN_MESSAGES.challengeInvalid)

    expect(await credentialRows(owner.ownerId)).toHaveLength(1)
    expect(await credentialRows(other.user.id)).toEqual([])
  })
})

describe('answers bound to another site', () => {
  it('a sign-in from another origin or for another RP ID is refused and opens no session', async () => {
    const owner = await ownerWithKey()
    const before = await sessionCount(owner.ownerId)
    await expectRefused(await signInWithKey(owner.auth, { origin: 'https://evil.example' }), 401, VERIFICATION_FAILED)
    await expectRefused(await signInWithKey(owner.auth, { origin: 'http://localhost:5173' }), 401, VERIFICATION_FAILED)
    await expectRefused(await signInWithKey(owner.auth, { rpId: 'evil.example' }), 401, VERIFICATION_FAILED)
    expect(await sessionCount(owner.ownerId)).toBe(before)
    expect((await listKeys(owner.token)).keys[0]!.lastUsedAt).toBeNull()
    expect(await storedCounter(owner.auth.credentialId)).toBe(0)
  })

  it('a registration from another origin or for another RP ID stores nothing', async () => {
    const owner = await register()
    const auth = await SoftAuthenticator.create()
    const cases: RegisterOverrides[] = [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }]
    for (const overrides of cases) {
      const res = await verifyRegistration(owner.token, { response: await auth.register(await registrationOptions(owner.token), overrides) })
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe(VERIFICATION_FAILED)
    }
    expect(await credentialRows(owner.user.id)).toEqual([])
    expect((await userOf(owner.token)).securityKeyCount).toBe(0)
  })
})

describe('failed answers of a registered key', () => {
  it('a counter that goes back is refused, counted and audited', async () => {
    const owner = await ownerWithKey()
    await tokenOf(await signInWithKey(owner.auth, { counter: 5 }))
    expect(await storedCounter(owner.auth.credentialId)).toBe(5)

    await expectRefused(await signInWithKey(owner.auth, { counter: 3 }), 401, WEBAUTHN_MESSAGES.counterRegressed)
    await waitFor(async () => (await passkeyFailures(owner.ownerId)) === 1)
    await expectRefused(await signInWithKey(owner.auth, { counter: 5 }), 401, WEBAUTHN_MESSAGES.counterRegressed)
    await waitFor(async () => (await passkeyFailures(owner.ownerId)) === 2)
    expect(await storedCounter(owner.auth.credentialId)).toBe(5)

    const failed = (await auditOf(owner.token)).filter((e) => e.action === 'account.security_key_failed')
    expect(failed).toHaveLength(2)
    expect(failed[0]).toMatchObject({ actor: 'system', details: { reason: 'counter' } })

    // The real key, ahead of the copy, still works.
    await tokenOf(await signInWithKey(owner.auth, { counter: 6 }))
    expect(await storedCounter(owner.auth.credentialId)).toBe(6)
  })

  it('of two answers with the same counter, only one signs in', async () => {
    const owner = await ownerWithKey()
    await tokenOf(await signInWithKey(owner.auth, { counter: 5 }))
    const [a, b] = await Promise.all([signInOptions(), signInOptions()])
    const answers = [await owner.auth.assert(a!, { counter: 6 }), await owner.auth.assert(b!, { counter: 6 })]
    const results = await Promise.all(answers.map(verifySignIn))
    expect(results.map((r) => r.status).sort()).toEqual([200, 401])
    const refused = results.find((r) => r.status === 401)!
    expect(await messageOf(refused)).toBe(WEBAUTHN_MESSAGES.counterRegressed)
    expect(await storedCounter(owner.auth.credentialId)).toBe(6)
  })

  it('a tampered signature on the key-alone path is refused and counts for nobody', async () => {
    // Anyone who learned a key's id can post a junk answer: it must not count against its owner.
    const owner = await ownerWithKey(-257)
    const before = await sessionCount(owner.ownerId)
    await expectRefused(await signInWithKey(owner.auth, { tamperSignature: true }), 401, VERIFICATION_FAILED)
    expect(await sessionCount(owner.ownerId)).toBe(before)
    expect(await storedCounter(owner.auth.credentialId)).toBe(0)
    // A later sign-in has had its failure reports settle; there are none.
    await tokenOf(await signInWithKey(owner.auth))
    expect(await passkeyFailures(owner.ownerId)).toBe(0)
    expect((await auditOf(owner.token)).filter((e) => e.action === 'account.security_key_failed')).toEqual([])
  })

  it('a tampered signature as the second factor (after the right password) is the owner’s failure', async () => {
    const owner = await ownerWithKey()
    expect((await putProfile(owner.token, { ...PROFILE, twoFactorEnabled: true })).status).toBe(200)
    const step = (await (await login(owner.email, owner.password)).json()) as { options: PublicKeyCredentialRequestOptionsJSON }
    await expectRefused(await verifySignIn(await owner.auth.assert(step.options, { tamperSignature: true })), 401, VERIFICATION_FAILED)
    await waitFor(async () => (await passkeyFailures(owner.ownerId)) === 1)
    const failure = await ownerRow<{ kind: string }>(owner.ownerId, 'select * from unlock_failures')
    expect(failure!.kind).toBe('passkey')
    const failed = (await auditOf(owner.token)).find((e) => e.action === 'account.security_key_failed')
    expect(failed).toMatchObject({ actor: 'system', details: { reason: 'signature' } })
  })

  it('a key alone must have verified its holder (UV)', async () => {
    const owner = await ownerWithKey()
    await expectRefused(await signInWithKey(owner.auth, { userVerified: false }), 401, VERIFICATION_FAILED)
    await tokenOf(await signInWithKey(owner.auth))
  })

  it('a discoverable answer must carry its user handle', async () => {
    const owner = await ownerWithKey()
    const answer = await owner.auth.assert(await signInOptions())
    delete answer.response.userHandle
    await expectRefused(await verifySignIn(answer), 401, WEBAUTHN_MESSAGES.unknownCredential)
  })
})

describe('a second factor the browser could not complete', () => {
  const abandon = (challenge: unknown) => call(WEBAUTHN_PATHS.secondFactorAbandon, { body: { challenge } })

  it('is reported with its challenge, counted and audited once', async () => {
    const owner = await ownerWithKey()
    expect((await putProfile(owner.token, { ...PROFILE, twoFactorEnabled: true })).status).toBe(200)
    const step = (await (await login(owner.email, owner.password)).json()) as { options: PublicKeyCredentialRequestOptionsJSON }
    const res = await abandon(step.options.challenge)
    expect(res.status).toBe(200)
    await waitFor(async () => (await passkeyFailures(owner.ownerId)) === 1)
    const failed = (await auditOf(owner.token)).find((e) => e.action === 'account.security_key_failed')
    expect(failed).toMatchObject({ actor: 'system', details: { reason: 'not_completed' } })
    // The challenge is spent: neither a second report nor the key can use it.
    expect((await abandon(step.options.challenge)).status).toBe(400)
    await expectRefused(await verifySignIn(await owner.auth.assert(step.options)), 400, WEBAUTHN_MESSAGES.challengeInvalid)
  })

  it('needs a second-factor challenge: a sign-in challenge or a made-up one is refused', async () => {
    const owner = await ownerWithKey()
    const options = await signInOptions()
    for (const challenge of [options.challenge, toBase64Url(crypto.getRandomValues(new Uint8Array(32)))]) {
      const res = await abandon(challenge)
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe(WEBAUTHN_MESSAGES.challengeInvalid)
    }
    for (const challenge of [undefined, 42, '%%%', 'A'.repeat(129)]) {
      const res = await abandon(challenge)
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toMatch(/^challenge: /)
    }
    // The sign-in challenge was not consumed by the refused report.
    await tokenOf(await verifySignIn(await owner.auth.assert(options)))
    expect(await passkeyFailures(owner.ownerId)).toBe(0)
  })
})

describe('managing keys', () => {
  it('renames a key; refuses a bad name', async () => {
    const owner = await ownerWithKey()
    const path = `${WEBAUTHN_PATHS.keys}/${owner.key.id}`
    const res = await call(path, { method: 'PATCH', token: owner.token, body: { name: ' Spare key ' } })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ key: { id: owner.key.id, name: 'Spare key' } })
    for (const name of ['', '   ', 'x'.repeat(SECURITY_KEY.nameMax + 1), 42]) {
      const bad = await call(path, { method: 'PATCH', token: owner.token, body: { name } })
      expect(bad.status, JSON.stringify(name)).toBe(400)
      expect(await messageOf(bad)).toBe(`name: ${WEBAUTHN_MESSAGES.nameInvalid}`)
    }
    expect((await listKeys(owner.token)).keys.map((k) => k.name)).toEqual(['Spare key'])
    const unknown = await call(`${WEBAUTHN_PATHS.keys}/no-such-key`, { method: 'PATCH', token: owner.token, body: { name: 'X' } })
    expect(unknown.status).toBe(404)
    expect(await messageOf(unknown)).toBe(WEBAUTHN_MESSAGES.notFound)
  })

  it('another owner cannot list, rename or remove the key', async () => {
    const owner = await ownerWithKey()
    const other = await register()
    expect((await listKeys(other.token)).keys).toEqual([])
    const path = `${WEBAUTHN_PATHS.keys}/${owner.key.id}`
    const rename = await call(path, { method: 'PATCH', token: other.token, body: { name: 'Mine now' } })
    expect(rename.status).toBe(404)
    expect(await messageOf(rename)).toBe(WEBAUTHN_MESSAGES.notFound)
    const remove = await call(path, { method: 'DELETE', token: other.token })
    expect(remove.status).toBe(404)
    expect(await messageOf(remove)).toBe(WEBAUTHN_MESSAGES.notFound)
    expect((await listKeys(owner.token)).keys).toEqual([owner.key])
    expect((await call(path, { method: 'DELETE' })).status).toBe(401)
  })

  it('removes a key: the list is empty and the key no longer signs in', async () => {
    const owner = await ownerWithKey()
    const res = await call(`${WEBAUTHN_PATHS.keys}/${owner.key.id}`, { method: 'DELETE', token: owner.token })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'Security key removed.', securityKeyCount: 0 })
    expect((await listKeys(owner.token)).keys).toEqual([])
    expect((await userOf(owner.token)).securityKeyCount).toBe(0)
    expect(await credentialRows(owner.ownerId)).toEqual([])
    await expectRefused(await signInWithKey(owner.auth), 401, WEBAUTHN_MESSAGES.unknownCredential)
    const again = await call(`${WEBAUTHN_PATHS.keys}/${owner.key.id}`, { method: 'DELETE', token: owner.token })
    expect(again.status).toBe(404)
    const removed = (await auditOf(owner.token)).find((e) => e.action === 'account.security_key_removed')
    expect(removed?.details).toEqual({ key: owner.key.id.slice(0, 12) })
  })
})

describe('two-factor sign-in', () => {
  it('needs a key, asks for it after the password, and keeps the last key while on', async () => {
    const owner = await register()
    const refused = await putProfile(owner.token, { ...PROFILE, twoFactorEnabled: true })
    expect(refused.status).toBe(409)
    expect(await messageOf(refused)).toBe(WEBAUTHN_MESSAGES.twoFactorNeedsKey)
    expect((await userOf(owner.token)).twoFactorEnabled).toBe(false)

    const auth = await SoftAuthenticator.create()
    const { key } = await addKey(owner.token, auth)
    const on = await putProfile(owner.token, { ...PROFILE, twoFactorEnabled: true })
    expect(on.status).toBe(200)
    expect((await listKeys(owner.token)).twoFactorEnabled).toBe(true)

    // The password alone opens nothing: the answer carries the options for the key.
    const sessions = await sessionCount(owner.user.id)
    const first = await login(owner.email, owner.password)
    expect(first.status).toBe(200)
    expect(first.headers.get('set-cookie')).toBeNull()
    const step = (await first.json()) as { twoFactorRequired: true; options: PublicKeyCredentialRequestOptionsJSON; message: string; token?: string }
    expect(step).toMatchObject({ twoFactorRequired: true, message: WEBAUTHN_MESSAGES.secondFactorPrompt })
    expect(step.token).toBeUndefined()
    expect(step.options.allowCredentials!.map((c) => c.id)).toEqual([key.id])
    expect(step.options).toMatchObject({ rpId: 'localhost', userVerification: 'preferred', timeout: 60_000 })
    expect(await sessionCount(owner.user.id)).toBe(sessions)
    const challenge = await env.DB.prepare('select purpose, user_id from webauthn_challenges where challenge = ?').bind(step.options.challenge).first()
    expect(challenge).toEqual({ purpose: 'second_factor', user_id: owner.user.id })

    // As a second factor, a key that only proved presence (no UV) will do: the password was given.
    const token = await tokenOf(await verifySignIn(await auth.assert(step.options, { userVerified: false })))
    expect((await userOf(token)).id).toBe(owner.user.id)
    const signedIn = (await auditOf(token)).find((e) => e.action === 'account.signed_in')
    expect(signedIn?.details).toEqual({ method: 'security_key', key: key.id.slice(0, 12) })
    // A key that returns no user handle (the account was named by the password) will do as well.
    const next = (await (await login(owner.email, owner.password)).json()) as { options: PublicKeyCredentialRequestOptionsJSON }
    const answer = await auth.assert(next.options)
    delete answer.response.userHandle
    await tokenOf(await verifySignIn(answer))

    // The last key stays while two-factor is on.
    const keep = await call(`${WEBAUTHN_PATHS.keys}/${key.id}`, { method: 'DELETE', token: owner.token })
    expect(keep.status).toBe(409)
    expect(await messageOf(keep)).toBe(WEBAUTHN_MESSAGES.lastKeyWithTwoFactor)
    expect((await listKeys(owner.token)).keys).toHaveLength(1)

    expect((await putProfile(owner.token, PROFILE)).status).toBe(200)
    const gone = await call(`${WEBAUTHN_PATHS.keys}/${key.id}`, { method: 'DELETE', token: owner.token })
    expect(gone.status).toBe(200)
    expect((await listKeys(owner.token)).keys).toEqual([])
    // Two-factor off: the password signs in again.
    expect(await tokenOf(await login(owner.email, owner.password))).toEqual(expect.any(String))
  })

  it('with two keys, either may go while the other stays', async () => {
    const owner = await ownerWithKey()
    const spare = await SoftAuthenticator.create({ algorithm: -257 })
    await addKey(owner.token, spare)
    expect((await putProfile(owner.token, { ...PROFILE, twoFactorEnabled: true })).status).toBe(200)
    expect((await call(`${WEBAUTHN_PATHS.keys}/${owner.key.id}`, { method: 'DELETE', token: owner.token })).status).toBe(200)
    const last = await call(`${WEBAUTHN_PATHS.keys}/${spare.credentialId}`, { method: 'DELETE', token: owner.token })
    expect(last.status).toBe(409)
    expect(await messageOf(last)).toBe(WEBAUTHN_MESSAGES.lastKeyWithTwoFactor)
  })

  it('refuses another account’s key as the second factor', async () => {
    const owner = await ownerWithKey()
    const other = await ownerWithKey()
    expect((await putProfile(owner.token, { ...PROFILE, twoFactorEnabled: true })).status).toBe(200)
    const step = (await (await login(owner.email, owner.password)).json()) as { options: PublicKeyCredentialRequestOptionsJSON }
    await expectRefused(await verifySignIn(await other.auth.assert(step.options)), 401, WEBAUTHN_MESSAGES.unknownCredential)
    // Nobody's key failed: the other key is sound, it is just not this account's.
    for (const token of [owner.token, other.token]) {
      expect((await auditOf(token)).filter((e) => e.action === 'account.security_key_failed')).toEqual([])
    }
    // The challenge is spent; a new password step and the right key do it.
    await expectRefused(await verifySignIn(await owner.auth.assert(step.options)), 400, WEBAUTHN_MESSAGES.challengeInvalid)
    const again = (await (await login(owner.email, owner.password)).json()) as { options: PublicKeyCredentialRequestOptionsJSON }
    await tokenOf(await verifySignIn(await owner.auth.assert(again.options)))
  })

  it('a wrong password asks for no key', async () => {
    const owner = await ownerWithKey()
    expect((await putProfile(owner.token, { ...PROFILE, twoFactorEnabled: true })).status).toBe(200)
    const res = await login(owner.email, 'wrong password entirely')
    expect(res.status).toBe(401)
    const body = (await res.json()) as Record<string, unknown>
    expect(body).toEqual(expect.objectContaining({ message: AUTH_ERRORS.invalidCredentials }))
    expect(body).not.toHaveProperty('options')
  })
})

describe('Failed unlock attempts trigger', () => {
  it('failed key answers reach the engine without blocking the owner, and count after 15 minutes', async () => {
    const owner = await ownerWithKey()
    const trigger = await createTrigger(owner.token, { type: 'biometric_failure', config: { failureThreshold: 2, timeWindow: 1 } })
    expect((await putProfile(owner.token, { ...PROFILE, twoFactorEnabled: true })).status).toBe(200)
    const secondStep = async () => ((await (await login(owner.email, owner.password)).json()) as { options: PublicKeyCredentialRequestOptionsJSON }).options
    // A wrong answer to the second step, then one the browser gave up on.
    await expectRefused(await verifySignIn(await owner.auth.assert(await secondStep(), { tamperSignature: true })), 401, VERIFICATION_FAILED)
    await waitFor(async () => (await passkeyFailures(owner.ownerId)) === 1)
    expect((await call(WEBAUTHN_PATHS.secondFactorAbandon, { body: { challenge: (await secondStep()).challenge } })).status).toBe(200)
    await waitFor(async () => (await passkeyFailures(owner.ownerId)) === 2)
    // Not at once: the owner has 15 minutes to get it right.
    expect(await firingCount(owner.ownerId)).toBe(0)
    const failed = (await auditOf(owner.token)).filter((e) => e.action === 'account.security_key_failed')
    expect(failed.map((e) => e.details).reverse()).toEqual([
      { kind: 'passkey', reason: 'signature', attemptsLeft: 1 },
      { kind: 'passkey', reason: 'not_completed', attemptsLeft: 0 },
    ])
    await guard(owner.ownerId).tick(Date.now() + UNLOCK_FORGIVE_MS + 60_000)
    expect(await firingCount(owner.ownerId)).toBe(1)
    const firing = await ownerRow(owner.ownerId, 'select trigger_id, trigger_type from firings')
    expect(firing).toEqual({ trigger_id: trigger.id, trigger_type: 'biometric_failure' })
    const triggers = (await (await call('/api/triggers', { token: owner.token })).json()) as Trigger[]
    expect(triggers.find((t) => t.id === trigger.id)!.status).toBe('triggered')

    // Nothing is locked: the right answers still sign in, with the key alone or after the password.
    await tokenOf(await signInWithKey(owner.auth))
    await tokenOf(await verifySignIn(await owner.auth.assert(await secondStep())))
  })

  it('a key the server verifies forgives the failed attempts of the 15 minutes before it', async () => {
    const owner = await ownerWithKey()
    await createTrigger(owner.token, { type: 'biometric_failure', config: { failureThreshold: 2, timeWindow: 1 } })
    expect((await putProfile(owner.token, { ...PROFILE, twoFactorEnabled: true })).status).toBe(200)
    const secondStep = async () => ((await (await login(owner.email, owner.password)).json()) as { options: PublicKeyCredentialRequestOptionsJSON }).options
    await expectRefused(await verifySignIn(await owner.auth.assert(await secondStep(), { tamperSignature: true })), 401, VERIFICATION_FAILED)
    // A wrong vault passphrase too: a key's success forgives both kinds.
    expect((await call('/api/trigger-engine/biometric-failure', { token: owner.token, body: { kind: 'vault_unlock' } })).status).toBe(200)
    await waitFor(async () => (await passkeyFailures(owner.ownerId)) === 1)
    // The owner's key, verified: the attempts are forgiven and nothing fires later.
    await tokenOf(await verifySignIn(await owner.auth.assert(await secondStep())))
    await waitFor(async () => (await ownerRow<{ n: number }>(owner.ownerId, 'select count(*) as n from unlock_failures'))!.n === 0)
    const forgiven = (await auditOf(owner.token)).find((e) => e.action === 'vault.unlock_failures_forgiven')
    expect(forgiven).toMatchObject({ actor: 'user', details: { kind: 'passkey', forgiven: 2 } })
    await guard(owner.ownerId).tick(Date.now() + UNLOCK_FORGIVE_MS + 60_000)
    expect(await firingCount(owner.ownerId)).toBe(0)
  })
})

describe('bad input', () => {
  it('malformed sign-in bodies get 400 with a message, never 500', async () => {
    const owner = await ownerWithKey()
    const valid = await owner.auth.assert(await signInOptions())
    const cases: Array<[unknown, string]> = [
      [{}, 'response: '],
      [{ response: 'nope' }, 'response: '],
      [{ response: null }, 'response: '],
      [{ response: { ...valid, id: 42 } }, 'response.id: '],
      [{ response: { ...valid, id: 'not+base64/url=' } }, 'response.id: must be base64url'],
      [{ response: { ...valid, type: 'password' } }, 'response.type: '],
      [{ response: { ...valid, response: { ...valid.response, signature: '' } } }, 'response.response.signature: '],
      [{ response: { ...valid, response: { ...valid.response, clientDataJSON: 'A'.repeat(4097) } } }, 'response.response.clientDataJSON: '],
      [{ response: { ...valid, response: { ...valid.response, authenticatorData: 'with spaces' } } }, 'response.response.authenticatorData: must be base64url'],
      [{ response: { ...valid, response: { ...valid.response, userHandle: 'A'.repeat(257) } } }, 'response.response.userHandle: '],
      [{ response: { ...valid, response: undefined } }, 'response.response: '],
    ]
    for (const [body, prefix] of cases) {
      const res = await call(WEBAUTHN_PATHS.loginVerify, { body })
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400)
      expect(await messageOf(res)).toMatch(new RegExp(`^${escape(prefix)}`))
    }
    expect((await call(WEBAUTHN_PATHS.loginVerify, { rawBody: '{' })).status).toBe(400)
    expect((await call(WEBAUTHN_PATHS.loginVerify, { rawBody: 'null' })).status).toBe(400)

    // Client data that is base64url but not JSON, or JSON without a challenge.
    for (const clientData of ['bm90IGpzb24', toBase64Url(new TextEncoder().encode(JSON.stringify({ type: 'webauthn.get' })))]) {
      const res = await verifySignIn({ ...valid, response: { ...valid.response, clientDataJSON: clientData } })
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe(`${WEBAUTHN_MESSAGES.verificationFailed} The client data is malformed.`)
    }
    // Garbage authenticator data for a registered key, on a live challenge.
    const options = await signInOptions()
    const answer = await owner.auth.assert(options)
    const garbage = await verifySignIn({ ...answer, response: { ...answer.response, authenticatorData: 'AAAA' } })
    expect(garbage.status).toBe(401)
    expect(await messageOf(garbage)).toBe(VERIFICATION_FAILED)
    // id and rawId that disagree.
    const mismatch = await owner.auth.assert(await signInOptions())
    const res = await verifySignIn({ ...mismatch, rawId: toBase64Url(crypto.getRandomValues(new Uint8Array(32))) })
    expect(res.status).toBe(401)
    expect(await messageOf(res)).toBe(VERIFICATION_FAILED)

    // The valid answer still works after all of that (its challenge was never taken).
    await tokenOf(await verifySignIn(valid))
  })

  it('malformed registration bodies get 400 with a message, and nothing is stored', async () => {
    const owner = await register()
    const auth = await SoftAuthenticator.create()
    const valid = await auth.register(await registrationOptions(owner.token))
    const cases: Array<[unknown, string]> = [
      [{}, 'response: '],
      [{ response: [] }, 'response: '],
      [{ response: valid, name: '' }, `name: ${WEBAUTHN_MESSAGES.nameInvalid}`],
      [{ response: valid, name: 'x'.repeat(65) }, `name: ${WEBAUTHN_MESSAGES.nameInvalid}`],
      [{ response: { ...valid, rawId: '%%%' } }, 'response.rawId: must be base64url'],
      [{ response: { ...valid, response: { ...valid.response, attestationObject: 'A'.repeat(12_001) } } }, 'response.response.attestationObject: '],
      [{ response: { ...valid, response: { ...valid.response, transports: 'usb' } } }, 'response.response.transports: '],
      [{ response: { ...valid, response: { ...valid.response, transports: Array(9).fill('usb') } } }, 'response.response.transports: '],
    ]
    for (const [body, prefix] of cases) {
      const res = await verifyRegistration(owner.token, body)
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400)
      expect(await messageOf(res)).toMatch(new RegExp(`^${escape(prefix)}`))
    }
    // A live challenge with an attestation object that is not CBOR.
    const res = await verifyRegistration(owner.token, { response: { ...valid, response: { ...valid.response, attestationObject: 'AAAAAAAA' } } })
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe(VERIFICATION_FAILED)
    expect(await credentialRows(owner.user.id)).toEqual([])
  })

  it('bodies over 16 KB get 413', async () => {
    const owner = await register()
    const huge = { response: { id: 'A'.repeat(17 * 1024) } }
    for (const [path, token] of [[WEBAUTHN_PATHS.loginVerify, undefined], [WEBAUTHN_PATHS.registerVerify, owner.token]] as const) {
      const res = await call(path, { token, body: huge })
      expect(res.status, path).toBe(413)
      expect(await messageOf(res)).toBe('The request body is too large.')
    }
    const rename = await call(`${WEBAUTHN_PATHS.keys}/x`, { method: 'PATCH', token: owner.token, body: { name: 'n'.repeat(20_000) } })
    expect(rename.status).toBe(413)
  })

  it('an over-long key id in the path is refused', async () => {
    const owner = await register()
    const res = await call(`${WEBAUTHN_PATHS.keys}/${'k'.repeat(1100)}`, { method: 'DELETE', token: owner.token })
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toMatch(/^id: /)
  })
})
