import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticatorTransport,
} from '@simplewebauthn/server'
import { eq } from 'drizzle-orm'
import type { z } from 'zod'
import { SECURITY_KEY, WEBAUTHN_MESSAGES, type authenticationResponseSchema, type registrationResponseSchema } from '../../contract/webauthn'
import type { Db } from '../db/client'
import { users, type UserRow, type WebauthnCredentialRow } from '../db/schema'
import { badRequest, conflict } from '../lib/errors'
import { fromBase64Url, toBase64Url } from '../lib/crypto'
import { issueChallenge, takeChallenge } from './challenges'
import { countKeys, findKey, insertKey, listKeys, recordKeyUse } from './credentials'
import { relyingParty } from './relying-party'

type RegistrationResponse = z.output<typeof registrationResponseSchema>
type AuthenticationResponse = z.output<typeof authenticationResponseSchema>

const transportsOf = (key: WebauthnCredentialRow) =>
  (key.transports.length > 0 ? key.transports : SECURITY_KEY.transports) as AuthenticatorTransport[]

/** The WebAuthn user handle: the account id's bytes, so a discoverable answer names its owner. */
const userHandleOf = (userId: string) => new Uint8Array(new TextEncoder().encode(userId))

/** The challenge a signed answer claims to answer, read from its client data (400 if unreadable). */
function claimedChallenge(clientDataJSON: string): string {
  try {
    const clientData = JSON.parse(new TextDecoder().decode(fromBase64Url(clientDataJSON))) as { challenge?: unknown }
    if (typeof clientData.challenge === 'string' && clientData.challenge.length > 0) return clientData.challenge
  } catch {
    // falls through
  }
  throw badRequest(`${WEBAUTHN_MESSAGES.verificationFailed} The client data is malformed.`)
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error))

// --- Registration (a signed-in owner adds a key) ----------------------------------------------------

export async function registrationOptions(db: Db, env: Env, user: UserRow) {
  const existing = await listKeys(db, user.id)
  if (existing.length >= SECURITY_KEY.maxPerOwner) throw conflict(WEBAUTHN_MESSAGES.tooMany)
  const rp = relyingParty(env)
  const challenge = await issueChallenge(db, 'register', user.id)
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userID: userHandleOf(user.id),
    userDisplayName: user.displayName,
    challenge: fromBase64Url(challenge),
    timeout: SECURITY_KEY.timeoutMs,
    attestationType: SECURITY_KEY.attestation,
    supportedAlgorithmIDs: [...SECURITY_KEY.algorithms],
    excludeCredentials: existing.map((key) => ({ id: key.id, transports: transportsOf(key) })),
    authenticatorSelection: {
      authenticatorAttachment: SECURITY_KEY.attachment,
      // Discoverable, so the key alone can start a sign-in (no e-mail typed, none revealed).
      residentKey: 'required',
      requireResidentKey: true,
      userVerification: SECURITY_KEY.userVerification,
    },
  })
}

export async function verifyRegistration(db: Db, env: Env, user: UserRow, response: RegistrationResponse, name: string | undefined, now = Date.now()) {
  const challenge = claimedChallenge(response.response.clientDataJSON)
  const taken = await takeChallenge(db, challenge, ['register'], now)
  if (!taken || taken.userId !== user.id) throw badRequest(WEBAUTHN_MESSAGES.challengeInvalid)
  const rp = relyingParty(env)
  let info
  try {
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
      supportedAlgorithmIDs: [...SECURITY_KEY.algorithms],
    })
    if (!verification.verified) throw new Error('the attestation was not verified')
    info = verification.registrationInfo
  } catch (error) {
    console.warn(`security key registration refused for ${user.id}: ${reason(error)}`)
    throw badRequest(WEBAUTHN_MESSAGES.verificationFailed)
  }
  const count = await countKeys(db, user.id)
  if (count >= SECURITY_KEY.maxPerOwner) throw conflict(WEBAUTHN_MESSAGES.tooMany)
  const key = await insertKey(db, {
    id: info.credential.id,
    userId: user.id,
    name: name ?? `Security key ${count + 1}`,
    publicKey: toBase64Url(info.credential.publicKey),
    counter: info.credential.counter,
    transports: (response.response.transports ?? []).filter((t) => t.length > 0),
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
    aaguid: info.aaguid,
    attestationFormat: info.fmt,
    createdAt: now,
    lastUsedAt: null,
    trustedAt: null,
  })
  if (!key) throw conflict(WEBAUTHN_MESSAGES.alreadyRegistered)
  return { key, securityKeyCount: count + 1 }
}

// --- Sign-in (discoverable) and the second factor -----------------------------------------------------

