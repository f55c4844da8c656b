import { mirrorAccount } from '../../worker/owner/account'
import { runInDurableObject } from 'cloudflare:test'
import { ownerVault } from '../../worker/owner/client'
import { eq } from 'drizzle-orm'
import { getDb } from '../../worker/db/client'
import { users } from '../../worker/db/schema'
import { createSession } from '../../worker/services/sessions'
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env, exports } from 'cloudflare:workers'
import type { AuthResponse, OutboxMessage } from '../../contract/auth'
import { app } from '../../worker/app'
import { sendStated, statedBy } from './vault-signing'

// Each test file has its own copy of this module (and its own storage), but the rate limiters'
// counters may not be reset between files: a random start keeps files from reusing addresses.
let ipCounter = Math.floor(Math.random() * 0xff_ffff)
/** A distinct client address per call, so the per-address rate limits do not couple tests. */
export function freshIp(): string {
  ipCounter++
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`
}

export interface CallOptions {
  method?: string
  body?: unknown
  token?: string
  cookie?: string
  ip?: string
  headers?: Record<string, string>
  rawBody?: string
}

export async function call(path: string, options: CallOptions = {}): Promise<Response> {
  return exports.default.fetch(requestOf(path, options))
}

/**
 * As `call`, but resolves only once the work the request left for after its answer (waitUntil:
 * the e-mail a forgot-password request sends, say) has finished. `requestEnv` replaces bindings.
 */
export async function callSettled(path: string, options: CallOptions = {}, requestEnv: Env = env): Promise<Response> {
  const ctx = createExecutionContext()
  const res = await app.fetch(requestOf(path, options), requestEnv, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

function requestOf(path: string, options: CallOptions): Request {
  const headers: Record<string, string> = { 'cf-connecting-ip': options.ip ?? freshIp(), ...options.headers }
  if (options.body !== undefined || options.rawBody !== undefined) headers['content-type'] ??= 'application/json'
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.cookie) headers.cookie = options.cookie
  return new Request(`http://localhost${path}`, {
    method: options.method ?? (options.body !== undefined || options.rawBody !== undefined ? 'POST' : 'GET'),
    headers,
    body: options.rawBody ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
  })
}

let userCounter = 0
export function uniqueEmail(prefix = 'owner'): string {
  userCounter++
  return `${prefix}-${userCounter}-${crypto.randomUUID().slice(0, 8)}@example.com`
}

/**
 * Registers an owner through the API. Their address counts as confirmed (as if they had followed
 * the link sent at registration, whose message then leaves the outbox, so that a test counting the
 * owner's mail counts what came after) unless `confirmed: false`: tests of invitations that wait
 * for the confirmation ask for that.
 */
