import { and, eq, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm'
import { Secret, TOTP } from 'otpauth'
import { AUTHENTICATOR, isRecoveryCode, isTotpCode, normalizeRecoveryCode, normalizeTotpCode } from '../../contract/authenticator-constants'
import type { AuthenticatorStatus } from '../../contract/authenticator'
import type { Db } from '../db/client'
import { authenticators, recoveryCodes, type AuthenticatorRow } from '../db/schema'
import { sha256Hex } from '../lib/crypto'

// An authenticator app as a second factor: TOTP (RFC 6238) through `otpauth`, with the settings
// every common app accepts (SHA-1, 6 digits, 30 seconds), a window of one step either side for
// clocks that drift, and each time step accepted once. Ten one-time recovery codes stand in for
// the app when the phone is lost; the server keeps only their SHA-256.

const totpOf = (secret: string, accountName = '') =>
  new TOTP({
    issuer: AUTHENTICATOR.issuer,
    label: accountName,
    algorithm: AUTHENTICATOR.algorithm,
    digits: AUTHENTICATOR.digits,
    period: AUTHENTICATOR.periodSeconds,
    secret: Secret.fromBase32(secret),
  })

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommended length), in base32. */
export function newSecret(): string {
  return new Secret({ buffer: crypto.getRandomValues(new Uint8Array(AUTHENTICATOR.secretBytes)).buffer }).base32
}

/** The otpauth:// URI an app opens or scans: issuer, account, secret, algorithm, digits, period. */
export function otpauthUri(secret: string, accountName: string): string {
  return totpOf(secret, accountName).toString()
}

/**
 * The time step whose code `code` is, within one step of `now`, or null when it is none of them.
 * (The comparison inside otpauth takes the same time whatever the digits.)
 */
export function matchingStep(secret: string, code: string, now = Date.now()): number | null {
  const totp = totpOf(secret)
  const delta = totp.validate({ token: code, timestamp: now, window: AUTHENTICATOR.window })
  return delta === null ? null : totp.counter({ timestamp: now }) + delta
}

export async function authenticatorOf(db: Db, userId: string): Promise<AuthenticatorRow | undefined> {
  return db.query.authenticators.findFirst({ where: eq(authenticators.userId, userId) })
}

/** Whether the owner's password sign-in also asks for a code from their app. */
export async function hasAuthenticator(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .select({ userId: authenticators.userId })
    .from(authenticators)
    .where(and(eq(authenticators.userId, userId), isNotNull(authenticators.confirmedAt)))
    .limit(1)
  return row.length === 1
}

// --- Setup ---------------------------------------------------------------------------------------

/**
 * Starts a setup: a new secret waits for its first code. It replaces a setup still waiting; an app
 * already on keeps signing in until the new one is confirmed (moving to a new phone).
 */
export async function startSetup(db: Db, userId: string, now = Date.now()): Promise<string> {
  const secret = newSecret()
  await db
    .insert(authenticators)
    .values({ userId, pendingSecret: secret, pendingAt: now })
    .onConflictDoUpdate({ target: authenticators.userId, set: { pendingSecret: secret, pendingAt: now } })
  return secret
}

export type ConfirmOutcome = { ok: true; recoveryCodes: string[]; replaced: boolean } | { ok: false; reason: 'no_setup' | 'invalid' }

/**
 * Confirms the waiting secret with a code the app shows for it: the app is on from then, the step
 * of that code counts as used, and a new set of recovery codes replaces any earlier one.
 */
export async function confirmSetup(db: Db, userId: string, code: string, now = Date.now()): Promise<ConfirmOutcome> {
  const row = await authenticatorOf(db, userId)
  if (!row?.pendingSecret || row.pendingAt === null || row.pendingAt + AUTHENTICATOR.pendingTtlMs <= now) return { ok: false, reason: 'no_setup' }
  const step = matchingStep(row.pendingSecret, normalizeTotpCode(code), now)
  if (step === null) return { ok: false, reason: 'invalid' }
  const codes = newRecoveryCodes()
  const hashes = await Promise.all(codes.map((c) => recoveryHash(userId, c)))
  // Guarded by the secret that was checked: of two confirmations at once, one turns the app on, and
  // only its recovery codes are stored (the statements after the update find its time there).
  const ours = sql`exists (select 1 from ${authenticators} where ${authenticators.userId} = ${userId} and ${authenticators.secret} = ${row.pendingSecret} and ${authenticators.confirmedAt} = ${now})`
  const [confirmed] = await db.batch([
    db
      .update(authenticators)
      .set({ secret: row.pendingSecret, confirmedAt: now, lastStep: step, pendingSecret: null, pendingAt: null })
      .where(and(eq(authenticators.userId, userId), eq(authenticators.pendingSecret, row.pendingSecret)))
      .returning({ userId: authenticators.userId }),
    ...replaceRecoveryCodes(db, userId, hashes, ours),
  ])
  if (confirmed.length !== 1) return { ok: false, reason: 'no_setup' }
  return { ok: true, recoveryCodes: codes, replaced: row.confirmedAt !== null }
}

/** Turns the app off: its secret, any setup waiting and every recovery code go. False when none was on or waiting. */
export async function removeAuthenticator(db: Db, userId: string): Promise<boolean> {
  const [removed] = await db.batch([
    db.delete(authenticators).where(eq(authenticators.userId, userId)).returning({ confirmedAt: authenticators.confirmedAt }),
    db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)),
  ])
  return removed.some((r) => r.confirmedAt !== null)
}

