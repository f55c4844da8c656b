import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server'
import { fromBase64Url, toBase64Url } from '../../worker/lib/crypto'

// A software FIDO2 authenticator for the worker tests, on WebCrypto alone: it makes the same
// signed answers a security key and a browser would (client data, authenticator data, packed self
// attestation, ES256 or RS256 assertions), and can be told to lie about any part of them.

export type CoseAlgorithm = -7 | -257

// --- Bytes ---------------------------------------------------------------------------

export { fromBase64Url, toBase64Url }

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  parts.reduce((offset, part) => (out.set(part, offset), offset + part.length), 0)
  return out
}

const utf8 = (text: string) => new TextEncoder().encode(text)

export async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
}

function uint32(n: number): Uint8Array {
  const out = new Uint8Array(4)
  new DataView(out.buffer).setUint32(0, n >>> 0)
  return out
}

function uint16(n: number): Uint8Array {
  const out = new Uint8Array(2)
  new DataView(out.buffer).setUint16(0, n)
  return out
}

// --- A tiny CBOR encoder (RFC 8949): just what attestation objects and COSE keys need -----------------

export type CborValue = number | string | Uint8Array | CborValue[] | Map<number | string, CborValue>

function cborHead(major: number, n: number): Uint8Array {
  const type = major << 5
  if (n < 24) return Uint8Array.of(type | n)
  if (n < 0x100) return Uint8Array.of(type | 24, n)
  if (n < 0x1_0000) return concat(Uint8Array.of(type | 25), uint16(n))
  if (n < 0x1_0000_0000) return concat(Uint8Array.of(type | 26), uint32(n))
  throw new Error(`CBOR: ${n} is too large for this encoder`)
}

export function cbor(value: CborValue): Uint8Array {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error(`CBOR: only integers, not ${value}`)
    return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value)
  }
  if (typeof value === 'string') {
    const bytes = utf8(value)
    return concat(cborHead(3, bytes.length), bytes)
  }
  if (value instanceof Uint8Array) return concat(cborHead(2, value.length), value)
  if (Array.isArray(value)) return concat(cborHead(4, value.length), ...value.map(cbor))
  const entries = [...value.entries()]
  return concat(cborHead(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)]))
}

// --- Signatures ----------------------------------------------------------------------------------------

/** One INTEGER of an ASN.1 DER ECDSA signature: no leading zeros, a 0x00 when the high bit is set. */
function derInteger(raw: Uint8Array): Uint8Array {
  let start = 0
  while (start < raw.length - 1 && raw[start] === 0) start++
  let body: Uint8Array = raw.slice(start)
  if (body[0]! & 0x80) body = concat(Uint8Array.of(0), body)
  return concat(Uint8Array.of(0x02, body.length), body)
}

/** WebCrypto's ECDSA signature is r‖s; WebAuthn wants SEQUENCE { INTEGER r, INTEGER s }. */
export function rawEcdsaToDer(raw: Uint8Array): Uint8Array {
  const half = raw.length / 2
  const body = concat(derInteger(raw.slice(0, half)), derInteger(raw.slice(half)))
  return concat(Uint8Array.of(0x30, body.length), body)
}

const FLAG_UP = 0x01
const FLAG_UV = 0x04
const FLAG_AT = 0x40

export interface RegisterOverrides {
  origin?: string
  rpId?: string
  challenge?: string
  fmt?: 'none' | 'packed'
}

export interface AssertOverrides {
  origin?: string
  rpId?: string
  challenge?: string
  /** UV flag; on unless false. */
  userVerified?: boolean
  /** Signs something else, so the signature is well formed but wrong. */
  tamperSignature?: boolean
  /** The signature counter to report (the authenticator then remembers it). */
  counter?: number
}

export class SoftAuthenticator {
  /** base64url */
  credentialId: string
  /** Incremented before each assertion; set it to simulate a clone or a regression. */
  counter = 0
  /** base64url, remembered from the registration options' user.id. */
  userHandle: string | null = null

  private constructor(
    readonly algorithm: CoseAlgorithm,
    private readonly keys: CryptoKeyPair,
    private readonly cosePublicKey: Uint8Array,
    readonly origin: string,
    readonly rpId: string,
  ) {
    this.credentialId = toBase64Url(crypto.getRandomValues(new Uint8Array(32)))
  }

