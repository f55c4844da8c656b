import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server'
import { z } from 'zod'

// Security keys (passkeys): WebAuthn ceremonies verified by the server (seeds 000 §2 Login and
// Registration, §8 toasts, §9 'Security keys'). The browser only ever holds the options the server
// issued and the authenticator's signed answers; the server keeps each key's public key and counter.

export const SECURITY_KEY = {
  timeoutMs: 60_000,
  challengeBytes: 32,
  /** ES256 and RS256, as COSE algorithm ids. */
  algorithms: [-7, -257],
  attachment: 'cross-platform',
  userVerification: 'preferred',
  attestation: 'direct',
  transports: ['usb', 'nfc', 'ble', 'hybrid'],
  /** A challenge outlives the browser's time-out a little, for the round trip; then it is gone. */
  challengeTtlMs: 90_000,
  nameMax: 64,
  maxPerOwner: 10,
} as const

export const WEBAUTHN_MESSAGES = {
  // Toasts (seeds 000 §8), to the letter.
  notSupported: 'WebAuthn not supported',
  notSupportedBody: 'This browser cannot use security keys. Sign in with your password.',
  noKeys: 'No security keys found',
  noKeysBody: 'Register a key first or use password login.',
  authFailed: 'WebAuthn authentication failed',
  setupFailed: 'WebAuthn setup failed',
  registered: 'Security key registered!',
  authSuccess: 'WebAuthn authentication successful!',
  // Ours.
  cancelled: 'The security key request was cancelled or timed out.',
  challengeInvalid: 'This security key request has expired or was already used. Please try again.',
  unknownCredential: 'This security key is not registered to any account.',
  verificationFailed: 'The security key could not be verified.',
  counterRegressed: 'This security key reported a use count lower than before, so it may have been copied. It was refused.',
  alreadyRegistered: 'This security key is already registered.',
  tooMany: `You can register at most ${SECURITY_KEY.maxPerOwner} security keys.`,
  notFound: 'Security key not found.',
  nameInvalid: `Key name must be 1 to ${SECURITY_KEY.nameMax} characters`,
  removedTitle: 'Security key removed',
  removeFailed: 'Could not remove the security key',
  lastKeyWithTwoFactor: 'Turn off two-factor sign-in before removing your last security key.',
  twoFactorNeedsKey: 'Add a security key before turning on two-factor sign-in.',
  secondFactorPrompt: 'Two-factor sign-in is on: confirm with your security key.',
} as const

// The JSON forms of PublicKeyCredential (WebAuthn L3 toJSON). Bounded, so nothing huge is parsed.
const b64url = (max: number) => z.string().min(1).max(max).regex(/^[A-Za-z0-9_-]+$/, 'must be base64url')

const credentialCommon = {
  id: b64url(1024),
  rawId: b64url(1024),
  type: z.literal('public-key'),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
}

export const registrationResponseSchema = z.object({
  ...credentialCommon,
  response: z.object({
    clientDataJSON: b64url(4096),
    attestationObject: b64url(12_000),
    transports: z.array(z.string().max(32)).max(8).optional(),
    authenticatorData: b64url(4096).optional(),
    publicKey: b64url(4096).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
})

export const authenticationResponseSchema = z.object({
  ...credentialCommon,
  response: z.object({
    clientDataJSON: b64url(4096),
    authenticatorData: b64url(4096),
    signature: b64url(2048),
    userHandle: b64url(256).optional(),
  }),
})

const keyName = z.string({ error: WEBAUTHN_MESSAGES.nameInvalid }).trim().min(1, WEBAUTHN_MESSAGES.nameInvalid).max(SECURITY_KEY.nameMax, WEBAUTHN_MESSAGES.nameInvalid)

export const registerKeyBodySchema = z.object({ response: registrationResponseSchema, name: keyName.optional() })
export const signInWithKeyBodySchema = z.object({ response: authenticationResponseSchema })
export const renameKeyBodySchema = z.object({ name: keyName })
/** The second-factor challenge the browser could not answer with a key (reported, not retried). */
export const abandonSecondFactorBodySchema = z.object({ challenge: b64url(128) })

export const securityKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  transports: z.array(z.string()),
  backedUp: z.boolean(),
})
export type SecurityKey = z.infer<typeof securityKeySchema>

export const securityKeyListSchema = z.object({ keys: z.array(securityKeySchema), twoFactorEnabled: z.boolean() })
export type SecurityKeyList = z.infer<typeof securityKeyListSchema>

export const registerKeyResponseSchema = z.object({ key: securityKeySchema, securityKeyCount: z.number().int() })
export type RegisterKeyResponse = z.infer<typeof registerKeyResponseSchema>

/**
 * A password sign-in of an account with two-factor on: no session yet, only the options for the
 * second step, which is answered at the security-key sign-in endpoint like any other.
 */
export const secondFactorResponseSchema = z.object({
  twoFactorRequired: z.literal(true),
  options: z.custom<PublicKeyCredentialRequestOptionsJSON>((value) => typeof value === 'object' && value !== null),
  message: z.string(),
})
export type SecondFactorResponse = z.infer<typeof secondFactorResponseSchema>

export const WEBAUTHN_PATHS = {
  registerOptions: '/api/auth/webauthn/register/options',
  registerVerify: '/api/auth/webauthn/register/verify',
  loginOptions: '/api/auth/webauthn/login/options',
  loginVerify: '/api/auth/webauthn/login/verify',
  secondFactorAbandon: '/api/auth/webauthn/second-factor/abandon',
  keys: '/api/auth/security-keys',
} as const