/** Options for a sign-in with any key the browser holds for us: no account is named. */
export async function signInOptions(db: Db, env: Env) {
  const challenge = await issueChallenge(db, 'sign_in', null)
  return generateAuthenticationOptions({
    rpID: relyingParty(env).id,
    challenge: fromBase64Url(challenge),
    timeout: SECURITY_KEY.timeoutMs,
    userVerification: SECURITY_KEY.userVerification,
  })
}

/** Options for the second step of a password sign-in: only this account's keys will do. */
export async function secondFactorOptions(db: Db, env: Env, user: UserRow) {
  const keys = await listKeys(db, user.id)
  const challenge = await issueChallenge(db, 'second_factor', user.id)
  return generateAuthenticationOptions({
    rpID: relyingParty(env).id,
    challenge: fromBase64Url(challenge),
    timeout: SECURITY_KEY.timeoutMs,
    userVerification: SECURITY_KEY.userVerification,
    allowCredentials: keys.map((key) => ({ id: key.id, transports: transportsOf(key) })),
  })
}

export type FailureReason = 'signature' | 'counter' | 'not_completed'

export type SignInOutcome =
  | { ok: true; user: UserRow; key: WebauthnCredentialRow }
  /** Refused; nothing proves it was the account's holder, so it counts for nobody. */
  | { ok: false; status: 400 | 401; message: string }
  /**
   * Refused, and it is the owner's failure: either the answer was signed by their key (a counter
   * gone back: a copied key), or it was the second step after their right password.
   */
  | { ok: false; status: 401; message: string; ownerId: string; reason: FailureReason }

export async function verifySignIn(db: Db, env: Env, response: AuthenticationResponse, now = Date.now()): Promise<SignInOutcome> {
  const challenge = claimedChallenge(response.response.clientDataJSON)
  const taken = await takeChallenge(db, challenge, ['sign_in', 'second_factor'], now)
  if (!taken) return { ok: false, status: 400, message: WEBAUTHN_MESSAGES.challengeInvalid }
  const key = await findKey(db, response.id)
  // A second factor must be one of the keys of the account whose password was just given.
  if (!key || (taken.purpose === 'second_factor' && taken.userId !== key.userId)) {
    return { ok: false, status: 401, message: WEBAUTHN_MESSAGES.unknownCredential }
  }
  // Without a named account, the answer must name its own (WebAuthn §7.2), and name the key's owner.
  const userHandle = response.response.userHandle
  if ((taken.purpose === 'sign_in' && userHandle === undefined) || (userHandle !== undefined && userHandle !== toBase64Url(userHandleOf(key.userId)))) {
    return { ok: false, status: 401, message: WEBAUTHN_MESSAGES.unknownCredential }
  }
  const ownersFailure = (reason: FailureReason, message: string): SignInOutcome =>
    reason === 'counter' || taken.purpose === 'second_factor'
      ? { ok: false, status: 401, message, ownerId: key.userId, reason }
      : { ok: false, status: 401, message }
  const rp = relyingParty(env)
  let verification
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      // Counter 0 here: the signature is checked first, then the counter below, so a counter
      // gone back is known to come from the key itself.
      credential: { id: key.id, publicKey: fromBase64Url(key.publicKey), counter: 0, transports: transportsOf(key) },
      // A key alone (no password) must also have checked its holder: PIN or biometric.
      requireUserVerification: taken.purpose === 'sign_in',
    })
  } catch (error) {
    console.warn(`security key ${key.id.slice(0, 12)} refused: ${reason(error)}`)
    return ownersFailure('signature', WEBAUTHN_MESSAGES.verificationFailed)
  }
  if (!verification.verified) return ownersFailure('signature', WEBAUTHN_MESSAGES.verificationFailed)
  const newCounter = verification.authenticationInfo.newCounter
  if ((newCounter > 0 || key.counter > 0) && newCounter <= key.counter) return ownersFailure('counter', WEBAUTHN_MESSAGES.counterRegressed)
  // Lost a race with another use of the same key: refused, but nobody's failure.
  if (!(await recordKeyUse(db, key, newCounter, now))) return { ok: false, status: 401, message: WEBAUTHN_MESSAGES.counterRegressed }
  const user = await db.query.users.findFirst({ where: eq(users.id, key.userId) })
  if (!user) return { ok: false, status: 401, message: WEBAUTHN_MESSAGES.unknownCredential }
  return { ok: true, user, key: { ...key, counter: newCounter, lastUsedAt: now } }
}

/**
 * The browser could not complete a second factor (no key, cancelled, timed out): the challenge
 * that followed the right password is given back, and the failure is its owner's.
 */
export async function abandonSecondFactor(db: Db, challenge: string, now = Date.now()): Promise<string | undefined> {
  const taken = await takeChallenge(db, challenge, ['second_factor'], now)
  return taken?.userId ?? undefined
}
