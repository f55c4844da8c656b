// Whether this browser can use security keys at all: the check @simplewebauthn/browser's
// browserSupportsWebAuthn makes, without loading the library. The sign-in page asks it to decide
// whether to offer the key button; the ceremonies themselves load when a key is used.
export function securityKeysSupported(): boolean {
  return typeof globalThis.PublicKeyCredential === 'function'
}