export async function register(overrides: Partial<{ email: string; password: string; displayName: string; confirmed: boolean }> = {}) {
  const body = {
    email: overrides.email ?? uniqueEmail(),
    password: overrides.password ?? 'correct horse battery',
    displayName: overrides.displayName ?? 'Ada Owner',
  }
  const res = await call('/api/auth/register', { body })
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`)
  const data = (await res.json()) as AuthResponse
  if (overrides.confirmed === false) return { ...data, password: body.password, email: body.email }
  await env.DB.batch([
    env.DB.prepare('update users set email_verified_at = created_at where id = ?').bind(data.user.id),
    env.DB.prepare("delete from email_outbox where to_address = ? and kind = 'email_confirmation'").bind(body.email.trim().toLowerCase()),
  ])
  await mirrorAccount(data.user.id)
  return { ...data, user: { ...data.user, emailVerified: true }, password: body.password, email: body.email }
}

export async function outbox(): Promise<OutboxMessage[]> {
  const res = await call('/api/dev/outbox')
  return (await res.json()) as OutboxMessage[]
}

export async function login(email: string, password: string, options: Omit<CallOptions, 'body'> = {}) {
  return call('/api/auth/login', { ...options, body: { email, password } })
}

/** GET /api/auth/me with a bearer token. */
export async function me(token: string): Promise<Response> {
  return call('/api/auth/me', { token })
}

/** The parsed JSON `{ message }` of an error response. */
export async function messageOf(res: Response): Promise<string> {
  const body = (await res.json()) as { message?: unknown }
  return String(body.message)
}

/** Messages sent to one address, newest first. */
export async function outboxFor(address: string): Promise<OutboxMessage[]> {
  return (await outbox()).filter((m) => m.to === address.toLowerCase())
}

const RESET_LINK = /http:\/\/localhost:8787\/reset-password\?token=([A-Za-z0-9_%-]+)/

/** The reset token in a password-reset message, from its plain-text link. */
export function resetTokenFrom(message: OutboxMessage): string {
  const match = RESET_LINK.exec(message.text)
  if (!match?.[1]) throw new Error(`no reset link in: ${message.text}`)
  return decodeURIComponent(match[1])
}

/**
 * Asks for a reset link for the address and returns the token from the newest e-mail (sent after
 * the answer: this waits for it).
 */
export async function requestResetToken(address: string): Promise<string> {
  const res = await callSettled('/api/auth/forgot-password', { body: { email: address } })
  if (res.status !== 200) throw new Error(`forgot-password failed: ${res.status} ${await res.text()}`)
  const [newest] = (await outboxFor(address)).filter((m) => m.subject.startsWith('Reset your'))
  if (!newest) throw new Error(`no reset e-mail for ${address}`)
  return resetTokenFrom(newest)
}

/** Polls until `check` returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 2000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`waitFor: condition not met within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

export { env }

// ---- The owner's circle: beneficiaries, approvers and the links e-mailed to them ----

type GenerateKeyArgs = Parameters<typeof crypto.subtle.generateKey>

/** Exports the public half of a freshly made key pair as base64 SPKI (what the browser sends). */
export async function spkiPublicKey(algorithm: GenerateKeyArgs[0], usages: GenerateKeyArgs[2]): Promise<string> {
  const pair = (await crypto.subtle.generateKey(algorithm, true, usages)) as CryptoKeyPair
  const spki = (await crypto.subtle.exportKey('spki', pair.publicKey)) as ArrayBuffer
  return toBase64Bytes(new Uint8Array(spki))
}

/** An RSA-OAEP/SHA-256 public key as the Add Beneficiary form makes it (2048 bits unless told). */
export function rsaOaepPublicKey(modulusLength = 2048): Promise<string> {
  return spkiPublicKey(
    { name: 'RSA-OAEP', modulusLength, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    ['encrypt', 'decrypt'],
  )
}

function toBase64Bytes(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

export interface BeneficiaryInput {
  fullName?: string
  email?: string
  relationship?: string
  sendVerificationEmail?: boolean
  sendAssetNotifications?: boolean
  delayNotifications?: boolean
  [extra: string]: unknown
}

/**
 * POST /api/beneficiaries with a valid body, fields overridable (or removable with undefined). The
 * vault (set up on first use) states the new beneficiary at a fresh sequence unless `keySignature`
 * is given.
 */
export async function postBeneficiary(token: string, publicKey: string, input: BeneficiaryInput = {}): Promise<Response> {
  const body: Record<string, unknown> = { id: crypto.randomUUID(), fullName: 'Bea Beneficiary', email: uniqueEmail('beneficiary'), relationship: 'Daughter', publicKey, ...input }
  if ('keySignature' in input) return call('/api/beneficiaries', { token, body })
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '')
  return sendStated(token, async () => {
    const stated = await statedBy(token, {
      beneficiaryId: String(body.id),
      fullName: text(body.fullName),
      relationship: text(body.relationship),
      email: text(body.email).toLowerCase(),
      keyVersion: 1,
      publicKey: String(body.publicKey),
    }).catch(() => undefined)
    return call('/api/beneficiaries', { token, body: { ...body, ...stated, ...('statementSequence' in input && { statementSequence: input.statementSequence }) } })
  })
}

/** Adds a beneficiary and returns the 201 body; throws on any other status. */
export async function addBeneficiary(token: string, publicKey: string, input: BeneficiaryInput = {}) {
  const res = await postBeneficiary(token, publicKey, input)
  if (res.status !== 201) throw new Error(`add beneficiary failed: ${res.status} ${await res.text()}`)
  return (await res.json()) as import('../../contract/circle').Beneficiary & { verificationEmailSent: boolean }
}

/** POST /api/approvers with a valid body, fields overridable. */
export function postApprover(token: string, input: Record<string, unknown> = {}): Promise<Response> {
  return call('/api/approvers', { token, body: { fullName: 'Arthur Approver', email: uniqueEmail('approver'), role: 'Family lawyer', ...input } })
}

/** Adds an approver and returns the 201 body; throws on any other status. */
export async function addApprover(token: string, input: Record<string, unknown> = {}) {
  const res = await postApprover(token, input)
  if (res.status !== 201) throw new Error(`add approver failed: ${res.status} ${await res.text()}`)
  return (await res.json()) as import('../../contract/circle').Approver & { verificationEmailSent: boolean }
}

/** Every absolute link in a message's plain text whose path is `pathname`, parsed. */
export function linksIn(message: OutboxMessage, pathname: string): URL[] {
  return (message.text.match(/https?:\/\/\S+/g) ?? []).map((href) => new URL(href)).filter((url) => url.pathname === pathname)
}

/** The `token` query parameter of the one link to `pathname` in the message. */
export function linkTokenIn(message: OutboxMessage, pathname: string): string {
  const [url, ...more] = linksIn(message, pathname)
  const token = url?.searchParams.get('token')
  if (!token || more.length) throw new Error(`expected one ${pathname} link with a token in: ${message.text}`)
  return token
}

/** Waits for a message to `address` that is not among `seen` (compared by text), and returns it. */
export async function nextMessageTo(address: string, seen: OutboxMessage[] = []): Promise<OutboxMessage> {
  const known = new Set(seen.map((m) => m.text))
  return waitFor(async () => (await outboxFor(address)).find((m) => !known.has(m.text)))
}

/** A new session of the owner's (as a sign-in opens one, in their object), opened at `now`. */
export async function sessionFor(ownerId: string, now = Date.now()): Promise<string> {
  const user = await getDb(env).query.users.findFirst({ where: eq(users.id, ownerId) })
  if (!user) throw new Error(`no owner ${ownerId}`)
  return createSession(env, user, now)
}

/**
 * SQL over the owner's sessions, in their object (where sessions live): `run()` and `first()` as D1's
 * prepared statements have them, for tests that age or inspect a session.
 */
export function ownerSessions(ownerId: string, query: string, ...binds: SqlStorageValue[]) {
  const rows = () =>
    runInDurableObject(ownerVault(env, ownerId), (_object, state) => {
      // A deleted account's object was emptied whole: it holds no session (nor a table for them).
      if (state.storage.sql.exec("select count(*) as n from sqlite_master where name = 'sessions'").one().n === 0) return []
      return state.storage.sql.exec(query, ...binds).toArray()
    })
  return { run: rows, first: async <T = Record<string, SqlStorageValue>>() => ((await rows())[0] as T | undefined) ?? null }
}
