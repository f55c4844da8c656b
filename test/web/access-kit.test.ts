import { describe, expect, it } from 'vitest'
import { generateBeneficiaryKeyPair, importBeneficiaryPrivateKey, privateKeyToPem, publicKeyFingerprint } from '@/crypto'
import { accessKitFileName, accessKitText, nameSlug } from '@/features/circle/access-kit'

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
      portalUrl: 'https://vault.example.org/beneficiary-portal',
      privateKeyPem: privateKeyToPem(pair.privateKeyPkcs8),
    })
    for (const fact of ['Ada Lovelace', 'ada@example.com', 'Grace Owner', fingerprint, 'https://vault.example.org/beneficiary-portal']) {
      expect(text).toContain(fact)
    }
    expect(text).toContain('-----BEGIN PRIVATE KEY-----')
    expect(text).toContain('-----END PRIVATE KEY-----')
    // The whole kit file is accepted where the portal asks for the key.
    await expect(importBeneficiaryPrivateKey(text)).resolves.toBeTruthy()
  })

  it('names the file after the beneficiary, safely', () => {
    expect(nameSlug('Ada Lovelace')).toBe('ada-lovelace')
    expect(accessKitFileName('Ada Lovelace')).toBe('access-kit-ada-lovelace.txt')
    expect(accessKitFileName('../../etc/passwd')).not.toContain('/')
  })
})
