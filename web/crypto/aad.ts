import { CRYPTO_FORMAT_VERSION } from './params'
import { concatBytes, utf8 } from './encoding'

// Additional authenticated data: the context a ciphertext belongs to, authenticated by AES-GCM
// but not stored with it. Decrypting with a different context fails, which is what stops a chunk
// being moved to another item or position, or a metadata blob being moved to another item.
//
// Canonical encoding (documented in FORMAT.md so an independent tool can reproduce it): the
// purpose tag, then CRYPTO_FORMAT_VERSION, then the fields, each as a type byte followed by
//   string  0x01 || uint32 BE byte length || UTF-8 bytes
//   uint32  0x02 || 4 bytes BE
//   boolean 0x03 || 0x00 or 0x01
// Length prefixes and type bytes make the encoding injective: no two contexts share bytes.

/** The purpose tags; each names one kind of ciphertext. */
export const AAD_PURPOSE = {
  chunk: 'legacy-vault:chunk',
  metadata: 'legacy-vault:metadata',
  passphraseCheck: 'legacy-vault:passphrase-check',
  dataKeyWrap: 'legacy-vault:data-key-wrap',
  signingKeyWrap: 'legacy-vault:signing-key-wrap',
  heirKeyBackup: 'legacy-vault:heir-key-backup',
  vaultKeyWrap: 'legacy-vault:vault-key-wrap',
  recoveryKeyWrap: 'legacy-vault:recovery-key-wrap',
} as const

type AadPurpose = (typeof AAD_PURPOSE)[keyof typeof AAD_PURPOSE]
type AadField = string | number | boolean

const MAX_UINT32 = 0xffff_ffff

function encodeField(field: AadField): Uint8Array {
  if (typeof field === 'string') {
    const bytes = utf8(field)
    const out = new Uint8Array(5 + bytes.length)
    out[0] = 0x01
    new DataView(out.buffer).setUint32(1, bytes.length)
    out.set(bytes, 5)
    return out
  }
  if (typeof field === 'number') {
    if (!Number.isInteger(field) || field < 0 || field > MAX_UINT32) {
      throw new RangeError(`AAD number must be an integer from 0 to ${MAX_UINT32}, got ${field}`)
    }
    const out = new Uint8Array(5)
    out[0] = 0x02
    new DataView(out.buffer).setUint32(1, field)
    return out
  }
  return Uint8Array.of(0x03, field ? 1 : 0)
}

/** The canonical AAD bytes for a purpose and its fields. */
export function buildAad(purpose: AadPurpose, ...fields: AadField[]): Uint8Array<ArrayBuffer> {
  return concatBytes([purpose, CRYPTO_FORMAT_VERSION, ...fields].map(encodeField))
}
