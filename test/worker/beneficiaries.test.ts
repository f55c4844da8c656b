import { mirrorAccount } from '../../worker/owner/account'
import { beforeAll, describe, expect, it } from 'vitest'
import type { OutboxMessage } from '../../contract/auth'
import { beneficiarySchema, CIRCLE_MESSAGES, formatFingerprint, type Beneficiary } from '../../contract/circle'
import { AUTH_ERRORS } from '../../contract/messages'
import { fromBase64, toBase64 } from '../../worker/lib/crypto'
import { signLinkToken } from '../../worker/lib/link-tokens'
import {
  addBeneficiary,
  call,
  env,
  linksIn,
  linkTokenIn,
  messageOf,
  nextMessageTo,
  outboxFor,
  postBeneficiary,
  register,
  rsaOaepPublicKey,
  spkiPublicKey,
  uniqueEmail,
  waitFor,
} from './helpers'
import { ownerRow, ownerRows } from './owner-helpers'
import { signedUpdate } from './vault-signing'

// Keys are slow to make: a few, once per file, reused by every test.
let KEY: string
let OTHER_KEY: string
let RSA_1024: string
let RSA_2176: string
let ECDSA_P256: string
let RSA_PSS_OID: string

beforeAll(async () => {
  ;[KEY, OTHER_KEY, RSA_1024, RSA_2176, ECDSA_P256] = await Promise.all([
    rsaOaepPublicKey(),
    rsaOaepPublicKey(),
    rsaOaepPublicKey(1024),
    // Long enough for the length check (416 base64 characters), but not 2048 bits.
    rsaOaepPublicKey(2176),
    spkiPublicKey({ name: 'ECDSA', namedCurve: 'P-256' }, ['sign', 'verify']),
  ])
  // A 2048-bit key whose algorithm identifier says id-RSASSA-PSS (1.2.840.113549.1.1.10) rather
  // than rsaEncryption: the right length, but not a key for RSA-OAEP.
  const der = fromBase64(KEY)
  expect([...der.subarray(6, 17)]).toEqual([0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01])
  der[16] = 0x0a
  RSA_PSS_OID = toBase64(der)
}, 60_000)

type Created = Beneficiary & { verificationEmailSent: boolean }

async function list(token: string): Promise<Beneficiary[]> {
  const res = await call('/api/beneficiaries', { token })
  expect(res.status).toBe(200)
  return (await res.json()) as Beneficiary[]
}

async function countFor(ownerId: string): Promise<number> {
  return (await ownerRow<{ n: number }>(ownerId, 'SELECT COUNT(*) AS n FROM beneficiaries'))!.n
}

/** The beneficiary's row in the owner's own database. */
async function rowOf(ownerId: string, id: string) {
  return ownerRow<Record<string, unknown>>(ownerId, 'SELECT * FROM beneficiaries WHERE id = ?', id)
}

async function put(token: string, id: string, body: Record<string, unknown>) {
  return call(`/api/beneficiaries/${id}`, { token, method: 'PUT', body: await signedUpdate(token, id, body) })
}

function resend(token: string, id: string) {
  return call(`/api/beneficiaries/${id}/resend-verification`, { token, method: 'POST' })
}

function remove(token: string, id: string) {
  return call(`/api/beneficiaries/${id}`, { token, method: 'DELETE' })
}

function verify(token: string, id?: string) {
  return call('/api/beneficiaries/verify', { body: { token, id } })
}

async function invitationTo(address: string, seen: OutboxMessage[] = []): Promise<OutboxMessage> {
  const message = await nextMessageTo(address, seen)
  expect(message.subject).toBe("You've Been Named as a Beneficiary")
  return message
}

async function verifyTokenFor(address: string, seen: OutboxMessage[] = []): Promise<string> {
  return linkTokenIn(await invitationTo(address, seen), '/verify-beneficiary')
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 5))

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

