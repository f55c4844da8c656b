import { mirrorAccount } from '../../worker/owner/account'
import { NOT_ME_MESSAGES } from '../../contract/fresh-proof'
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { exports } from 'cloudflare:workers'
import { decodeJwt, SignJWT } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { CIRCLE_MESSAGES } from '../../contract/circle'
import { AUTH_COOKIE } from '../../contract/constants'
import { RELEASE_MESSAGES } from '../../contract/releases'
import { EMAIL_CONFIRMATION } from '../../contract/messages'
import { ID_DOCUMENT_MAX_BYTES } from '../../contract/identity'
import { CHUNK_OVERHEAD_BYTES, partSize, UPLOAD_CHUNK_BYTES } from '../../contract/vault-items'
import { app } from '../../worker/app'
import { LINK_PURPOSES, signLinkToken, type LinkPurpose } from '../../worker/lib/link-tokens'
import { SESSION_TTL_SECONDS } from '../../contract/constants'
import { createTrigger, manualReleaseOk, ownerWithItem, policyCovering } from './engine-helpers'
import { addApprover, addBeneficiary, call, env, freshIp, linkTokenIn, nextMessageTo, outboxFor, register, sessionFor, uniqueEmail, waitFor } from './helpers'
import { ROUTES, type Access, type Fixture, type LinkSpec, type RouteSpec } from './security-suite-routes'
import { stripeEnv } from './stripe-env'
import { ownerRow, ownerRows } from './owner-helpers'
import { publicKey, putPart, startUpload, uploadItem, withManifestSignature } from './vault-helpers'
import { WELL_FORMED_SIGNATURE } from './vault-signing'
import { LINK_LIFETIME_SECONDS } from './link-lifetimes'

// The security suite: every /api route (security-suite-routes.ts classifies them all) called
// without a session, with a forged, expired or revoked one, as the wrong kind of user, by another
// owner naming owner A's things, and fed malformed, wrong-typed, oversized and absurd input.
// Nothing may answer 5xx, and nothing may hand another owner's data to anyone.

/**
 * Cases that fail today because of a server bug, by the label the suite gives the request. They
 * are reported, not hidden: a listed case that stops failing fails its test (remove it here).
 */
const KNOWN_BUGS: Record<string, string> = {}

// --- Sending and recording ------------------------------------------------------------------------

interface Answer {
  label: string
  status: number
  type: string
  text: string
}

/** Every answer the suite received: the last test checks that none was a 5xx. */
const answers: Answer[] = []

interface SendOptions {
  method: string
  token?: string
  cookie?: string
  json?: unknown
  body?: BodyInit
  contentType?: string
  headers?: Record<string, string>
}

async function send(label: string, path: string, o: SendOptions): Promise<Answer> {
  const headers: Record<string, string> = { 'cf-connecting-ip': freshIp(), ...o.headers }
  let body = o.body
  if (o.json !== undefined) {
    body = JSON.stringify(o.json)
    headers['content-type'] = 'application/json'
  }
  if (o.contentType) headers['content-type'] = o.contentType
  if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`
  if (o.cookie) headers.cookie = o.cookie
  const res = await exports.default.fetch(new Request(`http://localhost${path}`, { method: o.method, headers, body }))
  const answer = { label, status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() }
  answers.push(answer)
  return answer
}

// --- Checking -------------------------------------------------------------------------------------

const brief = (a: Answer) => `${a.label}: ${a.status} ${a.text.slice(0, 160)}`

/** What is wrong with an answer that should be a 4xx (one of `allowed`, if given) with a JSON `{message}`. */
function notClientError(a: Answer, allowed?: number[]): string | undefined {
  const ok = allowed ? allowed.includes(a.status) : a.status >= 400 && a.status < 500 && a.status !== 429
  if (!ok) return `${brief(a)} (expected ${allowed?.join(' or ') ?? 'a 4xx'})`
  let message: unknown
  try {
    message = (JSON.parse(a.text) as { message?: unknown }).message
  } catch {
    message = undefined
  }
  if (!a.type.startsWith('application/json') || typeof message !== 'string' || message === '') return `${brief(a)} (no JSON {message})`
  return undefined
}

function notStatus(a: Answer, status: number): string | undefined {
  return a.status === status ? undefined : `${brief(a)} (expected ${status})`
}

/** Collects the problems of one test, and fails it on any that KNOWN_BUGS does not list. */
class Findings {
  private problems = new Map<string, string>()
  private checked = new Set<string>()

  note(label: string, problem: string | undefined) {
    this.checked.add(label)
    if (problem) this.problems.set(label, problem)
  }

  expectNone() {
    const unexpected = [...this.problems].filter(([label]) => !(label in KNOWN_BUGS)).map(([, problem]) => problem)
    const fixed = Object.keys(KNOWN_BUGS).filter((label) => this.checked.has(label) && !this.problems.has(label))
    expect(unexpected, 'unexpected answers').toEqual([])
    expect(fixed, 'known bugs that no longer reproduce: remove them from KNOWN_BUGS').toEqual([])
  }
}

// --- The route table ------------------------------------------------------------------------------

type Route = { key: string; method: string; path: string; spec: RouteSpec }

const routes = (...access: Access[]): Route[] =>
  Object.entries(ROUTES)
    .filter(([, spec]) => access.includes(spec.access))
    .map(([key, spec]) => {
      const [method, path] = key.split(' ') as [string, string]
      return { key, method, path, spec }
    })

/** The app's own endpoints under /api (middleware and the catch-all 404 are registered as ALL). */
function appEndpoints(): string[] {
  const keys = app.routes.filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/')).map((r) => `${r.method} ${r.path}`)
  return [...new Set(keys)].sort()
}

function fill(path: string, params: Record<string, string>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`no value for :${name} in ${path}`)
    return params[name]!
  })
}

const paramNames = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!)

// --- Bodies ---------------------------------------------------------------------------------------

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])
const png = () => new File([PNG], 'id.png', { type: 'image/png' })

function form(fields: Record<string, string | Blob>): FormData {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.append(name, value)
  return data
}

/** A well-formed body for the route (owner A's things), ready for send(); `extra` joins a JSON body. */
function bodyOf(spec: RouteSpec, f: Fixture, extra: Record<string, unknown> = {}): Partial<SendOptions> {
  if (!spec.body || !spec.sample) return {}
  const sample = spec.sample(f)
  if (spec.body === 'binary') return { body: sample as Uint8Array, contentType: 'application/octet-stream' }
  if (spec.body === 'multipart') return { body: form({ ...(sample as Record<string, string>), [spec.fileField!]: png() }) }
  return { json: { ...(sample as object), ...extra } }
}

/** A stream of `size` bytes with no declared length (as a chunked upload arrives). */
function stream(size: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(256 * 1024).fill(0x20)
  let sent = 0
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close()
      const n = Math.min(chunk.length, size - sent)
      sent += n
      controller.enqueue(chunk.subarray(0, n))
    },
  })
}