  static async create(opts: { origin?: string; rpId?: string; algorithm?: CoseAlgorithm } = {}): Promise<SoftAuthenticator> {
    const algorithm = opts.algorithm ?? -7
    let keys: CryptoKeyPair
    let cose: Map<number, CborValue>
    if (algorithm === -7) {
      keys = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair
      const raw = new Uint8Array((await crypto.subtle.exportKey('raw', keys.publicKey)) as ArrayBuffer)
      // 0x04 ‖ x ‖ y
      cose = new Map<number, CborValue>([[1, 2], [3, -7], [-1, 1], [-2, raw.slice(1, 33)], [-3, raw.slice(33, 65)]])
    } else {
      keys = (await crypto.subtle.generateKey(
        { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: Uint8Array.of(1, 0, 1), hash: 'SHA-256' },
        true,
        ['sign', 'verify'],
      )) as CryptoKeyPair
      const jwk = (await crypto.subtle.exportKey('jwk', keys.publicKey)) as JsonWebKey
      cose = new Map<number, CborValue>([[1, 3], [3, -257], [-1, fromBase64Url(jwk.n!)], [-2, fromBase64Url(jwk.e!)]])
    }
    return new SoftAuthenticator(algorithm, keys, cbor(cose), opts.origin ?? 'http://localhost:8787', opts.rpId ?? 'localhost')
  }

  private async sign(data: Uint8Array): Promise<Uint8Array> {
    if (this.algorithm === -7) {
      const raw = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, this.keys.privateKey, data))
      return rawEcdsaToDer(raw)
    }
    return new Uint8Array(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', this.keys.privateKey, data))
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Uint8Array {
    return utf8(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
  }

  async register(options: PublicKeyCredentialCreationOptionsJSON, overrides: RegisterOverrides = {}): Promise<RegistrationResponseJSON> {
    this.userHandle = options.user.id
    const clientDataJSON = this.clientData('webauthn.create', overrides.challenge ?? options.challenge, overrides.origin ?? this.origin)
    const credentialId = fromBase64Url(this.credentialId)
    const authData = concat(
      await sha256(utf8(overrides.rpId ?? this.rpId)),
      Uint8Array.of(FLAG_UP | FLAG_UV | FLAG_AT),
      uint32(this.counter),
      new Uint8Array(16),
      uint16(credentialId.length),
      credentialId,
      this.cosePublicKey,
    )
    const fmt = overrides.fmt ?? 'packed'
    const attStmt = new Map<string, CborValue>()
    if (fmt === 'packed') {
      attStmt.set('alg', this.algorithm)
      attStmt.set('sig', await this.sign(concat(authData, await sha256(clientDataJSON))))
    }
    const attestationObject = cbor(new Map<string, CborValue>([['fmt', fmt], ['attStmt', attStmt], ['authData', authData]]))
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      response: { clientDataJSON: toBase64Url(clientDataJSON), attestationObject: toBase64Url(attestationObject), transports: ['usb'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'cross-platform',
    }
  }

  async assert(options: PublicKeyCredentialRequestOptionsJSON, overrides: AssertOverrides = {}): Promise<AuthenticationResponseJSON> {
    if (overrides.counter !== undefined) this.counter = overrides.counter
    else this.counter++
    const clientDataJSON = this.clientData('webauthn.get', overrides.challenge ?? options.challenge, overrides.origin ?? this.origin)
    const flags = FLAG_UP | (overrides.userVerified === false ? 0 : FLAG_UV)
    const authData = concat(await sha256(utf8(overrides.rpId ?? this.rpId)), Uint8Array.of(flags), uint32(this.counter))
    const clientDataHash = await sha256(clientDataJSON)
    if (overrides.tamperSignature) clientDataHash[0] = clientDataHash[0]! ^ 0xff
    const signature = await this.sign(concat(authData, clientDataHash))
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      response: {
        clientDataJSON: toBase64Url(clientDataJSON),
        authenticatorData: toBase64Url(authData),
        signature: toBase64Url(signature),
        ...(this.userHandle === null ? {} : { userHandle: this.userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'cross-platform',
    }
  }
}
