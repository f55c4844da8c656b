// The API as a client sees it: JSON calls with a bearer token, owners registered through the API,
// beneficiaries with real RSA-OAEP public keys, and small items stored through the real upload
// protocol (start → parts → complete). Each call comes from its own address so the per-address
// rate limiters stay out of the measurements.
import { createHash, randomBytes } from 'node:crypto'

const sha256 = (bytes) => createHash('sha256').update(bytes).digest()

/** Bytes a chunk adds to its plaintext: version (1) + IV (12) + GCM tag (16) (contract/vault-items.ts). */
export const CHUNK_OVERHEAD_BYTES = 29

/** The exact ciphertext size of part n (1-based) of an upload session, as the server expects it. */
export function partSize(session, plainSize, n) {
  if (n < session.partCount) return session.chunkBytes + CHUNK_OVERHEAD_BYTES
  return plainSize - (session.partCount - 1) * session.chunkBytes + CHUNK_OVERHEAD_BYTES
}

let ipCounter = Math.floor(Math.random() * 0xffff)
export function freshIp() {
  ipCounter++
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`
}

export function client(origin) {
  async function call(method, path, { token, body, raw, headers = {} } = {}) {
    const h = { 'cf-connecting-ip': freshIp(), ...headers }
    if (token) h.authorization = `Bearer ${token}`
    if (body !== undefined) h['content-type'] = 'application/json'
    if (raw !== undefined) h['content-type'] = 'application/octet-stream'
    return fetch(`${origin}${path}`, { method, headers: h, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) })
  }

  /** The call's JSON, or an error naming the call, its status and the server's words. */
  async function json(method, path, options = {}, expected = [200, 201]) {
    const res = await call(method, path, options)
    const text = await res.text()
    if (!expected.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`)
    return text ? JSON.parse(text) : null
  }

  let owners = 0
  async function registerOwner(prefix = 'owner', plan) {
    owners++
    const email = `${prefix}-${owners}-${Date.now().toString(36)}@example.com`
    const password = 'bench password 1'
    const { token, user } = await json('POST', '/api/auth/register', { body: { email, password, displayName: 'Bench Owner' } })
    // Without Stripe a plan is granted at once (the Basic plan holds 20 items and 3 beneficiaries).
    if (plan && plan !== 'basic') await json('POST', '/api/create-subscription', { token, body: { plan } })
    return { token, user, email, password }
  }

  // The owner's vault signing key, as the owner's browser keeps it: made with the vault (set up on
  // first use here), the private half held in memory per session token.
  const signers = new Map()
  async function vaultSigner(token) {
    if (!signers.has(token)) {
      signers.set(token, (async () => {
        const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])
        const signingPublicKey = Buffer.from(await crypto.subtle.exportKey('spki', pair.publicKey)).toString('base64')
        const body = {
          vaultSalt: randomBytes(32).toString('base64'),
          passphraseCheck: randomBytes(45).toString('base64'),
          signingPublicKey,
          // Opaque to the server: in the app, the private key wrapped by the master key.
          wrappedSigningKey: randomBytes(160).toString('base64'),
          // Likewise the vault key wrapped by the master key (a 256-bit key and AES-GCM's IV and tag).
          wrappedVaultKey: randomBytes(61).toString('base64'),
        }
        const { user } = await json('POST', '/api/vault/setup', { token, body })
        return { ownerId: user.id, privateKey: pair.privateKey }
      })())
    }
    return signers.get(token)
  }

  /** The beneficiary statement contract/vault-statements.ts defines (v2), signed as the browser signs it. */
  async function statementSignature(token, f) {
    const { ownerId, privateKey } = await vaultSigner(token)
    const statement = [
      'legacy-vault:beneficiary:v2',
      ownerId,
      String(f.sequence),
      f.id,
      JSON.stringify(f.fullName),
      JSON.stringify(f.relationship),
      f.email.trim().toLowerCase(),
      String(f.keyVersion),
      f.publicKey,
    ].join('\n')
    const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey, new TextEncoder().encode(statement))
    return Buffer.from(signature).toString('base64')
  }

  // The vault-wide statement sequence, per owner: the bench adds its beneficiaries one at a time.
  const sequences = new Map()
  let heirs = 0
  async function addBeneficiary(token, publicKey) {
    heirs++
    const email = `heir-${heirs}-${Date.now().toString(36)}@example.com`
    const statementSequence = (sequences.get(token) ?? 0) + 1
    sequences.set(token, statementSequence)
    const fields = { id: crypto.randomUUID(), fullName: `Heir ${heirs}`, relationship: 'Child', email, keyVersion: 1, publicKey }
    const keySignature = await statementSignature(token, { ...fields, sequence: statementSequence })
    const { keyVersion: _one, ...body } = fields
    return json('POST', '/api/beneficiaries', { token, body: { ...body, keySignature, statementSequence, sendVerificationEmail: false } })
  }

  /**
   * One item through the upload protocol. The bytes are random stand-ins for ciphertext of the
   * exact sizes the server expects; the keys and metadata are opaque base64 to the server. The
   * manifest (web/crypto/FORMAT.md, "Item manifests") is signed as the browser signs it; grants
   * are to beneficiaries at key version 1 unless they say otherwise.
   */
  async function uploadItem(token, { plainSize = 100, grants, policy = { protocol: 'VERIFIED_DEATH' }, policyIds = [] }) {
    const session = await json('POST', '/api/vault/uploads', { token, body: { type: 'doc', plainSize } })
    const chunkDigests = []
    for (let n = 1; n <= session.partCount; n++) {
      const raw = randomBytes(partSize(session, plainSize, n))
      chunkDigests.push(sha256(raw))
      await json('PUT', `/api/vault/uploads/${session.itemId}/parts/${n}`, { token, raw })
    }
    const encryptedMetadata = randomBytes(120).toString('base64')
    const { ownerId, privateKey } = await vaultSigner(token)
    const manifest = [
      'legacy-vault:item-manifest:v1',
      `owner ${ownerId}`,
      `item ${session.itemId}`,
      'type doc',
      `size ${plainSize}`,
      `chunks ${session.partCount} ${sha256(Buffer.concat(chunkDigests)).toString('hex')}`,
      `metadata ${sha256(Buffer.from(encryptedMetadata, 'base64')).toString('hex')}`,
      ...grants
        .map((g) => `grant ${g.beneficiaryId} ${g.keyVersion ?? 1} ${sha256(Buffer.from(g.wrappedKey, 'base64')).toString('hex')}`)
        .sort((a, b) => (a.split(' ')[1] < b.split(' ')[1] ? -1 : 1)),
    ].join('\n')
    const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey, new TextEncoder().encode(manifest))
    return json('POST', `/api/vault/uploads/${session.itemId}/complete`, {
      token,
      body: { encryptedMetadata, wrappedKey: randomBytes(60).toString('base64'), policy, grants, policyIds, manifestSignature: Buffer.from(signature).toString('base64') },
    })
  }

  return { origin, call, json, registerOwner, addBeneficiary, uploadItem }
}

/** An RSA-OAEP/SHA-256 2048-bit public key as base64 SPKI (what the Add Beneficiary form sends). */
export async function rsaOaepPublicKey() {
  const pair = await crypto.subtle.generateKey({ name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['encrypt', 'decrypt'])
  return Buffer.from(await crypto.subtle.exportKey('spki', pair.publicKey)).toString('base64')
}

/** A grant's wrapped key: RSA-OAEP-2048 output is 256 bytes. */
export const fakeWrappedKey = () => randomBytes(256).toString('base64')