describe('GET /api/beneficiaries', () => {
  it('answers 401 without a session', async () => {
    const res = await call('/api/beneficiaries')
    expect(res.status).toBe(401)
    expect(await messageOf(res)).toBe(AUTH_ERRORS.notSignedIn)
  })

  it('is empty for a new owner', async () => {
    const owner = await register()
    expect(await list(owner.token)).toEqual([])
  })

  it("lists only the caller's beneficiaries, in creation order", async () => {
    const owner = await register()
    const other = await register()
    const created: Created[] = []
    for (const name of ['First Person', 'Second Person', 'Third Person']) {
      created.push(await addBeneficiary(owner.token, KEY, { fullName: name }))
      await pause()
    }
    const foreign = await addBeneficiary(other.token, KEY, { fullName: 'Foreign Person' })

    const items = await list(owner.token)
    expect(items.map((b) => b.id)).toEqual(created.map((b) => b.id))
    expect(items.map((b) => b.fullName)).toEqual(['First Person', 'Second Person', 'Third Person'])
    for (const [i, item] of items.entries()) {
      expect(beneficiarySchema.strict().parse(item)).toEqual(item)
      const { verificationEmailSent: _sent, ...shape } = created[i]!
      expect(item).toEqual(shape)
    }
    expect((await list(other.token)).map((b) => b.id)).toEqual([foreign.id])
  })
})