const JSON_LIMIT = 16 * 1024
const PART_LIMIT = UPLOAD_CHUNK_BYTES + CHUNK_OVERHEAD_BYTES
const UPLOAD_LIMIT = 2 * ID_DOCUMENT_MAX_BYTES + 64 * 1024

/** The value with each field of an object (or the value itself) replaced by one of another type. */
function wrongType(value: unknown): unknown {
  if (Array.isArray(value)) return { notAnArray: true }
  if (value === null) return 12345
  if (typeof value === 'string') return 12345
  if (typeof value === 'number') return 'not a number'
  if (typeof value === 'boolean') return 'yes'
  if (typeof value === 'object') return 'not an object'
  return null
}

function wrongFields(sample: unknown): unknown {
  if (typeof sample !== 'object' || sample === null || Array.isArray(sample)) return wrongType(sample)
  return Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, wrongType(v)]))
}

/** The same shape, every leaf of the wrong type (nested objects and arrays kept). */
function wrongLeaves(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(wrongLeaves)
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wrongLeaves(v)]))
  return wrongType(value)
}

/** The same shape, every leaf at an extreme: long non-ASCII strings, huge numbers. */
function extremeLeaves(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(extremeLeaves)
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, extremeLeaves(v)]))
  if (typeof value === 'string') return '\u00e4\u202e\u{1F5DD}'.repeat(300)
  if (typeof value === 'number') return -1e308
  return value
}

interface Variant {
  name: string
  body: BodyInit
  contentType?: string
  /** The statuses allowed (any 4xx with a JSON message unless told). */
  expect?: number[]
}

function jsonVariants(sample: unknown, limited: boolean, limit = JSON_LIMIT): Variant[] {
  const text = JSON.stringify(sample)
  const tooLarge = limited ? [413] : undefined
  return [
    { name: 'invalid JSON', body: '{' },
    { name: 'truncated JSON', body: text.slice(0, -1) },
    { name: 'empty body', body: '' },
    { name: 'JSON array', body: '[]' },
    { name: 'JSON number', body: '42' },
    { name: 'JSON string', body: '"text"' },
    { name: 'JSON null', body: 'null' },
    { name: 'JSON true', body: 'true' },
    { name: 'every field wrong-typed', body: JSON.stringify(wrongFields(sample)) },
    { name: 'every leaf wrong-typed', body: JSON.stringify(wrongLeaves(sample)) },
    { name: 'extreme values', body: JSON.stringify(extremeLeaves(sample)) },
    { name: 'prototype keys', body: '{"__proto__":{"role":"admin","isAdmin":true},"constructor":{"prototype":{"role":"admin"}}}' },
    { name: 'deeply nested', body: '['.repeat(4000) + ']'.repeat(4000) },
    { name: 'trailing garbage', body: `${text}garbage` },
    { name: 'wrong-typed JSON sent as text/plain', body: JSON.stringify(wrongFields(sample)), contentType: 'text/plain' },
    { name: 'oversized', body: JSON.stringify({ ...(sample as object), padding: 'x'.repeat(limit) }), expect: tooLarge },
    { name: 'oversized, streamed', body: stream(limit + 1024), expect: tooLarge },
  ]
}

function binaryVariants(): Variant[] {
  const expected = partSize(1, 100)
  return [
    { name: 'empty part', body: new Uint8Array(0), contentType: 'application/octet-stream' },
    { name: 'part one byte short', body: new Uint8Array(expected - 1), contentType: 'application/octet-stream' },
    { name: 'part one byte long', body: new Uint8Array(expected + 1), contentType: 'application/octet-stream' },
    { name: 'JSON instead of bytes', body: '{', contentType: 'application/json' },
    { name: 'oversized part, streamed', body: stream(PART_LIMIT + 1), contentType: 'application/octet-stream', expect: [413] },
  ]
}

function multipartVariants(spec: RouteSpec, f: Fixture): Variant[] {
  const fields = spec.sample!(f) as Record<string, string>
  const file = spec.fileField!
  return [
    { name: 'JSON instead of a form', body: JSON.stringify(fields), contentType: 'application/json' },
    { name: 'invalid JSON instead of a form', body: '{', contentType: 'application/json' },
    { name: 'form without a boundary', body: 'garbage', contentType: 'multipart/form-data' },
    { name: 'form with a broken boundary', body: '--x\r\ngarbage', contentType: 'multipart/form-data; boundary=x' },
    { name: 'form without the file', body: form(fields) },
    { name: 'file sent as text', body: form({ ...fields, [file]: 'not a file' }) },
    { name: 'empty file', body: form({ ...fields, [file]: new File([], 'empty.png', { type: 'image/png' }) }) },
    { name: 'file that is no image', body: form({ ...fields, [file]: new File(['#!/bin/sh\necho hi'], 'id.png', { type: 'image/png' }) }) },
    { name: 'unknown document type', body: form({ ...fields, documentType: 'library_card', [file]: png() }) },
    { name: 'overlong document number', body: form({ ...fields, documentNumber: '9'.repeat(5000), [file]: png() }) },
    { name: 'oversized form, streamed', body: stream(UPLOAD_LIMIT + 1), contentType: 'multipart/form-data; boundary=x', expect: [413] },
  ]
}

/** Path parameters no route should accept (already URL-encoded where needed). */
const ABSURD_PARAMS: Array<[string, string]> = [
  ['very long', 'a'.repeat(4096)],
  ['encoded ../', encodeURIComponent('../../../etc/passwd')],
  ['dot-dot segment', '..'],
  ['empty', ''],
  ['unicode', encodeURIComponent('\u{1F5DD}-\u00f1-\u6f22\u5b57-\u202e')],
  ['NUL', '%00'],
  ['malformed percent-encoding', '%E0%A4%A'],
  ['SQL', encodeURIComponent("' OR '1'='1")],
  ['JSON', encodeURIComponent('{"$ne":null}')],
  ['nil UUID', '00000000-0000-0000-0000-000000000000'],
  ['unknown UUID', '3f1e9c4a-6b2d-4e8f-9a7c-1d2e3f4a5b6c'],
  ['negative', '-1'],
  ['zero', '0'],
  ['fraction', '1.5'],
  ['overflowing number', '1e400'],
  ['hex number', '0x1'],
  ['spaces', '%20%20'],
]

// --- Tokens ---------------------------------------------------------------------------------------

const JWT_SECRET = 'test-only-secret-that-is-long-enough-for-hs256-0123456789'
const OTHER_SECRET = 'an-entirely-different-secret-that-is-long-enough-9876543210'
const SESSION_AUDIENCE = 'legacy-vault:session'

interface JwtFields {
  sub: string
  aud: string
  claims?: Record<string, unknown>
  secret?: string
  iat?: number
  exp?: number
}