export async function authenticatorStatus(db: Db, userId: string, now = Date.now()): Promise<AuthenticatorStatus> {
  const [row, left] = await Promise.all([authenticatorOf(db, userId), recoveryCodesLeft(db, userId)])
  const enabled = row?.confirmedAt != null
  return {
    enabled,
    confirmedAt: enabled ? new Date(row!.confirmedAt!).toISOString() : null,
    recoveryCodesLeft: enabled ? left : 0,
    pending: !!row?.pendingSecret && row.pendingAt !== null && row.pendingAt + AUTHENTICATOR.pendingTtlMs > now,
  }
}

// --- Recovery codes ------------------------------------------------------------------------------

const RECOVERY_LENGTH = AUTHENTICATOR.recoveryCodeGroups * AUTHENTICATOR.recoveryCodeGroupLength

/** One code, xxxx-xxxx-xxxx, each character drawn evenly from the unambiguous alphabet. */
export function newRecoveryCode(): string {
  const alphabet = AUTHENTICATOR.recoveryCodeAlphabet
  // Bytes at or above the largest multiple of the alphabet's size are drawn again: no bias.
  const limit = 256 - (256 % alphabet.length)
  let code = ''
  while (code.length < RECOVERY_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(RECOVERY_LENGTH * 2))) {
      if (byte < limit && code.length < RECOVERY_LENGTH) code += alphabet[byte % alphabet.length]
    }
  }
  const groups = code.match(new RegExp(`.{${AUTHENTICATOR.recoveryCodeGroupLength}}`, 'g'))!
  return groups.join('-')
}

export function newRecoveryCodes(): string[] {
  const codes = new Set<string>()
  while (codes.size < AUTHENTICATOR.recoveryCodeCount) codes.add(newRecoveryCode())
  return [...codes]
}

/** The stored form of a code: SHA-256 of the owner's id and the code as typed, normalised. */
export function recoveryHash(userId: string, code: string): Promise<string> {
  return sha256Hex(`${userId}:${normalizeRecoveryCode(code)}`)
}

/**
 * The statements that replace the owner's recovery codes by `hashes`, both only when `guard` holds
 * (run in one batch with the act that calls for them, so nothing is replaced for an act that lost).
 */
function replaceRecoveryCodes(db: Db, userId: string, hashes: string[], guard: SQL) {
  return [
    db.delete(recoveryCodes).where(and(eq(recoveryCodes.userId, userId), guard)),
    db.insert(recoveryCodes).select(sql`select ${userId}, value, null from json_each(${JSON.stringify(hashes)}) where ${guard}`),
  ] as const
}

/** A new set of codes for an owner whose app is on (every earlier code stops working); null when it is off. */
export async function regenerateRecoveryCodes(db: Db, userId: string): Promise<string[] | null> {
  const codes = newRecoveryCodes()
  const hashes = await Promise.all(codes.map((c) => recoveryHash(userId, c)))
  const on = sql`exists (select 1 from ${authenticators} where ${authenticators.userId} = ${userId} and ${authenticators.confirmedAt} is not null)`
  const [, inserted] = await db.batch(replaceRecoveryCodes(db, userId, hashes, on))
  return inserted.meta.changes > 0 ? codes : null
}

export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
  return row?.n ?? 0
}

// --- Proof ---------------------------------------------------------------------------------------

export type ProofOutcome =
  | { ok: true; method: 'authenticator' }
  | { ok: true; method: 'recovery_code'; left: number }
  | { ok: false; reason: 'not_enabled' | 'invalid' | 'replayed' }

/**
 * Checks a code from the owner's app, or one of their unused recovery codes (used up by this
 * call). A code's time step is taken in the same statement that checks it is later than the last
 * one taken, so a code (or an older one) cannot be used twice, even by two requests at once.
 */
export async function verifySecondFactor(db: Db, userId: string, input: string, now = Date.now()): Promise<ProofOutcome> {
  const row = await authenticatorOf(db, userId)
  if (!row?.secret || row.confirmedAt === null) return { ok: false, reason: 'not_enabled' }
  if (isTotpCode(input)) {
    const step = matchingStep(row.secret, normalizeTotpCode(input), now)
    if (step === null) return { ok: false, reason: 'invalid' }
    const taken = await db
      .update(authenticators)
      .set({ lastStep: step })
      .where(
        and(
          eq(authenticators.userId, userId),
          eq(authenticators.secret, row.secret),
          or(isNull(authenticators.lastStep), lt(authenticators.lastStep, step)),
        ),
      )
      .returning({ userId: authenticators.userId })
    return taken.length === 1 ? { ok: true, method: 'authenticator' } : { ok: false, reason: 'replayed' }
  }
  if (!isRecoveryCode(input)) return { ok: false, reason: 'invalid' }
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.hash, await recoveryHash(userId, input)), isNull(recoveryCodes.usedAt)))
    .returning({ hash: recoveryCodes.hash })
  if (used.length !== 1) return { ok: false, reason: 'invalid' }
  return { ok: true, method: 'recovery_code', left: await recoveryCodesLeft(db, userId) }
}

/**
 * For other proofs of presence (fresh proof): a current code from the owner's app, or an unused
 * recovery code (used up). 'invalid' also when the owner has no app on, or the code was used.
 */
export async function proveWithAuthenticator(db: Db, userId: string, code: string, now?: number): Promise<'ok' | 'invalid'> {
  return (await verifySecondFactor(db, userId, code, now)).ok ? 'ok' : 'invalid'
}
