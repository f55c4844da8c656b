import { createDecipheriv, pbkdf2Sync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { encryptMetadata, generateDataKey, wrapDataKey } from '@/crypto'
import type { VaultSetupBody } from '../../contract/vault'
import { createVaultSession } from '@/features/vault/vault-session'

// An item of a vault of format 2 read from web/crypto/FORMAT.md alone with node:crypto: the
// passphrase key, the vault key wrap, the item's DEK wrap, its metadata.

function field(value: string | number): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8')
    const head = Buffer.alloc(5)
    head[0] = 0x01
    head.writeUInt32BE(bytes.length, 1)
    return Buffer.concat([head, bytes])
  }
  const out = Buffer.alloc(5)
  out[0] = 0x02
  out.writeUInt32BE(value, 1)
  return out
}

const aad = (purpose: string, ...fields: Array<string | number>) => Buffer.concat([field(purpose), field(1), ...fields.map(field)])

function openEnvelope(key: Buffer, b64: string, additional: Buffer): Buffer {
  const data = Buffer.from(b64, 'base64')
  expect(data[0]).toBe(1)
  const iv = data.subarray(1, 13)
  const tag = data.subarray(data.length - 16)
  const decipher = createDecipheriv('aes-256-gcm', key, iv)
  decipher.setAAD(additional)
  decipher.setAuthTag(tag)
  return Buffer.concat([decipher.update(data.subarray(13, data.length - 16)), decipher.final()])
}

describe('FORMAT.md, vault format 2, read with node:crypto', () => {
  it('opens an item through the vault key wrap', async () => {
    const passphrase = 'Crème brûlée at the lighthouse'
    const session = createVaultSession({ storage: null, broadcast: false })
    let setup: VaultSetupBody | undefined
    await session.create(passphrase, 'owner-1', async (body) => void (setup = body))
    const dek = await generateDataKey()
    const itemId = '0b6f7a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b'
    const wrappedKey = await wrapDataKey(dek, session.requireKey())
    const metadata = await encryptMetadata(dek, itemId, { name: 'will.pdf' })

    expect(aad('legacy-vault:vault-key-wrap', 2).toString('hex')).toBe(
      '010000001b' + Buffer.from('legacy-vault:vault-key-wrap').toString('hex') + '020000000102' + '00000002',
    )
    const passphraseKey = pbkdf2Sync(Buffer.from(passphrase.normalize('NFC'), 'utf8'), Buffer.from(setup!.vaultSalt, 'base64'), 600_000, 32, 'sha256')
    expect(Buffer.from(setup!.wrappedVaultKey, 'base64')).toHaveLength(61)
    const vaultKey = openEnvelope(passphraseKey, setup!.wrappedVaultKey, aad('legacy-vault:vault-key-wrap', 2))
    expect(vaultKey).toHaveLength(32)
    const dekBytes = openEnvelope(vaultKey, wrappedKey, aad('legacy-vault:data-key-wrap'))
    expect(JSON.parse(openEnvelope(dekBytes, metadata, aad('legacy-vault:metadata', itemId)).toString('utf8'))).toEqual({ name: 'will.pdf' })
    // The check stays under the passphrase key.
    expect(openEnvelope(passphraseKey, setup!.passphraseCheck, aad('legacy-vault:passphrase-check')).toString()).toBe('legacy-vault:passphrase-check:v1')
    // The DEK is not under the passphrase key in format 2.
    expect(() => openEnvelope(passphraseKey, wrappedKey, aad('legacy-vault:data-key-wrap'))).toThrow()
  })
})
