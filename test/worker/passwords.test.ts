import { describe, expect, it } from 'vitest'
import { toBase64 } from '../../worker/lib/crypto'
import { dummyPasswordHash, hashPassword, PBKDF2_ITERATIONS, verifyPassword } from '../../worker/services/passwords'

const PASSWORD = 'correct horse battery'

/** A stored hash in the worker's format, for any iteration count (the worker only writes 100 000). */
async function storedHash(password: string, iterations: number, salt = crypto.getRandomValues(new Uint8Array(16))) {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits'])
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, 256)
  return `pbkdf2-sha256$${iterations}$${toBase64(salt)}$${toBase64(new Uint8Array(bits))}`
}

describe('password hashing', () => {
  it('uses 100 000 PBKDF2 iterations, the most production Workers accept', () => {
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(100_000)
    expect(PBKDF2_ITERATIONS).toBe(100_000)
  })

  it('stores scheme, iterations, a 16-byte salt and a 32-byte hash', async () => {
    const stored = await hashPassword(PASSWORD)
    expect(stored.startsWith('pbkdf2-sha256$100000$')).toBe(true)
    const [, , salt, hash] = stored.split('$') as [string, string, string, string]
    expect(atob(salt)).toHaveLength(16)
    expect(atob(hash)).toHaveLength(32)
    expect(stored).not.toContain(PASSWORD)
  })

  it('salts every hash: two hashes of one password differ', async () => {
    const a = await hashPassword(PASSWORD)
    const b = await hashPassword(PASSWORD)
    expect(a).not.toBe(b)
    expect(a.split('$')[2]).not.toBe(b.split('$')[2])
    expect(await verifyPassword(PASSWORD, a)).toBe(true)
    expect(await verifyPassword(PASSWORD, b)).toBe(true)
  })

  it('matches an independent PBKDF2-HMAC-SHA256 computation', async () => {
    const stored = await hashPassword(PASSWORD)
    const salt = Uint8Array.from(atob(stored.split('$')[2]!), (c) => c.charCodeAt(0))
    expect(await storedHash(PASSWORD, 100_000, salt)).toBe(stored)
  })
})

describe('verifyPassword', () => {
  it('accepts the right password', async () => {
    expect(await verifyPassword(PASSWORD, await hashPassword(PASSWORD))).toBe(true)
  })

  it('rejects a wrong password, one differing only in case or by a trailing space, and the empty one', async () => {
    const stored = await hashPassword(PASSWORD)
    expect(await verifyPassword('wrong password', stored)).toBe(false)
    expect(await verifyPassword(PASSWORD.toUpperCase(), stored)).toBe(false)
    expect(await verifyPassword(`${PASSWORD} `, stored)).toBe(false)
    expect(await verifyPassword('', stored)).toBe(false)
  })

  it('handles non-ASCII passwords', async () => {
    const password = 'pässwörd 🔐 пароль'
    const stored = await hashPassword(password)
    expect(await verifyPassword(password, stored)).toBe(true)
    expect(await verifyPassword('passwörd 🔐 пароль', stored)).toBe(false)
  })

  it('accepts a stored hash with fewer iterations (parameters travel with the hash)', async () => {
    expect(await verifyPassword(PASSWORD, await storedHash(PASSWORD, 1_000))).toBe(true)
    expect(await verifyPassword('wrong password', await storedHash(PASSWORD, 1_000))).toBe(false)
  })

  it('rejects a stored hash asking for more than 100 000 iterations, even with the right password', async () => {
    const [, , salt, hash] = (await hashPassword(PASSWORD)).split('$')
    expect(await verifyPassword(PASSWORD, `pbkdf2-sha256$100001$${salt}$${hash}`)).toBe(false)
    expect(await verifyPassword(PASSWORD, `pbkdf2-sha256$600000$${salt}$${hash}`)).toBe(false)
    expect(await verifyPassword(PASSWORD, `pbkdf2-sha256$${Number.MAX_SAFE_INTEGER}$${salt}$${hash}`)).toBe(false)
  })

  it('rejects a hash whose parameters were changed', async () => {
    const [scheme, , salt, hash] = (await hashPassword(PASSWORD)).split('$')
    expect(await verifyPassword(PASSWORD, `${scheme}$99999$${salt}$${hash}`)).toBe(false)
  })

  it.each([
    ['the empty string', ''],
    ['a plain-text password', PASSWORD],
    ['another scheme', 'bcrypt$100000$c2FsdA==$aGFzaA=='],
    ['a missing hash', 'pbkdf2-sha256$100000$c2FsdA=='],
    ['empty parts', 'pbkdf2-sha256$$$'],
    ['a non-numeric count', 'pbkdf2-sha256$lots$c2FsdA==$aGFzaA=='],
    ['a fractional count', 'pbkdf2-sha256$1000.5$c2FsdA==$aGFzaA=='],
    ['a zero count', 'pbkdf2-sha256$0$c2FsdA==$aGFzaA=='],
    ['a negative count', 'pbkdf2-sha256$-5$c2FsdA==$aGFzaA=='],
    ['a hash of the wrong length', 'pbkdf2-sha256$1000$c2FsdA==$aGFzaA=='],
  ])('returns false for %s', async (_label, stored) => {
    expect(await verifyPassword(PASSWORD, stored)).toBe(false)
  })

  // A corrupt stored hash must be a failed match (401 at login), never a thrown error (a 500).
  it('returns false, rather than throwing, for a stored hash that is not base64', async () => {
    await expect(verifyPassword(PASSWORD, 'pbkdf2-sha256$1000$not*base64!$also*not*base64!')).resolves.toBe(false)
  })

  it('verifies against the dummy hash without error (used when no account matches)', async () => {
    const dummy = await dummyPasswordHash()
    expect(dummy.startsWith('pbkdf2-sha256$100000$')).toBe(true)
    expect(await dummyPasswordHash()).toBe(dummy)
    expect(await verifyPassword(PASSWORD, dummy)).toBe(false)
  })
})
