// The security keys' settings, words and paths, without the schemas of contract/webauthn.ts (which
// re-exports them): the sign-in page reads these, and zod is no part of what a public page loads.

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

export const WEBAUTHN_PATHS = {
  registerOptions: '/api/auth/webauthn/register/options',
  registerVerify: '/api/auth/webauthn/register/verify',
  loginOptions: '/api/auth/webauthn/login/options',
  loginVerify: '/api/auth/webauthn/login/verify',
  secondFactorAbandon: '/api/auth/webauthn/second-factor/abandon',
  keys: '/api/auth/security-keys',
} as const