function jwt({ sub, aud, claims = {}, secret = JWT_SECRET, iat, exp }: JwtFields): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('legacy-vault')
    .setAudience(aud)
    .setSubject(sub)
    .setIssuedAt(iat ?? now)
    .setExpirationTime(exp ?? now + 3600)
    .sign(new TextEncoder().encode(secret))
}

/** The token with one character of its signature changed. */
function flipSignature(token: string): string {
  const [header, payload, signature] = token.split('.') as [string, string, string]
  const i = Math.floor(signature.length / 2)
  return `${header}.${payload}.${signature.slice(0, i)}${signature[i] === 'A' ? 'B' : 'A'}${signature.slice(i + 1)}`
}

const base64url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')

/** The token's claims with `patch` applied, under its original signature. */
function swapClaims(token: string, patch: Record<string, unknown>): string {
  const [header, , signature] = token.split('.') as [string, string, string]
  return `${header}.${base64url(JSON.stringify({ ...decodeJwt(token), ...patch }))}.${signature}`
}

/** The token's claims, unsigned (alg "none"). */
function unsigned(token: string): string {
  return `${base64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64url(JSON.stringify(decodeJwt(token)))}.`
}

interface BadSession {
  name: string
  token?: string
  cookie?: string
}

/** Every way a request can come without a live session of owner A's. */
async function badSessions(a: Owner, b: Owner, f: Fixture): Promise<BadSession[]> {
  const sid = decodeJwt(a.token).sid as string
  const now = Math.floor(Date.now() / 1000)
  // Opened long enough ago that it is over.
  const expired = await sessionFor(a.userId, Date.now() - SESSION_TTL_SECONDS * 1000 - 1000)
  const revoked = await sessionFor(a.userId)
  expect((await call('/api/auth/logout', { method: 'POST', token: revoked })).status).toBe(200)
  const gone = await register()
  expect((await call('/api/account/delete', { method: 'DELETE', token: gone.token })).status).toBe(200)
  return [
    { name: 'no token' },
    { name: 'not a JWT', token: 'not-a-jwt' },
    { name: 'tampered signature', token: flipSignature(a.token) },
    { name: 'tampered claims (another owner)', token: swapClaims(a.token, { sub: b.userId }) },
    { name: 'unsigned (alg none)', token: unsigned(a.token) },
    { name: 'signed with another secret', token: await jwt({ sub: a.userId, aud: SESSION_AUDIENCE, claims: { sid }, secret: OTHER_SECRET }) },
    { name: 'expired JWT of a live session', token: await jwt({ sub: a.userId, aud: SESSION_AUDIENCE, claims: { sid }, iat: now - 7200, exp: now - 3600 }) },
    { name: 'JWT for another audience', token: await jwt({ sub: a.userId, aud: LINK_PURPOSES.checkIn.audience, claims: { sid } }) },
    { name: 'JWT naming another owner’s session', token: await jwt({ sub: a.userId, aud: SESSION_AUDIENCE, claims: { sid: decodeJwt(b.token).sid } }) },
    { name: 'expired session', token: expired },
    { name: 'revoked session', token: revoked },
    { name: 'deleted account', token: gone.token },
    { name: 'link token', token: linkToken('beneficiaryAccess', f.beneficiaryId) },
    { name: 'tampered cookie', cookie: `${AUTH_COOKIE}=${flipSignature(a.token)}` },
  ]
}

/** The subject with every id in it replaced by one that names nobody. */
const nobody = (subject: string) =>
  subject.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, () => crypto.randomUUID()).replace(/[^:]+@[^:]+$/, 'nobody@example.com')

/** Every bad token for a link route (undefined: none sent). */
async function badLinkTokens(link: LinkSpec, f: Fixture, a: Owner): Promise<Array<[string, string | undefined]>> {
  const subject = link.subject(f)
  const genuine = linkToken(link.purpose, subject)
  const other: LinkPurpose = link.purpose === 'checkIn' ? 'releaseCancel' : 'checkIn'
  // Issued a minute longer ago than the spec's lifetime for the purpose (not the code's constant).
  const past = Date.now() - (LINK_LIFETIME_SECONDS[link.purpose] + 60) * 1000
  return [
    ['missing', undefined],
    ['empty', ''],
    ['too short', 'abc'],
    ['garbage', 'x'.repeat(64)],
    ['too long', `${genuine}${'x'.repeat(3000)}`],
    ['tampered signature', flipSignature(genuine)],
    ['tampered subject', swapClaims(genuine, { sub: nobody(subject) })],
    ['unsigned (alg none)', unsigned(genuine)],
    ['signed with another secret', await jwt({ sub: subject, aud: LINK_PURPOSES[link.purpose].audience, secret: OTHER_SECRET })],
    ['expired', linkToken(link.purpose, subject, f.userId, past)],
    ['for another purpose', linkToken(other, subject)],
    ['owner’s session token', a.token],
    ['naming nobody', linkToken(link.purpose, nobody(subject))],
    // The owner a token names is the object it reaches: another owner's has none of A's things.
    ['for another owner’s vault', linkToken(link.purpose, subject, B.owner.userId)],
    ['for an owner who does not exist', linkToken(link.purpose, subject, crypto.randomUUID())],
    ['naming no owner (as 0.1 signed links)', await jwt({ sub: subject, aud: LINK_PURPOSES[link.purpose].audience })],
  ]
}

/** What is wrong with the answer to a link past its lifetime: it must be exactly 400, saying it expired. */
function notExpiredLink(a: Answer): string | undefined {
  const wrong = notClientError(a, [400])
  if (wrong) return wrong
  const message = (JSON.parse(a.text) as { message: string }).message
  return ([CIRCLE_MESSAGES.linkExpired, RELEASE_MESSAGES.linkExpired, EMAIL_CONFIRMATION.linkExpired, NOT_ME_MESSAGES.expired] as string[]).includes(message) ? undefined : `${brief(a)} (expected the link-expired message)`
}

/** The request a link route gets with `token` (in its query or body) and otherwise good input. */
function linkRequest(route: Route, f: Fixture, token: string | undefined, params = route.spec.params?.(f) ?? {}): [string, SendOptions] {
  const { spec, method } = route
  const link = spec.link!
  let path = fill(route.path, params)
  if (link.in === 'query' && token !== undefined) path += `?${link.name ?? 'token'}=${encodeURIComponent(token)}`
  const extra = link.in === 'body' && token !== undefined ? { token } : {}
  return [path, { method, ...bodyOf(spec, f, extra) }]
}

// --- Owners ---------------------------------------------------------------------------------------

interface Owner {
  token: string
  userId: string
  email: string
  password: string
}

