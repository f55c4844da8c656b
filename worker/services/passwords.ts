import { fromBase64, randomBytes, timingSafeEqual, toBase64 } from '../lib/crypto'

/**
 * Account passwords: PBKDF2-HMAC-SHA256, 16-byte random salt, 32-byte output.
 *
 * 100 000 iterations is the most production Workers accept (workerd rejects higher counts there,
 * although the local runtime allows them), so it is both the ceiling and our cost. It is measured by
 * `npm run bench`; stored hashes carry their parameters so the cost can be raised on a later login.
 */
export const PBKDF2_ITERATIONS = 100_000
const SALT_BYTES = 16
const HASH_BYTES = 32
const SCHEME = 'pbkdf2-sha256'

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits'])
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, HASH_BYTES * 8)
  return new Uint8Array(bits)
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const hash = await derive(password, salt, PBKDF2_ITERATIONS)
  return `${SCHEME}$${PBKDF2_ITERATIONS}$${toBase64(salt)}$${toBase64(hash)}`
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterations, salt, hash] = stored.split('$')
  if (scheme !== SCHEME || !iterations || !salt || !hash) return false
  const count = Number(iterations)
  if (!Number.isInteger(count) || count < 1 || count > PBKDF2_ITERATIONS) return false
  try {
    const expected = fromBase64(hash)
    const actual = await derive(password, fromBase64(salt), count)
    return timingSafeEqual(actual, expected)
  } catch {
    // A corrupted stored hash (not base64) is a failed match, not a server error.
    return false
  }
}

// Verifying against this when no account matches keeps the response time of "no such e-mail"
// the same as "wrong password", so timing does not reveal which addresses have accounts.
let dummyHash: Promise<string> | undefined
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password')
  return dummyHash
}
