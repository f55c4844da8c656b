import { describe, expect, it } from 'vitest'
import { generateBeneficiaryKeyPair, importBeneficiaryPrivateKey, privateKeyToPem, publicKeyFingerprint } from '@/crypto'
import { keyFingerprint } from '../../contract/vault-statements'
import { accessKitContent, accessKitFileName, accessKitText, nameSlug, type AccessKit } from '@/features/circle/access-kit'
import { kitVaultFingerprints } from '@/features/releases/seals'

// A P-256 public key (base64 SPKI) standing in for an owner's vault signing key.
const VAULT_KEY = 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE5cuBYQ3oB3u0qCRFmCZAHlXHmlXeq9Pb1b2W2sCzVQZqHqk3mQ6b0Mxm6h5lqgGJ0ZbHvYjG8qF3b1ZbXqvWdw=='

describe('the Beneficiary Access Kit', () => {
  it('holds everything the beneficiary needs, and its key imports back', async () => {
    const pair = await generateBeneficiaryKeyPair()
    const fingerprint = await publicKeyFingerprint(pair.publicKeySpki)
    const text = accessKitText({
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      ownerName: 'Grace Owner',
      createdAt: new Date('2026-11-22T12:00:00Z'),
      fingerprint,
      vaultFingerprint: keyFingerprint(VAULT_KEY),
      portalUrl: 'https://vault.example.org/beneficiary-portal',
      privateKeyPem: privateKeyToPem(pair.privateKeyPkcs8),
    })
    for (const fact of ['Ada Lovelace', 'ada@example.com', 'Grace Owner', fingerprint, keyFingerprint(VAULT_KEY), 'https://vault.example.org/beneficiary-portal']) {
      expect(text).toContain(fact)
    }
    expect(text).toContain('-----BEGIN PRIVATE KEY-----')
    expect(text).toContain('-----END PRIVATE KEY-----')
    // The whole kit file is accepted where the portal asks for the key.
    await expect(importBeneficiaryPrivateKey(text)).resolves.toBeTruthy()
  })

  it("states the vault's fingerprint among its facts and on the line right above the key, and says what it is for", async () => {
    const pair = await generateBeneficiaryKeyPair()
    const kit: AccessKit = {
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      ownerName: 'Grace Owner',
      createdAt: new Date('2026-11-22T12:00:00Z'),
      fingerprint: await publicKeyFingerprint(pair.publicKeySpki),
      vaultFingerprint: keyFingerprint(VAULT_KEY),
      portalUrl: 'https://vault.example.org/beneficiary-portal',
      privateKeyPem: privateKeyToPem(pair.privateKeyPkcs8),
    }
    const vault = keyFingerprint(VAULT_KEY)
    expect(vault).toMatch(/^([0-9A-F]{4} ){15}[0-9A-F]{4}$/)
    const content = accessKitContent(kit)
    expect(content.facts).toContainEqual(['Vault fingerprint', vault])
    expect(content.keyIntro).toBe('Copy exactly, from the “Vault fingerprint” line to the END line.')
    expect(content.steps.join(' ')).toMatch(/vault fingerprint identifies Grace Owner’s vault.*check that each item it shows you really comes from that vault/)
    const lines = accessKitText(kit).split('\n')
    const begin = lines.indexOf('-----BEGIN PRIVATE KEY-----')
    expect(lines[begin - 1]).toBe(`Vault fingerprint: ${vault}`)
    // An heir who copies only from that line to the END line brings the fingerprint along.
    const block = lines.slice(begin - 1, lines.indexOf('-----END PRIVATE KEY-----') + 1).join('\n')
    expect(kitVaultFingerprints(block)).toEqual([vault])
    expect(kitVaultFingerprints(accessKitText(kit))).toEqual([vault])
    await expect(importBeneficiaryPrivateKey(block)).resolves.toBeTruthy()
  })

  it('names the file after the beneficiary, safely', () => {
    expect(nameSlug('Ada Lovelace')).toBe('ada-lovelace')
    expect(accessKitFileName('Ada Lovelace')).toBe('access-kit-ada-lovelace.txt')
    expect(accessKitFileName('../../etc/passwd')).not.toContain('/')
  })
})