describe('POST /api/beneficiaries', () => {
  it('answers 201 with the Beneficiary shape and its defaults', async () => {
    const owner = await register()
    const email = uniqueEmail('Bea')
    const before = Date.now()
    const res = await postBeneficiary(owner.token, KEY, { fullName: '  Bea Beneficiary  ', email: ` ${email.toUpperCase()} `, relationship: ' Niece ' })
    expect(res.status).toBe(201)
    const body = (await res.json()) as Created
    expect(Object.keys(body).sort()).toEqual([...Object.keys(beneficiarySchema.shape), 'verificationEmailSent'].sort())
    const { verificationEmailSent, ...beneficiary } = body
    expect(verificationEmailSent).toBe(true)
    expect(beneficiarySchema.strict().parse(beneficiary)).toEqual(beneficiary)
    expect(beneficiary).toMatchObject({
      fullName: 'Bea Beneficiary',
      email: email.toLowerCase(),
      relationship: 'Niece',
      verified: false,
      identityVerified: false,
      identityStatus: 'unverified',
      sendAssetNotifications: true,
      delayNotifications: false,
      notificationStatus: 'pending',
      keyVersion: 1,
    })
    expect(beneficiary.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(new Date(beneficiary.createdAt).toISOString()).toBe(beneficiary.createdAt)
    expect(Date.parse(beneficiary.createdAt)).toBeGreaterThanOrEqual(before - 1000)
    expect(Date.parse(beneficiary.createdAt)).toBeLessThanOrEqual(Date.now() + 1000)
    expect(await list(owner.token)).toEqual([beneficiary])
  })

  it("fingerprints the public key as the Access Kit does: SHA-256 of the SPKI bytes, 16 groups", async () => {
    const owner = await register()
    const created = await addBeneficiary(owner.token, KEY)
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', fromBase64(KEY)))
    expect(created.publicKeyFingerprint).toBe(formatFingerprint(digest))
    const groups = created.publicKeyFingerprint.split(' ')
    expect(groups).toHaveLength(16)
    for (const group of groups) expect(group).toMatch(/^[0-9A-F]{4}$/)
    // A different key, a different fingerprint.
    const other = await addBeneficiary(owner.token, OTHER_KEY)
    expect(other.publicKeyFingerprint).not.toBe(created.publicKeyFingerprint)
  })

  it('stores the public key as sent, and the table has nowhere to keep a private key', async () => {
    const owner = await register()
    const created = await addBeneficiary(owner.token, KEY)
    const row = await rowOf(owner.user.id, created.id)
    expect(row?.public_key).toBe(KEY)
    const columns = await ownerRows<{ name: string }>(owner.user.id, 'PRAGMA table_info(beneficiaries)')
    expect(columns.length).toBeGreaterThan(5)
    expect(columns.filter((c) => /private|pkcs8|secret/i.test(c.name))).toEqual([])
  })

  it('takes the three options as given', async () => {
    const owner = await register()
    const created = await addBeneficiary(owner.token, KEY, {
      sendVerificationEmail: true,
      sendAssetNotifications: false,
      delayNotifications: true,
    })
    expect(created.sendAssetNotifications).toBe(false)
    expect(created.delayNotifications).toBe(true)
    expect(created.verificationEmailSent).toBe(true)
  })

  it('accepts the `verified: false` the spec client sends, and stays unverified', async () => {
    const owner = await register()
    const created = await addBeneficiary(owner.token, KEY, { verified: false })
    expect(created.verified).toBe(false)
  })

  describe('refuses a private key, whatever its value, and stores nothing', () => {
    const values: Array<[string, unknown]> = [
      ['a PEM private key', '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----'],
      ['a base64 pkcs8 blob', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ'],
      ['an empty string', ''],
      ['null', null],
      ['false', false],
      ['an object (a JWK)', { kty: 'RSA', d: 'secret' }],
    ]
    for (const [name, privateKey] of values) {
      it(`refuses ${name}`, async () => {
        const owner = await register()
        const email = uniqueEmail('refused')
        const res = await postBeneficiary(owner.token, KEY, { email, privateKey })
        expect(res.status).toBe(400)
        const message = await messageOf(res)
        expect(message).toContain(CIRCLE_MESSAGES.privateKeyRefused)
        expect(message).toBe(`privateKey: ${CIRCLE_MESSAGES.privateKeyRefused}`)
        expect(await list(owner.token)).toEqual([])
        expect(await countFor(owner.user.id)).toBe(0)
        expect(await outboxFor(email)).toEqual([])
      })
    }

    it('leaves the count unchanged for an owner who already has beneficiaries', async () => {
      const owner = await register()
      await addBeneficiary(owner.token, KEY)
      const res = await postBeneficiary(owner.token, KEY, { privateKey: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC' })
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toContain(CIRCLE_MESSAGES.privateKeyRefused)
      expect(await countFor(owner.user.id)).toBe(1)
    })
  })

  it('refuses `verified: true`, and stores nothing', async () => {
    const owner = await register()
    for (const verified of [true, 'true', 1]) {
      const res = await postBeneficiary(owner.token, KEY, { verified })
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toMatch(/^verified: /)
    }
    expect(await countFor(owner.user.id)).toBe(0)
  })

  describe('refuses a public key that is not RSA-OAEP 2048 in base64 SPKI, naming publicKey', () => {
    const keys: Array<[string, () => unknown]> = [
      ['a missing key', () => undefined],
      ['a number', () => 42],
      ['text that is not base64', () => 'this is not a public key'],
      ['junk base64 of the right length', () => 'A'.repeat(392)],
      ['random bytes of the right length', () => toBase64(crypto.getRandomValues(new Uint8Array(294)))],
      ['a 1024-bit RSA key', () => RSA_1024],
      ['a 2176-bit RSA key', () => RSA_2176],
      ['an ECDSA P-256 key', () => ECDSA_P256],
      ['an RSASSA-PSS key', () => RSA_PSS_OID],
      ['a truncated 2048-bit key', () => KEY.slice(0, 384)],
      ['a base64url key', () => KEY.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') + '-_'],
    ]
    for (const [name, key] of keys) {
      it(`refuses ${name}`, async () => {
        const owner = await register()
        const email = uniqueEmail('badkey')
        const res = await postBeneficiary(owner.token, KEY, { email, publicKey: key() })
        expect(res.status).toBe(400)
        expect(await messageOf(res)).toBe(`publicKey: ${CIRCLE_MESSAGES.publicKeyInvalid}`)
        expect(await countFor(owner.user.id)).toBe(0)
        expect(await outboxFor(email)).toEqual([])
      })
    }
  })

  describe('validation', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['a missing full name', { fullName: undefined }, `fullName: ${CIRCLE_MESSAGES.fullNameMin}`],
      ['a one-letter full name', { fullName: 'A' }, `fullName: ${CIRCLE_MESSAGES.fullNameMin}`],
      ['a full name of spaces around one letter', { fullName: '   A   ' }, 'fullName: Full name must be at least 2 characters'],
      ['a missing e-mail', { email: undefined }, 'email: Please enter a valid email address'],
      ['an invalid e-mail', { email: 'not-an-email' }, 'email: Please enter a valid email address'],
      ['a missing relationship', { relationship: undefined }, 'relationship: Relationship must be specified'],
      ['a one-letter relationship', { relationship: 'X' }, 'relationship: Relationship must be specified'],
      ['a blank relationship', { relationship: '   ' }, `relationship: ${CIRCLE_MESSAGES.relationshipMin}`],
      ['a non-boolean option', { delayNotifications: 'yes' }, 'delayNotifications: '],
    ]
    for (const [name, overrides, message] of cases) {
      it(`refuses ${name}`, async () => {
        const owner = await register()
        const res = await postBeneficiary(owner.token, KEY, overrides)
        expect(res.status).toBe(400)
        if (message.endsWith(': ')) expect(await messageOf(res)).toMatch(new RegExp(`^${message}`))
        else expect(await messageOf(res)).toBe(message)
        expect(await countFor(owner.user.id)).toBe(0)
      })
    }

    it('answers 401 without a session', async () => {
      const res = await call('/api/beneficiaries', { body: { fullName: 'No Session', email: uniqueEmail(), relationship: 'Son', publicKey: KEY } })
      expect(res.status).toBe(401)
    })
  })

  it('refuses the same address twice for one owner (409, whatever its case), but another owner may add it', async () => {
    const owner = await register()
    const email = uniqueEmail('twice')
    const first = await addBeneficiary(owner.token, KEY, { email })
    const again = await postBeneficiary(owner.token, OTHER_KEY, { email: email.toUpperCase(), fullName: 'Someone Else' })
    expect(again.status).toBe(409)
    expect(await messageOf(again)).toBe(CIRCLE_MESSAGES.duplicateBeneficiary)
    expect(await countFor(owner.user.id)).toBe(1)
    expect((await list(owner.token)).map((b) => b.id)).toEqual([first.id])
    expect(await outboxFor(email)).toHaveLength(1)

    const other = await register()
    const theirs = await addBeneficiary(other.token, KEY, { email })
    expect(theirs.email).toBe(email)
    expect(theirs.id).not.toBe(first.id)
  })

  describe('plan limits', () => {
    it('allows 3 beneficiaries on the Basic plan, and answers 402 to the 4th', async () => {
      const owner = await register()
      for (let i = 0; i < 3; i++) await addBeneficiary(owner.token, KEY)
      const email = uniqueEmail('fourth')
      const fourth = await postBeneficiary(owner.token, KEY, { email })
      expect(fourth.status).toBe(402)
      expect(await messageOf(fourth)).toBe(CIRCLE_MESSAGES.beneficiaryLimit(3))
      expect(await countFor(owner.user.id)).toBe(3)
      expect(await outboxFor(email)).toEqual([])

      // Removing one makes room again.
      const [first] = await list(owner.token)
      expect((await remove(owner.token, first!.id)).status).toBe(200)
      expect((await postBeneficiary(owner.token, KEY, { email })).status).toBe(201)
      expect(await countFor(owner.user.id)).toBe(3)
    })

    it('applies the Basic limit to an explicit basic plan too', async () => {
      const owner = await register()
      await env.DB.prepare("UPDATE users SET plan_tier = 'basic' WHERE id = ?").bind(owner.user.id).run()
      await mirrorAccount(owner.user.id)
      for (let i = 0; i < 3; i++) await addBeneficiary(owner.token, KEY)
      const fourth = await postBeneficiary(owner.token, KEY)
      expect(fourth.status).toBe(402)
      expect(await messageOf(fourth)).toBe(CIRCLE_MESSAGES.beneficiaryLimit(3))
    })

    it('lets only 3 of 6 concurrent creates through', async () => {
      const owner = await register()
      const responses = await Promise.all(Array.from({ length: 6 }, () => postBeneficiary(owner.token, KEY)))
      const statuses = responses.map((r) => r.status).sort()
      expect(statuses).toEqual([201, 201, 201, 402, 402, 402])
      for (const res of responses) {
        if (res.status === 402) expect(await messageOf(res)).toBe(CIRCLE_MESSAGES.beneficiaryLimit(3))
        else await res.body?.cancel()
      }
      expect(await countFor(owner.user.id)).toBe(3)
      expect(await list(owner.token)).toHaveLength(3)
    })

    it('lets a premium owner add more than 3', async () => {
      const owner = await register()
      await env.DB.prepare("UPDATE users SET plan_tier = 'premium' WHERE id = ?").bind(owner.user.id).run()
      await mirrorAccount(owner.user.id)
      for (let i = 0; i < 5; i++) await addBeneficiary(owner.token, KEY)
      expect(await countFor(owner.user.id)).toBe(5)
      expect(await list(owner.token)).toHaveLength(5)
    })
  })

  describe('the invitation e-mail', () => {
    it('goes to the beneficiary with the owner name and the verify, opt-in and unsubscribe links', async () => {
      const owner = await register({ displayName: 'Olive Ownerton' })
      const email = uniqueEmail('invited')
      const created = await addBeneficiary(owner.token, KEY, { email, fullName: 'Ivy Invited', relationship: 'Stepdaughter' })
      expect(created.verificationEmailSent).toBe(true)

      const messages = await outboxFor(email)
      expect(messages).toHaveLength(1)
      const message = messages[0]!
      expect(message.to).toBe(email)
      expect(message.subject).toBe("You've Been Named as a Beneficiary")
      for (const part of [message.text, message.html]) {
        expect(part).toContain('Olive Ownerton')
        expect(part).toContain('Ivy Invited')
        expect(part).toContain('Stepdaughter')
      }
      // Nothing is sent to the owner.
      expect(await outboxFor(owner.email)).toEqual([])

      const [verifyUrl] = linksIn(message, '/verify-beneficiary')
      expect(verifyUrl?.origin).toBe('http://localhost:8787')
      expect(verifyUrl?.searchParams.get('id')).toBe(created.id)
      expect(verifyUrl?.searchParams.get('token')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
      for (const path of ['/beneficiary-opt-in', '/unsubscribe']) {
        const urls = linksIn(message, path)
        expect(urls).toHaveLength(1)
        expect(urls[0]!.origin).toBe('http://localhost:8787')
        expect(urls[0]!.searchParams.get('token')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
      }
      // The HTML carries the same links (with & written as an entity).
      const rawLinks = message.text.match(/https?:\/\/\S+/g) ?? []
      expect(rawLinks.length).toBeGreaterThanOrEqual(3)
      for (const raw of rawLinks) expect(message.html).toContain(`href="${escapeHtml(raw)}"`)
      // It never carries key material.
      expect(message.text).not.toContain(KEY.slice(0, 60))
    })

    it('keeps the relationship out of the message in secrecy mode', async () => {
      const owner = await register({ displayName: 'Quiet Owner' })
      const email = uniqueEmail('secret')
      await addBeneficiary(owner.token, KEY, { email, relationship: 'Confidante', delayNotifications: true })
      const [message] = await outboxFor(email)
      expect(message).toBeDefined()
      expect(message!.text).not.toContain('Confidante')
      expect(message!.html).not.toContain('Confidante')
      expect(message!.text).toContain('Secrecy Mode')
      expect(message!.text).toContain('Quiet Owner')
      expect(linksIn(message!, '/verify-beneficiary')).toHaveLength(1)
    })

    it('is not sent when sendVerificationEmail is false', async () => {
      const owner = await register()
      const email = uniqueEmail('quiet')
      const created = await addBeneficiary(owner.token, KEY, { email, sendVerificationEmail: false })
      expect(created.verificationEmailSent).toBe(false)
      expect(await outboxFor(email)).toEqual([])
      expect((await list(owner.token)).map((b) => b.id)).toEqual([created.id])
      const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM email_outbox WHERE to_address = ?").bind(email).first<{ n: number }>()
      expect(row!.n).toBe(0)
    })
  })
})

describe('PUT /api/beneficiaries/:id', () => {
  it('updates the name, relationship and both notification options', async () => {
    const owner = await register()
    const created = await addBeneficiary(owner.token, KEY)
    const sent = await outboxFor(created.email)

    const res = await put(owner.token, created.id, {
      fullName: 'Renamed Person',
      relationship: 'Godson',
      sendAssetNotifications: false,
      delayNotifications: true,
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Created
    const { verificationEmailSent, ...updated } = body
    expect(verificationEmailSent).toBe(false)
    expect(beneficiarySchema.strict().parse(updated)).toEqual(updated)
    expect(updated).toEqual({
      ...(({ verificationEmailSent: _v, ...rest }) => rest)(created),
      fullName: 'Renamed Person',
      relationship: 'Godson',
      sendAssetNotifications: false,
      delayNotifications: true,
      // Restated by the vault over the new name and relationship.
      keySignature: expect.stringMatching(/^[A-Za-z0-9+/]{86}==$/),
      statementSequence: created.statementSequence! + 1,
    })
    expect(updated.keySignature).not.toBe(created.keySignature)
    expect(await list(owner.token)).toEqual([updated])
    expect(await outboxFor(created.email)).toEqual(sent)

    // One field at a time works too.
    const single = await put(owner.token, created.id, { sendAssetNotifications: true })
    expect(single.status).toBe(200)
    expect(((await single.json()) as Created).sendAssetNotifications).toBe(true)
    expect((await list(owner.token))[0]).toMatchObject({ sendAssetNotifications: true, delayNotifications: true, fullName: 'Renamed Person' })
  })

  it('refuses `verified` in the body (true or false), and changes nothing', async () => {
    const owner = await register()
    const created = await addBeneficiary(owner.token, KEY)
    const before = await rowOf(owner.user.id, created.id)
    for (const body of [{ verified: true }, { verified: false }, { verified: true, fullName: 'Sneaky Change' }]) {
      const res = await put(owner.token, created.id, body)
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe(`verified: ${CIRCLE_MESSAGES.verifiedNotSettable}`)
    }
    expect(await rowOf(owner.user.id, created.id)).toEqual(before)
    expect((await list(owner.token))[0]!.verified).toBe(false)
  })

  it('refuses a private key', async () => {
    const owner = await register()
    const created = await addBeneficiary(owner.token, KEY)
    const before = await rowOf(owner.user.id, created.id)
    const res = await put(owner.token, created.id, { privateKey: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', fullName: 'New Name' })
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toContain(CIRCLE_MESSAGES.privateKeyRefused)
    expect(await rowOf(owner.user.id, created.id)).toEqual(before)
  })

  it('refuses an empty body and invalid fields', async () => {
    const owner = await register()
    const created = await addBeneficiary(owner.token, KEY)
    const before = await rowOf(owner.user.id, created.id)
    const empty = await put(owner.token, created.id, {})
    expect(empty.status).toBe(400)
    expect(await messageOf(empty)).toBe('body: Nothing to update')
    const shortName = await put(owner.token, created.id, { fullName: 'A' })
    expect(shortName.status).toBe(400)
    expect(await messageOf(shortName)).toBe(`fullName: ${CIRCLE_MESSAGES.fullNameMin}`)
    const badEmail = await put(owner.token, created.id, { email: 'nope' })
    expect(badEmail.status).toBe(400)
    expect(await messageOf(badEmail)).toBe('email: Please enter a valid email address')
    const badRelationship = await put(owner.token, created.id, { relationship: '' })
    expect(badRelationship.status).toBe(400)
    expect(await messageOf(badRelationship)).toBe(`relationship: ${CIRCLE_MESSAGES.relationshipMin}`)
    expect(await rowOf(owner.user.id, created.id)).toEqual(before)
  })

  it('a new address for an heir who unsubscribed is invited: the choice of the old address does not carry over', async () => {
    const owner = await register()
    const created = await addBeneficiary(owner.token, KEY)
    const choice = signLinkToken(env, 'beneficiaryNotifications', created.id, { owner: owner.user.id })
    expect((await call('/api/beneficiary-notifications/unsubscribe', { body: { token: choice } })).status).toBe(200)
    const newEmail = uniqueEmail('moved')
    const res = await put(owner.token, created.id, { email: newEmail })
    expect(res.status).toBe(200)
    expect(((await res.json()) as Created).verificationEmailSent).toBe(true)
    await invitationTo(newEmail)
  })

  it('un-verifies a verified beneficiary whose address changes, and invites the new address', async () => {
    const owner = await register()
    const created = await addBeneficiary(owner.token, KEY)
    const oldToken = await verifyTokenFor(created.email)
    expect((await verify(oldToken, created.id)).status).toBe(200)
    expect((await list(owner.token))[0]!.verified).toBe(true)

    const newEmail = uniqueEmail('moved')
    const res = await put(owner.token, created.id, { email: newEmail.toUpperCase() })
    expect(res.status).toBe(200)
    const updated = (await res.json()) as Created
    expect(updated.email).toBe(newEmail)
    expect(updated.verified).toBe(false)
    expect(updated.verificationEmailSent).toBe(true)
    expect((await list(owner.token))[0]).toMatchObject({ id: created.id, email: newEmail, verified: false })

    const invitation = await invitationTo(newEmail)
    expect(linksIn(invitation, '/verify-beneficiary')[0]!.searchParams.get('id')).toBe(created.id)
    // The old address is told of the change (and gets no link); so is the owner.
    const toOld = await waitFor(async () => (await outboxFor(created.email)).find((m) => m.subject.includes('changed your details')))
    expect(toOld.text).not.toContain('/verify-beneficiary')
    expect(await outboxFor(created.email)).toHaveLength(2)
    await waitFor(async () => (await outboxFor(owner.email)).find((m) => m.subject === `The e-mail address of ${created.fullName} was changed`))

    const old = await verify(oldToken, created.id)
    expect(old.status).toBe(400)
    expect(await messageOf(old)).toBe(CIRCLE_MESSAGES.linkInvalid)
    expect((await list(owner.token))[0]!.verified).toBe(false)

    const fresh = await verify(linkTokenIn(invitation, '/verify-beneficiary'), created.id)
    expect(fresh.status).toBe(200)
    expect((await list(owner.token))[0]!.verified).toBe(true)
  })

  it('voids the unused link of an unverified beneficiary whose address changes', async () => {
    const owner = await register()
    const created = await addBeneficiary(owner.token, KEY)
    const oldToken = await verifyTokenFor(created.email)
    const newEmail = uniqueEmail('moved')
    expect((await put(owner.token, created.id, { email: newEmail })).status).toBe(200)
    const old = await verify(oldToken, created.id)
    expect(old.status).toBe(400)
    expect(await messageOf(old)).toBe(CIRCLE_MESSAGES.linkInvalid)
    expect((await verify(await verifyTokenFor(newEmail), created.id)).status).toBe(200)
  })

  it('treats the same address in another case as no change', async () => {
    const owner = await register()
    const created = await addBeneficiary(owner.token, KEY)
    const token = await verifyTokenFor(created.email)
    expect((await verify(token, created.id)).status).toBe(200)
    const res = await put(owner.token, created.id, { email: created.email.toUpperCase() })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Created
    expect(body.verified).toBe(true)
    expect(body.verificationEmailSent).toBe(false)
    expect(await outboxFor(created.email)).toHaveLength(1)
  })

  it("refuses (409) an address already used by another of the owner's beneficiaries", async () => {
    const owner = await register()
    const first = await addBeneficiary(owner.token, KEY)
    const second = await addBeneficiary(owner.token, KEY)
    const before = await rowOf(owner.user.id, second.id)
    const res = await put(owner.token, second.id, { email: first.email.toUpperCase() })
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(CIRCLE_MESSAGES.duplicateBeneficiary)
    expect(await rowOf(owner.user.id, second.id)).toEqual(before)
    expect(await outboxFor(first.email)).toHaveLength(1)

    // Another owner's beneficiary with that address is no obstacle.
    const other = await register()
    const theirs = await addBeneficiary(other.token, KEY)
    const moved = await put(other.token, theirs.id, { email: first.email })
    expect(moved.status).toBe(200)
    expect(((await moved.json()) as Created).email).toBe(first.email)
  })
})

describe('POST /api/beneficiaries/:id/resend-verification', () => {
  it('sends a new link; the previous one stops working and the new one works', async () => {
    const owner = await register()
    const created = await addBeneficiary(owner.token, KEY)
    const first = await invitationTo(created.email)
    const firstToken = linkTokenIn(first, '/verify-beneficiary')

    const res = await resend(owner.token, created.id)
    expect(res.status).toBe(200)
    const body = (await res.json()) as Created
    expect(body.verificationEmailSent).toBe(true)
    const { verificationEmailSent: _sent, ...shape } = body
    expect(beneficiarySchema.strict().parse(shape)).toEqual(shape)
    expect(shape.id).toBe(created.id)
    expect(shape.verified).toBe(false)

    const second = await invitationTo(created.email, [first])
    expect(await outboxFor(created.email)).toHaveLength(2)
    const secondToken = linkTokenIn(second, '/verify-beneficiary')
    expect(secondToken).not.toBe(firstToken)

    const stale = await verify(firstToken, created.id)
    expect(stale.status).toBe(400)
    expect(await messageOf(stale)).toBe(CIRCLE_MESSAGES.linkInvalid)
    expect((await list(owner.token))[0]!.verified).toBe(false)

    expect((await verify(secondToken, created.id)).status).toBe(200)
    expect((await list(owner.token))[0]!.verified).toBe(true)
  })

  it('also works for a beneficiary added without an e-mail', async () => {
    const owner = await register()
    const created = await addBeneficiary(owner.token, KEY, { sendVerificationEmail: false })
    const res = await resend(owner.token, created.id)
    expect(res.status).toBe(200)
    expect(((await res.json()) as Created).verificationEmailSent).toBe(true)
    expect((await verify(await verifyTokenFor(created.email), created.id)).status).toBe(200)
  })

  it('answers 409 for a verified beneficiary, and sends nothing', async () => {
    const owner = await register()
    const created = await addBeneficiary(owner.token, KEY)
    expect((await verify(await verifyTokenFor(created.email), created.id)).status).toBe(200)
    const res = await resend(owner.token, created.id)
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(CIRCLE_MESSAGES.alreadyVerified)
    expect(await outboxFor(created.email)).toHaveLength(1)
  })
})

describe('DELETE /api/beneficiaries/:id', () => {
  it('removes it; a second delete is 404; its link no longer works', async () => {
    const owner = await register()
    const kept = await addBeneficiary(owner.token, KEY)
    const created = await addBeneficiary(owner.token, KEY)
    const token = await verifyTokenFor(created.email)

    const res = await remove(owner.token, created.id)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'Beneficiary removed.' })
    expect((await list(owner.token)).map((b) => b.id)).toEqual([kept.id])
    expect(await rowOf(owner.user.id, created.id)).toBeNull()

    const again = await remove(owner.token, created.id)
    expect(again.status).toBe(404)
    expect(await messageOf(again)).toBe(CIRCLE_MESSAGES.beneficiaryNotFound)

    const link = await verify(token, created.id)
    expect(link.status).toBe(400)
    expect(await messageOf(link)).toBe(CIRCLE_MESSAGES.linkInvalid)
  })
})

describe("another owner's beneficiary", () => {
  it('is invisible: PUT, DELETE and resend answer 404 and change nothing', async () => {
    const owner = await register()
    const intruder = await register()
    const created = await addBeneficiary(owner.token, KEY)
    await addBeneficiary(intruder.token, KEY)
    const before = await rowOf(owner.user.id, created.id)
    const mails = await outboxFor(created.email)

    expect((await list(intruder.token)).map((b) => b.id)).not.toContain(created.id)
    const attempts = [
      await put(intruder.token, created.id, { fullName: 'Hijacked Name' }),
      await put(intruder.token, created.id, { email: uniqueEmail('hijack') }),
      await remove(intruder.token, created.id),
      await resend(intruder.token, created.id),
    ]
    for (const res of attempts) {
      expect(res.status).toBe(404)
      expect(await messageOf(res)).toBe(CIRCLE_MESSAGES.beneficiaryNotFound)
    }
    expect(await rowOf(owner.user.id, created.id)).toEqual(before)
    expect(await outboxFor(created.email)).toEqual(mails)
    expect((await list(owner.token)).map((b) => b.id)).toEqual([created.id])
  })

  it('gives nothing away about its state: 404, not 409, whatever it is', async () => {
    const owner = await register()
    const intruder = await register()
    const created = await addBeneficiary(owner.token, KEY)
    const intruders = await addBeneficiary(intruder.token, KEY)
    expect((await verify(await verifyTokenFor(created.email), created.id)).status).toBe(200)
    const before = await rowOf(owner.user.id, created.id)
    // Verified: a resend by its owner would be 409; by anyone else it is simply not found.
    await expect(resend(intruder.token, created.id).then((r) => r.status)).resolves.toBe(404)
    // An address the intruder already uses: still 404, not a duplicate conflict.
    const res = await put(intruder.token, created.id, { email: intruders.email })
    expect(res.status).toBe(404)
    expect(await messageOf(res)).toBe(CIRCLE_MESSAGES.beneficiaryNotFound)
    expect(await rowOf(owner.user.id, created.id)).toEqual(before)
  })

  it('an unknown id is 404, a malformed one a 4xx with a message (never 500)', async () => {
    const owner = await register()
    const unknown = crypto.randomUUID()
    for (const res of [
      await put(owner.token, unknown, { fullName: 'Nobody Here' }),
      await remove(owner.token, unknown),
      await resend(owner.token, unknown),
    ]) {
      expect(res.status).toBe(404)
      expect(await messageOf(res)).toBe(CIRCLE_MESSAGES.beneficiaryNotFound)
    }
    for (const id of ['not-a-uuid', '1', "x'%20OR%201=1", 'a'.repeat(200)]) {
      for (const res of [
        await put(owner.token, id, { fullName: 'Nobody Here' }),
        await remove(owner.token, id),
        await resend(owner.token, id),
      ]) {
        expect(res.status).toBeGreaterThanOrEqual(400)
        expect(res.status).toBeLessThan(500)
        expect((await messageOf(res)).length).toBeGreaterThan(0)
      }
    }
  })

  it('PUT, DELETE and resend answer 401 without a session', async () => {
    const owner = await register()
    const created = await addBeneficiary(owner.token, KEY)
    for (const res of [
      await call(`/api/beneficiaries/${created.id}`, { method: 'PUT', body: { fullName: 'No Session' } }),
      await call(`/api/beneficiaries/${created.id}`, { method: 'DELETE' }),
      await call(`/api/beneficiaries/${created.id}/resend-verification`, { method: 'POST' }),
    ]) {
      expect(res.status).toBe(401)
    }
    expect((await list(owner.token)).map((b) => b.fullName)).toEqual([created.fullName])
  })
})
