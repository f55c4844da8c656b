import { beforeAll, describe, expect, it } from 'vitest'
import {
  createHeirKeyBackup,
  DecryptionError,
  fromBase64,
  generateBeneficiaryKeyPair,
  generateDataKey,
  KeyMismatchError,
  openHeirKeyBackup,
  privateKeyToPem,
  toBase64,
  unwrapDataKeyForBeneficiary,
  wrapDataKeyForBeneficiary,
  type BeneficiaryKeyPair,
  type HeirKeyBackupBytes,
} from '@/crypto'
import { checkGuessing } from '../../web/features/vault/passphrase-guessing'
import { backupPassphraseProblem } from '../../web/features/releases/heir-backup'
import { VAULT_MESSAGES } from '../../contract/vault'
import { HEIR_BACKUP_MESSAGES } from '../../contract/heir-key-backup'

// An heir's passphrase backup of their key (FORMAT.md "Heir key backup"): it opens only with their
// passphrase, for the same owner, beneficiary and key version, and only to the key the vault holds.
// PBKDF2 at 600 000 iterations costs about a second a derivation: few derivations per test.

const PASSPHRASE = 'lantern orchard quietly 7 fjords'
const binding = { ownerId: 'owner-1', beneficiaryId: 'ben-1', keyVersion: 1 }
const FINGERPRINT = 'A1B2 C3D4 E5F6 0718 293A 4B5C 6D7E 8F90 A1B2 C3D4 E5F6 0718 293A 4B5C 6D7E 8F90'
let alice: BeneficiaryKeyPair
let bob: BeneficiaryKeyPair
let backup: HeirKeyBackupBytes

beforeAll(async () => {
  ;[alice, bob] = await Promise.all([generateBeneficiaryKeyPair(), generateBeneficiaryKeyPair()])
  const kit = `Vault fingerprint: ${FINGERPRINT}\n${privateKeyToPem(alice.privateKeyPkcs8)}`
  backup = await createHeirKeyBackup(kit, [FINGERPRINT], PASSPHRASE, binding, alice.publicKeySpki)
}, 30_000)

describe('heir key backup', () => {
  it('opens with the passphrase to the same key, with the kit’s vault fingerprint, and a grant opens with it', async () => {
    expect(fromBase64(backup.salt)).toHaveLength(32)
    const opened = await openHeirKeyBackup(backup, PASSPHRASE, binding, alice.publicKeySpki)
    expect(opened.vaultFingerprints).toEqual([FINGERPRINT])
    const dek = await generateDataKey()
    const grant = await wrapDataKeyForBeneficiary(dek, alice.publicKey)
    await expect(unwrapDataKeyForBeneficiary(grant, opened.key)).resolves.toBeDefined()
  }, 30_000)

  it('a fresh salt each time: two backups of one key differ', async () => {
    const again = await createHeirKeyBackup(alice.privateKeyPkcs8, [], PASSPHRASE, binding, alice.publicKeySpki)
    expect(again.salt).not.toBe(backup.salt)
    expect(again.backup).not.toBe(backup.backup)
    expect((await openHeirKeyBackup(again, PASSPHRASE, binding, alice.publicKeySpki)).vaultFingerprints).toEqual([])
  }, 30_000)

  it('refuses a wrong passphrase', async () => {
    await expect(openHeirKeyBackup(backup, 'lantern orchard quietly 8 fjords', binding, alice.publicKeySpki)).rejects.toBeInstanceOf(DecryptionError)
  }, 30_000)

  it('refuses a backup moved to another beneficiary, owner or key version', async () => {
    for (const moved of [{ ...binding, beneficiaryId: 'ben-2' }, { ...binding, ownerId: 'owner-2' }, { ...binding, keyVersion: 2 }]) {
      await expect(openHeirKeyBackup(backup, PASSPHRASE, moved, alice.publicKeySpki)).rejects.toBeInstanceOf(DecryptionError)
    }
  }, 60_000)

  it('detects an altered backup, and a swapped one holding another key', async () => {
    const bytes = fromBase64(backup.backup)
    bytes[bytes.length - 20]! ^= 1
    await expect(openHeirKeyBackup({ ...backup, backup: toBase64(bytes) }, PASSPHRASE, binding, alice.publicKeySpki)).rejects.toBeInstanceOf(DecryptionError)
    // A server that stores Bob's key under Alice's name, wrapped with a passphrase it knows, and
    // hands it to someone typing that passphrase: it authenticates but is not the key the vault holds.
    const swapped = await createHeirKeyBackup(bob.privateKeyPkcs8, [], PASSPHRASE, binding, bob.publicKeySpki)
    await expect(openHeirKeyBackup(swapped, PASSPHRASE, binding, alice.publicKeySpki)).rejects.toBeInstanceOf(KeyMismatchError)
  }, 60_000)

  it('is not made from a kit whose key the vault does not hold for them', async () => {
    await expect(createHeirKeyBackup(bob.privateKeyPkcs8, [], PASSPHRASE, binding, alice.publicKeySpki)).rejects.toBeInstanceOf(KeyMismatchError)
  }, 30_000)

  it("the estimator refuses a weak heir passphrase that the spec's rules accept", async () => {
    expect((await checkGuessing('abcdefghijk1')).ok).toBe(false)
    expect((await checkGuessing(PASSPHRASE)).ok).toBe(true)
  })
})

describe("the heir's backup passphrase", () => {
  const strong = 'lantern orchard velvet compass 1987!'
  it('must be typed twice the same: a confirmation of the same length but other letters is refused before anything is encrypted', async () => {
    const typo = strong.replace('lantern', 'lantarn')
    expect(typo.length).toBe(strong.length)
    expect(await backupPassphraseProblem(strong, typo)).toBe(VAULT_MESSAGES.passphrasesDoNotMatch)
    expect(await backupPassphraseProblem(strong, strong.slice(0, -1))).toBe(VAULT_MESSAGES.passphrasesDoNotMatch)
    expect(await backupPassphraseProblem('', '')).toBe(HEIR_BACKUP_MESSAGES.enterPassphrase)
    expect(await backupPassphraseProblem(strong, strong)).toBeNull()
  })
})
