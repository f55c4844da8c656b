import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server'
import { z } from 'zod'
import { SECURITY_KEY, WEBAUTHN_MESSAGES, WEBAUTHN_PATHS } from './webauthn-constants'

// Security keys (passkeys): WebAuthn ceremonies verified by the server (seeds 000 §2 Login and
// Registration, §8 toasts, §9 'Security keys'). The browser only ever holds the options the server
// issued and the authenticator's signed answers; the server keeps each key's public key and counter.

export { SECURITY_KEY, WEBAUTHN_MESSAGES, WEBAUTHN_PATHS }

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
  /** The owner marked it as a trusted device (contract/trusted-devices.ts). */
  trusted: z.boolean(),
})
export type SecurityKey = z.infer<typeof securityKeySchema>

export const securityKeyListSchema = z.object({ keys: z.array(securityKeySchema), twoFactorEnabled: z.boolean() })
export type SecurityKeyList = z.infer<typeof securityKeyListSchema>

export const registerKeyResponseSchema = z.object({ key: securityKeySchema, securityKeyCount: z.number().int() })
export type RegisterKeyResponse = z.infer<typeof registerKeyResponseSchema>

/**
 * A password sign-in of an account with two-factor on: no session yet, only what the second step
 * needs. `methods` says which second factors the account has: with 'security_key', the options of
 * the key step (answered at the security-key sign-in endpoint like any other); with
 * 'authenticator', a short-lived ticket for POST /api/auth/authenticator/sign-in with a code.
 */
export const secondFactorResponseSchema = z.object({
  twoFactorRequired: z.literal(true),
  methods: z.array(z.enum(['authenticator', 'security_key'])).min(1),
  options: z.custom<PublicKeyCredentialRequestOptionsJSON>((value) => typeof value === 'object' && value !== null).optional(),
  ticket: z.string().optional(),
  message: z.string(),
})
export type SecondFactorResponse = z.infer<typeof secondFactorResponseSchema>