async function uploadForm(path: string, token: string, fields: Record<string, string | Blob>) {
  return exports.default.fetch(
    new Request(`http://localhost${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'cf-connecting-ip': freshIp() }, body: form(fields) }),
  )
}

/** The first row of a query in the owner's object; there must be one. */
async function first<T>(ownerId: string, sql: string, ...params: unknown[]): Promise<T> {
  const row = await ownerRow<T>(ownerId, sql, ...params)
  if (!row) throw new Error(`no row for: ${sql}`)
  return row
}

/** A genuine link token, as the owner's object signs it: owner A's unless told. */
function linkToken(purpose: LinkPurpose, subject: string, owner = f.userId, at?: number): string {
  // A death-report link carries the nonce of the link last sent to its approver.
  const nonce = purpose === 'deathReport' && owner === f.userId ? (f.deathLinkNonce ?? undefined) : undefined
  return signLinkToken(env, purpose, subject, { owner, nonce }, at)
}

/**
 * Owner A, with one of everything: an item granted, covered by a policy and released; a verified
 * approver; an identity document reviewed; a fired and an active trigger; waiting releases; an
 * open upload; a security key. Names carry `tag`, so they are A's alone.
 */
async function buildOwnerA(tag: string) {
  const owner = await register({ email: uniqueEmail('aurelia'), displayName: `Aurelia Vantablack ${tag}` })
  const token = owner.token
  const beneficiary = await addBeneficiary(token, await publicKey(), { fullName: `Bertram Quillfeather ${tag}`, relationship: 'Godson' })
  const { item } = await uploadItem(token, [beneficiary.id], 100, { policy: { protocol: 'MANUAL_RELEASE' } })
  const approver = await addApprover(token, { fullName: `Cassia Thornbury ${tag}`, role: 'Family notary' })
  const invite = await nextMessageTo(approver.email)
  expect((await call('/api/approvers/verify', { body: { token: linkTokenIn(invite, '/verify-approver') } })).status).toBe(200)
  const policy = await policyCovering(token, beneficiary.id, [item.id], { name: `Quillfeather estate ${tag}` })
  // Access on request: a policy the beneficiary and approvers may ask for, and the beneficiary's waiting request.
  const requestable = await policyCovering(token, beneficiary.id, [item.id], {
    name: `Quillfeather on request ${tag}`,
    accessRequest: { days: 7, by: ['beneficiaries', 'approvers'] },
  })
  const portal = signLinkToken(env, 'beneficiaryAccess', beneficiary.id, { owner: owner.user.id })
  const asked = await call(`/api/beneficiaries/${beneficiary.id}/access-requests?token=${encodeURIComponent(portal)}`, { body: { policyId: requestable.id } })
  expect(asked.status).toBe(201)

  const doc = await uploadForm('/api/identity-documents', token, { beneficiaryId: beneficiary.id, documentType: 'national_id', frontImage: png(), backImage: png() })
  expect(doc.status).toBe(201)
  const documentId = ((await doc.json()) as { id: string }).id
  const review = await waitFor(async () => (await outboxFor(approver.email)).find((m) => m.text.includes('/review-identity')))
  const reviewed = await call('/api/identity-verifications', {
    body: { token: linkTokenIn(review, '/review-identity'), status: 'approved', verificationNotes: 'Photo matches.' },
  })
  expect(reviewed.status).toBe(200)

  // A second item waits for a signer's approval; the manual release starts both.
  await uploadItem(token, [beneficiary.id], 100, {
    policy: { protocol: 'MANUAL_RELEASE', requiresApprover: true, approverContact: `signer-${tag}@example.com` },
  })
  const fired = await createTrigger(token, { type: 'verified_death', config: {} })
  await manualReleaseOk(token, fired.id)
  const trigger = await createTrigger(token, { type: 'inactivity', config: { pingFrequency: 'weekly', gracePeriod: 7 } })

  const open = await startUpload(token, 100)
  expect((await putPart(token, open.itemId, 1, new Uint8Array(partSize(1, 100)))).status).toBe(200)
  const keyId = crypto.randomUUID().replace(/-/g, '')
  await env.DB.prepare(
    `insert into webauthn_credentials (id, user_id, name, public_key, counter, transports, device_type, backed_up, created_at) values (?, ?, ?, 'pQECAyYgASFYIA', 0, '["usb"]', 'singleDevice', 0, ?)`,
  )
    .bind(keyId, owner.user.id, `Key ${tag}`, Date.now())
    .run()

  // A second device of A's: what owner B's requests name (and must not end).
  const otherDevice = await sessionFor(owner.user.id)
  const release = await first<{ id: string; firing_id: string }>(owner.user.id, `select id, firing_id from releases where status = 'waiting'`)
  const signoff = await first<{ release_id: string; email: string }>(owner.user.id, `select release_id, email from release_signoffs where decision is null`)
  const asset = await first<{ id: string }>(owner.user.id, `select id from released_assets where beneficiary_id = ?`, beneficiary.id)
  const { death_link_nonce: deathLinkNonce } = await first<{ death_link_nonce: string | null }>(owner.user.id, 'select death_link_nonce from approvers where id = ?', approver.id)
  const fixture: Omit<Fixture, 'targetUserId' | 'targetEmail' | 'promoCodeId'> = {
    userId: owner.user.id,
    email: owner.email,
    itemId: item.id,
    uploadId: open.itemId,
    beneficiaryId: beneficiary.id,
    approverId: approver.id,
    deathLinkNonce,
    policyId: policy.id,
    triggerId: trigger.id,
    releaseId: release.id,
    firingId: release.firing_id,
    signoff: { releaseId: signoff.release_id, email: signoff.email },
    documentId,
    keyId,
    accessRequestId: (await first<{ id: string }>(owner.user.id, 'select id from access_requests')).id,
    requestablePolicyId: requestable.id,
    sessionId: String(decodeJwt(otherDevice).sid),
    assetId: asset.id,
    publicKey: await publicKey(),
  }
  return { owner: { token, userId: owner.user.id, email: owner.email, password: owner.password }, fixture }
}

/** Owner B: an item, a beneficiary, an approver, a policy covering the item, and an open upload of their own. */
async function buildOwnerB() {
  const s = await ownerWithItem()
  const approver = await addApprover(s.token, { sendVerificationEmail: false })
  const policy = await policyCovering(s.token, s.beneficiary.id, [s.item.id])
  const open = await startUpload(s.token, 100)
  expect((await putPart(s.token, open.itemId, 1, new Uint8Array(partSize(1, 100)))).status).toBe(200)
  return {
    owner: { token: s.token, userId: s.ownerId, email: s.owner.email, password: s.owner.password },
    beneficiaryId: s.beneficiary.id,
    approverId: approver.id,
    itemId: s.item.id,
    policyId: policy.id,
    uploadId: open.itemId,
  }
}

async function buildAdmin() {
  const admin = await register({ email: uniqueEmail('admin') })
  await env.DB.prepare(`update users set role = 'admin' where id = ?`).bind(admin.user.id).run()
  await mirrorAccount(admin.user.id)
  return { token: admin.token, userId: admin.user.id, email: admin.email, password: admin.password }
}

// --- What owner A has, as the API and D1 show it ------------------------------------------------------

/** The owner's GET routes with owner A's parameters (content and audit read separately). */
const ownerGets = () => routes('owner').filter((r) => r.method === 'GET')

/** Owner A's rows in D1 (what spans owners), and every row of A's own object. */
const OWNED_ROWS: Record<string, string> = {
  users: 'id = ?1',
  webauthn_credentials: 'user_id = ?1',
  heir_index: "hex(owner_id) = upper(replace(?1, '-', ''))",
}
const OBJECT_TABLES = [
  'beneficiaries',
  'approvers',
  'vault_items',
  'upload_parts',
  'item_grants',
  'policies',
  'policy_beneficiaries',
  'policy_items',
  'identity_documents',
  'identity_reviews',
  'triggers',
  'unlock_failures',
  'firings',
  'releases',
  'release_targets',
  'release_signoffs',
  'released_assets',
  'death_reports',
  'renewal_requests',
]

async function rowsOf(userId: string) {
  const out: Record<string, unknown[]> = {}
  for (const [table, where] of Object.entries(OWNED_ROWS)) {
    out[table] = (await env.DB.prepare(`select * from ${table} where ${where} order by 1, 2`).bind(userId).all()).results
  }
  for (const table of OBJECT_TABLES) {
    const rows = await ownerRows(userId, `select * from ${table}`)
    out[`object:${table}`] = rows.map((r) => JSON.stringify(r)).sort()
  }
  // A's live sessions, in A's object, without what use moves ("last seen", the proof's time).
  out.sessions = await ownerRows(
    userId,
    "select id, created_at, expires_at, user_agent, place, browser_id, browser_trusted from sessions where expires_at > strftime('%s', 'now') * 1000 order by id",
  )
  return out
}

/** Owner A's view of everything (their GET routes) and their rows. */
async function snapshot(a: Owner, f: Fixture) {
  const api: Record<string, string> = {}
  for (const r of ownerGets()) {
    const res = await call(fill(r.path, r.spec.params?.(f) ?? {}), { token: a.token })
    api[r.key] = `${res.status} ${await res.text()}`
  }
  // The engine's status also reports clocks and sweeps that move on their own: its releases are A's.
  const status = JSON.parse(api['GET /api/trigger-engine/status']!.slice(4)) as { releases: unknown }
  api['GET /api/trigger-engine/status'] = JSON.stringify(status.releases)
  // The suite signs out a session of A's (the revoked-session case) and calls the dev route that
  // fills A's chain: those entries are the suite's own.
  const notTheSuites = (e: { action: string }) => e.action !== 'account.signed_out' && e.action !== 'dev.filled'
  const audit = JSON.parse(api['GET /api/audit']!.slice(4)) as Array<{ action: string }>
  api['GET /api/audit'] = JSON.stringify(audit.filter(notTheSuites))
  const exported = JSON.parse(api['GET /api/audit/export']!.slice(4)) as Array<{ action: string }>
  api['GET /api/audit/export'] = JSON.stringify(exported.filter(notTheSuites))
  const { valid, brokenAt, headMatches } = JSON.parse(api['GET /api/audit/verify']!.slice(4)) as Record<string, unknown>
  api['GET /api/audit/verify'] = JSON.stringify({ valid, brokenAt, headMatches })
  return { api, rows: await rowsOf(a.userId) }
}

/** Every id, address and name owner A's own GET answers contain. */
function identifyingStrings(api: Record<string, string>, tag: string): string[] {
  const found = new Set<string>()
  const walk = (value: unknown) => {
    if (typeof value === 'string') {
      if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value) || /^[0-9a-f]{32}$/.test(value)) found.add(value)
      if (/^[^@\s]+@[^@\s]+$/.test(value) || value.includes(tag)) found.add(value)
    } else if (Array.isArray(value)) value.forEach(walk)
    else if (value && typeof value === 'object') Object.values(value).forEach(walk)
  }
  for (const answer of Object.values(api)) {
    try {
      walk(JSON.parse(answer.slice(answer.indexOf(' ') + 1)))
    } catch {
      // Not JSON (the item's content): nothing to collect.
    }
  }
  return [...found]
}

// --- The suite ------------------------------------------------------------------------------------

let A: Owner
let B: Awaited<ReturnType<typeof buildOwnerB>>
let admin: Owner
let f: Fixture
let tag: string
let secretsOfA: string[]
let initial: Awaited<ReturnType<typeof snapshot>>

/** Whatever in the answer is one of owner A's ids, addresses or names. */
function leakIn(a: Answer): string | undefined {
  const leaked = secretsOfA.filter((s) => a.text.includes(s))
  return leaked.length ? `${a.label}: ${a.status} contains owner A's ${leaked.join(', ')}` : undefined
}

describe('security suite', () => {
  beforeAll(async () => {
    tag = crypto.randomUUID().slice(0, 8)
    const built = await buildOwnerA(tag)
    A = built.owner
    B = await buildOwnerB()
    admin = await buildAdmin()
    const target = await register({ email: uniqueEmail('target') })
    const promo = await call('/api/admin/promo-codes', { token: admin.token, body: { code: `SUITE${tag}`, value: 10 } })
    expect(promo.status).toBe(201)
    f = { ...built.fixture, targetUserId: target.user.id, targetEmail: target.email, promoCodeId: ((await promo.json()) as { id: string }).id }
    // Registration's and sign-in's reports to the owner's object land after their answers.
    await new Promise((resolve) => setTimeout(resolve, 50))
    initial = await snapshot(A, f)
    secretsOfA = [...new Set([...identifyingStrings(initial.api, tag), f.userId, f.email, f.keyId, f.assetId, f.firingId, f.signoff.email, f.uploadId])]
  }, 60_000)

  it('classifies every /api route of the app, and names no route that does not exist', () => {
    const served = appEndpoints()
    const classified = Object.keys(ROUTES).sort()
    expect(served.filter((k) => !(k in ROUTES)), 'routes the table does not classify').toEqual([])
    expect(classified.filter((k) => !served.includes(k)), 'routes the table names that the app does not serve').toEqual([])
    // ALL entries are middleware and catch-alls (wildcards); an app.all() endpoint would hide among them.
    expect(app.routes.filter((r) => r.method === 'ALL' && !r.path.endsWith('*')).map((r) => r.path), 'ALL endpoints').toEqual([])
    // The fixture builds what the table's parameters name.
    for (const { key, path, spec } of routes('owner', 'admin', 'link')) {
      const names = paramNames(path)
      expect(Object.keys(spec.params?.(f) ?? {}).sort(), `${key} parameters`).toEqual([...names].sort())
    }
  })

  it('answers 401 {message} on every owner route without a live session', async () => {
    const findings = new Findings()
    for (const bad of await badSessions(A, B.owner, f)) {
      for (const r of routes('owner')) {
        const path = fill(r.path, r.spec.params?.(f) ?? {})
        const a = await send(`${r.key} [${bad.name}]`, path, { method: r.method, token: bad.token, cookie: bad.cookie, ...bodyOf(r.spec, f) })
        findings.note(a.label, notClientError(a, [401]) ?? leakIn(a))
      }
    }
    findings.expectNone()
  }, 60_000)

  it('answers 401 on every admin route without a live session, and 403 to an owner', async () => {
    const findings = new Findings()
    const owner: BadSession = { name: 'owner’s session', token: A.token }
    for (const bad of [...(await badSessions(admin, B.owner, f)), owner]) {
      for (const r of routes('admin')) {
        const path = fill(r.path, r.spec.params?.(f) ?? {})
        const a = await send(`${r.key} [${bad.name}]`, path, { method: r.method, token: bad.token, cookie: bad.cookie, ...bodyOf(r.spec, f) })
        findings.note(a.label, notClientError(a, [bad === owner ? 403 : 401]))
      }
    }
    // An administrator's own session gets through: the refusals above are the guard's.
    expect((await send('GET /api/admin/dashboard [admin]', '/api/admin/dashboard', { method: 'GET', token: admin.token })).status).toBe(200)
    findings.expectNone()
  }, 60_000)

  it('serves public routes without a session, and dev routes only in development', async () => {
    const findings = new Findings()
    for (const r of routes('public')) {
      const query = r.spec.query ? `?${new URLSearchParams(r.spec.query)}` : ''
      const a = await send(`${r.key} [no session]`, `${r.path}${query}`, { method: r.method, ...bodyOf(r.spec, f) })
      findings.note(a.label, a.status >= 500 ? brief(a) : leakIn(a))
    }
    for (const path of ['/api/health', '/api/billing/config', '/api/email-preview/beneficiary-invitation']) {
      const a = await send(`GET ${path} [open]`, path, { method: 'GET' })
      findings.note(a.label, notStatus(a, 200))
    }
    for (const r of routes('dev')) {
      const a = await send(`${r.key} [development]`, r.path, { method: r.method, ...bodyOf(r.spec, f) })
      findings.note(a.label, notStatus(a, 200))
      const ctx = createExecutionContext()
      const res = await app.fetch(new Request(`http://localhost${r.path}`, { method: r.method }), { ...env, ENVIRONMENT: 'production' }, ctx)
      await waitOnExecutionContext(ctx)
      const production = { label: `${r.key} [production]`, status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() }
      answers.push(production)
      findings.note(production.label, notClientError(production, [404]))
    }
    findings.expectNone()
  }, 60_000)

  it('gives owner B exactly 404 on every owner route naming owner A’s things, none of A’s data, and changes nothing of A’s', async () => {
    const before = await snapshot(A, f)
    const findings = new Findings()
    for (const r of routes('owner')) {
      if (r.spec.params) {
        const a = await send(`${r.key} [owner B, A's ids]`, fill(r.path, r.spec.params(f)), { method: r.method, token: B.owner.token, ...bodyOf(r.spec, f) })
        findings.note(a.label, notClientError(a, [404]) ?? leakIn(a))
      } else if (r.method === 'GET') {
        const a = await send(`${r.key} [owner B]`, r.path, { method: r.method, token: B.owner.token })
        findings.note(a.label, notStatus(a, 200) ?? leakIn(a))
      }
    }
    expect(await snapshot(A, f)).toEqual(before)
    findings.expectNone()
  }, 60_000)

  it('refuses owner B’s own things pointed at owner A’s', async () => {
    const findings = new Findings()
    const wrappedKey = btoa('wrapped key')
    const policy = (ROUTES['POST /api/policies']!.sample!(f) as Record<string, unknown>)
    const cases: Array<[string, string, SendOptions, number[]]> = [
      [
        'B grants their item to A’s beneficiary',
        `/api/vault/items/${B.itemId}/grants`,
        { method: 'PUT', json: { grants: [{ beneficiaryId: f.beneficiaryId, wrappedKey }], grantsSignature: WELL_FORMED_SIGNATURE } },
        [400],
      ],
      ['B’s policy assigns A’s beneficiary', '/api/policies', { method: 'POST', json: { ...policy, identityVerificationApprovers: [] } }, [400]],
      [
        'B’s policy names A’s approver as reviewer',
        '/api/policies',
        { method: 'POST', json: { ...policy, ruleJson: { assign: [{ beneficiaryId: B.beneficiaryId }], release: { on: ['verified_death'] } } } },
        [400],
      ],
      [
        'B’s scheduled trigger releases to A’s beneficiary',
        '/api/triggers',
        { method: 'POST', json: { type: 'scheduled', config: { releaseDate: new Date(Date.now() + 86_400_000).toISOString(), beneficiaries: [f.beneficiaryId] } } },
        [400],
      ],
      [
        'B re-wraps A’s item for their beneficiary',
        `/api/beneficiaries/${B.beneficiaryId}/rotate-key`,
        { method: 'POST', json: { publicKey: f.publicKey, grants: [{ itemId: f.itemId, wrappedKey }] } },
        [400, 409],
      ],
      [
        'B uploads an identity document for A’s beneficiary',
        '/api/identity-documents',
        { method: 'POST', body: form({ beneficiaryId: f.beneficiaryId, documentType: 'passport', frontImage: png() }) },
        [400, 404],
      ],
      [
        'B completes an upload granted to A’s beneficiary',
        `/api/vault/uploads/${B.uploadId}/complete`,
        { method: 'POST', json: { encryptedMetadata: wrappedKey, wrappedKey, policy: {}, grants: [{ beneficiaryId: f.beneficiaryId, wrappedKey }], manifestSignature: WELL_FORMED_SIGNATURE } },
        [400],
      ],
    ]
    for (const [name, path, options, allowed] of cases) {
      const a = await send(`${options.method} ${path} [${name}]`, path, { token: B.owner.token, ...options })
      findings.note(a.label, notClientError(a, allowed) ?? leakIn(a))
    }
    // Foreign items in a policy's cover, foreign policies on an item: ignored, never recorded.
    const cover = await send('PUT /api/policies/:id/items [B covers A’s item]', `/api/policies/${B.policyId}/items`, {
      method: 'PUT',
      token: B.owner.token,
      json: { itemIds: [f.itemId] },
    })
    findings.note(cover.label, cover.status === 200 && JSON.parse(cover.text).itemCount === 1 ? leakIn(cover) : brief(cover))
    const complete = await send('POST /api/vault/uploads/:itemId/complete [B files their item under A’s policy]', `/api/vault/uploads/${B.uploadId}/complete`, {
      method: 'POST',
      token: B.owner.token,
      json: await withManifestSignature(B.owner.token, B.uploadId, { encryptedMetadata: wrappedKey, wrappedKey, policy: {}, grants: [{ beneficiaryId: B.beneficiaryId, wrappedKey }], policyIds: [f.policyId] }),
    })
    findings.note(complete.label, notStatus(complete, 201) ?? leakIn(complete))
    for (const owner of [A.userId, B.owner.userId]) {
      expect(await ownerRow(owner, 'select * from policy_items where policy_id = ? and item_id = ?', f.policyId, B.uploadId)).toBeNull()
    }
    expect((await snapshot(A, f)).rows).toEqual(initial.rows)
    findings.expectNone()
  }, 60_000)

  it('answers malformed, wrong-typed and oversized bodies with a 4xx {message}', async () => {
    const findings = new Findings()
    for (const r of routes('public', 'link', 'owner', 'admin')) {
      const { spec } = r
      if (!spec.body) continue
      const token = spec.access === 'owner' ? A.token : spec.access === 'admin' ? admin.token : undefined
      let path = fill(r.path, spec.params?.(f) ?? {})
      // A link route whose token is in the query gets a genuine one: only the body is at fault.
      // (The portal's upload reads no body for A's beneficiary, whose identity is verified: B's is not.)
      if (spec.link?.in === 'query' && spec.body === 'multipart') {
        path = `${fill(r.path, { id: B.beneficiaryId })}?token=${encodeURIComponent(linkToken(spec.link.purpose, B.beneficiaryId, B.owner.userId))}`
      } else if (spec.link?.in === 'query') {
        path += `?token=${encodeURIComponent(linkToken(spec.link.purpose, spec.link.subject(f)))}`
      }
      const variants =
        spec.body === 'binary' ? binaryVariants() : spec.body === 'multipart' ? multipartVariants(spec, f) : jsonVariants(spec.sample!(f), spec.body === 'json', spec.bodyLimit)
      for (const v of variants) {
        const contentType = v.contentType ?? (spec.body === 'multipart' ? undefined : 'application/json')
        const a = await send(`${r.key} [${v.name}]`, path, { method: r.method, token, body: v.body, contentType })
        findings.note(a.label, notClientError(a, v.expect))
      }
    }
    findings.expectNone()
  }, 60_000)

  it('answers absurd path parameters with a 4xx {message}', async () => {
    const findings = new Findings()
    for (const r of routes('link', 'owner', 'admin')) {
      const { spec } = r
      if (!spec.params) continue
      const token = spec.access === 'owner' ? A.token : spec.access === 'admin' ? admin.token : undefined
      for (const name of paramNames(r.path)) {
        for (const [absurd, value] of ABSURD_PARAMS) {
          const params = { ...spec.params(f), [name]: value }
          const label = `${r.key} [:${name} ${absurd}]`
          // Everything else is right: a genuine link token, a well-formed body (a part of the wrong size).
          const [path, options] = spec.link
            ? linkRequest(r, f, linkToken(spec.link.purpose, spec.link.subject(f)), params)
            : [fill(r.path, params), { method: r.method, ...(spec.body === 'binary' ? { body: new Uint8Array(3) } : bodyOf(spec, f)) }]
          const a = await send(label, path, { ...options, token })
          findings.note(label, notClientError(a) ?? (spec.access === 'link' ? undefined : leakIn(a)))
        }
      }
    }
    findings.expectNone()
  }, 60_000)

  it('answers wrong query strings with a 4xx, and ignores extra ones', async () => {
    const findings = new Findings()
    const search = '/api/admin/users'
    const cases: Array<[string, string, number[] | undefined]> = [
      ['search too long', `?q=${'a'.repeat(255)}`, undefined],
      ['search repeated', '?q=a&q=b', undefined],
      ['search with LIKE wildcards', `?q=${encodeURIComponent("%_\\' or 1=1 --")}`, [200]],
      // Control characters are refused in every field (contract/text.ts).
      ['search with NUL', '?q=%00', [400]],
      ['search malformed percent-encoding', '?q=%E0%A4%A', [200, 400]],
      ['page size 0', '?limit=0', [400]],
      ['page size 101', '?limit=101', [400]],
      ['page size not a number', '?limit=ten', [400]],
      ['cursor not one we gave', '?cursor=bm90LWEtY3Vyc29y', [400]],
      ['cursor not base64url', '?cursor=%25%25', [400]],
    ]
    for (const [name, query, allowed] of cases) {
      const a = await send(`GET ${search} [${name}]`, `${search}${query}`, { method: 'GET', token: admin.token })
      findings.note(a.label, allowed?.includes(200) ? (allowed.includes(a.status) ? undefined : brief(a)) : notClientError(a, allowed))
    }
    // The audit pages' query: out of range or not a number is a 400 {message}.
    for (const query of ['?limit=-1', '?limit=1001', '?limit=', '?from=abc', '?from=0', '?from=1&limit=1e9', '?from=%00']) {
      const a = await send(`GET /api/audit [${query}]`, `/api/audit${query}`, { method: 'GET', token: A.token })
      findings.note(a.label, notClientError(a, [400]))
    }
    // Owner routes read no query but the one they declare: junk changes nothing of the answer.
    const junk = `?__proto__[role]=admin&constructor=x&token=${encodeURIComponent(A.token)}&id=..%2F..%2Fx&limit=-1&search=%00&search=%E0%A4%A`
    const junkFor = (declared: string[]) => `?${junk.slice(1).split('&').filter((part) => !declared.includes(part.split('=')[0]!)).join('&')}`
    for (const r of ownerGets()) {
      const path = fill(r.path, r.spec.params?.(f) ?? {})
      const plain = await send(`${r.key} [plain]`, path, { method: 'GET', token: A.token })
      const noisy = await send(`${r.key} [junk query]`, `${path}${junkFor(Object.keys(r.spec.query ?? {}))}`, { method: 'GET', token: A.token })
      findings.note(noisy.label, noisy.status === plain.status ? undefined : `${brief(noisy)} (plain: ${plain.status})`)
    }
    const preview = await send('GET /api/email-preview/beneficiary-invitation [junk query]', `/api/email-preview/beneficiary-invitation${junk}`, { method: 'GET' })
    findings.note(preview.label, notStatus(preview, 200))
    findings.expectNone()
  }, 60_000)

  it('refuses missing, malformed, tampered, expired and foreign link tokens with a 4xx {message}', async () => {
    const findings = new Findings()
    for (const r of routes('link')) {
      const link = r.spec.link!
      const tokens = await badLinkTokens(link, f, A)
      // Another beneficiary's genuine link, on A's beneficiary's path.
      if (link.purpose === 'beneficiaryAccess' || link.purpose === 'assetContent') {
        const foreign = link.purpose === 'assetContent' ? `${f.assetId}:${B.beneficiaryId}` : B.beneficiaryId
        tokens.push(['another beneficiary’s', linkToken(link.purpose, foreign, B.owner.userId)])
      }
      for (const [name, token] of tokens) {
        const [path, options] = linkRequest(r, f, token)
        const a = await send(`${r.key} [token ${name}]`, path, options)
        findings.note(a.label, (name === 'expired' ? notExpiredLink(a) : notClientError(a)) ?? leakIn(a))
      }
      // Query tokens given twice, or as an array, are refused too.
      if (link.in === 'query') {
        const genuine = encodeURIComponent(linkToken(link.purpose, link.subject(f)))
        const base = fill(r.path, r.spec.params?.(f) ?? {})
        const param = link.name ?? 'token'
        for (const [name, query] of [
          ['token repeated', `?${param}=${genuine}&${param}=${genuine}`],
          ['token as an array', `?${param}[]=${genuine}`],
        ] as const) {
          const a = await send(`${r.key} [${name}]`, `${base}${query}`, { method: r.method, ...bodyOf(r.spec, f) })
          findings.note(a.label, notClientError(a) ?? leakIn(a))
        }
      }
    }
    // The genuine links work: the refusals above are the tokens' doing.
    const working = [
      'GET /api/beneficiary-notifications',
      'GET /api/release-approvals',
      'GET /api/death-reports',
      'GET /api/beneficiaries/:id/portal',
      'GET /api/beneficiaries/:id/assets',
    ]
    for (const key of working) {
      const r = routes('link').find((x) => x.key === key)!
      const [path, options] = linkRequest(r, f, linkToken(r.spec.link!.purpose, r.spec.link!.subject(f)))
      const a = await send(`${key} [genuine token]`, path, options)
      findings.note(a.label, notStatus(a, 200))
    }
    findings.expectNone()
  }, 60_000)

  it('refuses genuine links of owner B’s people used on owner A’s things', async () => {
    const findings = new Findings()
    const ofB = B.owner.userId
    const portal = encodeURIComponent(linkToken('beneficiaryAccess', B.beneficiaryId, ofB))
    const ticket = encodeURIComponent(linkToken('assetContent', `${f.assetId}:${B.beneficiaryId}`, ofB))
    const review = linkToken('identityReview', `${f.documentId}:${B.approverId}`, ofB)
    const approval = linkToken('releaseApproval', `${f.signoff.releaseId}:${B.owner.email}`, ofB)
    const assetPath = `/api/beneficiaries/${B.beneficiaryId}/assets/${f.assetId}`
    const cases: Array<[string, string, SendOptions, number[]]> = [
      ['B’s beneficiary downloads A’s asset', `${assetPath}/download?token=${portal}`, { method: 'GET' }, [404]],
      ['B’s beneficiary fetches A’s asset content', `${assetPath}/content?ticket=${ticket}`, { method: 'GET' }, [404]],
      ['B’s approver opens A’s identity document', `/api/identity-reviews?token=${encodeURIComponent(review)}`, { method: 'GET' }, [400]],
      ['B’s approver opens its image', `/api/identity-reviews/file/front?token=${encodeURIComponent(review)}`, { method: 'GET' }, [400]],
      ['B’s approver reviews it', '/api/identity-verifications', { method: 'POST', json: { token: review, status: 'approved', verificationNotes: 'Looks fine.' } }, [400]],
      ['a non-signer opens A’s release', `/api/release-approvals?token=${encodeURIComponent(approval)}`, { method: 'GET' }, [400]],
      ['a non-signer approves it', '/api/release-approvals', { method: 'POST', json: { token: approval, decision: 'approved' } }, [400]],
    ]
    for (const [name, path, options, allowed] of cases) {
      const a = await send(`${options.method} ${path.split('?')[0]} [${name}]`, path, options)
      findings.note(a.label, notClientError(a, allowed) ?? leakIn(a))
    }
    expect((await snapshot(A, f)).rows).toEqual(initial.rows)
    findings.expectNone()
  }, 60_000)

  it('answers unknown methods and paths under /api with a 4xx {message}', async () => {
    const findings = new Findings()
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
    const byPath = new Map<string, string[]>()
    for (const key of Object.keys(ROUTES)) {
      const [method, path] = key.split(' ') as [string, string]
      byPath.set(path, [...(byPath.get(path) ?? []), method])
    }
    for (const [path, used] of byPath) {
      const method = methods.find((m) => !used.includes(m) && !(m === 'GET' && used.includes('HEAD')))!
      const spec = Object.entries(ROUTES).find(([k]) => k.endsWith(` ${path}`))![1]
      const a = await send(`${method} ${path} [unknown method]`, fill(path, spec.params?.(f) ?? {}), { method, token: A.token, json: method === 'GET' ? undefined : {} })
      findings.note(a.label, notClientError(a))
    }
    for (const path of ['/api/nope', '/api/vault', '/api/admin', '/api/%00', `/api/${'x'.repeat(4096)}`, '/api/vault/items/x/y/z', '/api/auth/me/extra']) {
      const a = await send(`GET ${path.slice(0, 60)} [unknown path]`, path, { method: 'GET', token: A.token })
      findings.note(a.label, notClientError(a))
    }
    findings.expectNone()
  }, 60_000)

  it('refuses Stripe webhooks that are unsigned, forged or too large when Stripe is configured', async () => {
    const findings = new Findings()
    const event = JSON.stringify({ id: 'evt_suite', type: 'invoice.paid', data: { object: {} } })
    const cases: Array<[string, BodyInit, Record<string, string>, number[] | undefined]> = [
      ['no signature', event, {}, [400]],
      ['forged signature', event, { 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` }, [400]],
      ['garbage signature', event, { 'stripe-signature': 'garbage' }, [400]],
      ['invalid JSON', '{', { 'stripe-signature': 'garbage' }, [400]],
      ['oversized', 'x'.repeat(1024 * 1024 + 1), { 'stripe-signature': 'garbage', 'content-length': String(1024 * 1024 + 1) }, [413]],
      ['oversized, streamed', stream(1024 * 1024 + 1), { 'stripe-signature': 'garbage' }, [413]],
    ]
    for (const [name, body, headers, allowed] of cases) {
      const ctx = createExecutionContext()
      const res = await app.fetch(
        new Request('http://localhost/api/stripe/webhook', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }),
        stripeEnv,
        ctx,
      )
      await waitOnExecutionContext(ctx)
      const a = { label: `POST /api/stripe/webhook [Stripe on, ${name}]`, status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() }
      answers.push(a)
      findings.note(a.label, notClientError(a, allowed))
    }
    findings.expectNone()
  }, 60_000)

  it('left owner A’s data as it was, whatever the suite sent', async () => {
    const now = await snapshot(A, f)
    // Sessions: the suite's own (expired, revoked) are not A's live ones; A's sign-in is still live.
    expect(initial.rows.sessions).not.toEqual([])
    expect(now.rows.sessions).toEqual(initial.rows.sessions)
    expect(now).toEqual(initial)
  })

  it('never answered with a 5xx', () => {
    const failures = answers.filter((a) => a.status >= 500 && !(a.label in KNOWN_BUGS)).map(brief)
    expect(answers.length).toBeGreaterThan(1000)
    expect(failures).toEqual([])
  })
})
