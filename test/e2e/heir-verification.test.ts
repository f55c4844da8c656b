import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RELEASE_MESSAGES } from '../../contract/releases'
import { contentDigestOf, digestOfBase64, itemManifest } from '../../contract/vault-statements'
import { addBeneficiaryThroughUi, baseUrl, launch, newPage, registerOwner, uniqueEmail } from './browser'
import { seriousViolations } from './axe'
import { addHeirWithKit, diagnoseOnFailure, ESTATE_PASSPHRASE as PASSPHRASE, releasedPortalUrl, releaseNow, SHOTS, uploadFirstItemFor } from './estate'

// The heir checks what they receive (0.3 · 3 of 7). The outside tester's attack, replayed: items
// planted in the owner's vault under a data key of the attacker's, granted to the heir with the
// heir's public key as stored, one with no manifest and one with a manifest signed by a key of the
// attacker's. The heir's portal refuses both by what the server knows of them, never decrypting
// their names, while the owner's own upload (sealed by the owner's vault) opens. An heir whose kit
// predates vault fingerprints is shown the fingerprint and how to compare it.

const OWNER = 'Grace Owner'
const FILE = { name: 'letter-for-ada.txt', mimeType: 'text/plain', buffer: Buffer.from('Dear Ada,\nThe deeds are with the notary on Elm Street.\n'.repeat(50)) }
const FORGED_NAME = 'Last will and testament.txt'
const FORGED_TEXT = 'FORGED: transfer the estate funds to IBAN XX00 EVIL 0000 0000'

let browser: Browser
beforeAll(async () => {
  browser = await launch()
  mkdirSync(SHOTS, { recursive: true })
})
afterAll(async () => {
  await browser?.close()
})

const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })

// ---- The attacker's side, from FORMAT.md alone ----------------------------------------------

const b64 = (bytes: ArrayBuffer | Uint8Array) => Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString('base64')

/** FORMAT.md "AAD": field(purpose) || field(uint32 1) || the further fields. */
function aad(purpose: string, ...fields: Array<string | number | boolean>): Uint8Array<ArrayBuffer> {
  const parts: Buffer[] = []
  const str = (s: string) => {
    const bytes = Buffer.from(s, 'utf8')
    const len = Buffer.alloc(4)
    len.writeUInt32BE(bytes.length)
    parts.push(Buffer.from([1]), len, bytes)
  }
  const u32 = (n: number) => {
    const b = Buffer.alloc(4)
    b.writeUInt32BE(n)
    parts.push(Buffer.from([2]), b)
  }
  str(purpose)
  u32(1)
  for (const f of fields) typeof f === 'string' ? str(f) : typeof f === 'number' ? u32(f) : parts.push(Buffer.from([3, f ? 1 : 0]))
  return new Uint8Array(Buffer.concat(parts))
}

/** FORMAT.md "AES-GCM envelope": version 1 || iv || ciphertext || tag. */
async function seal(key: CryptoKey, plain: Uint8Array<ArrayBuffer>, additionalData: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const body = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData }, key, plain))
  return new Uint8Array(Buffer.concat([Buffer.from([1]), iv, body]))
}

/**
 * An item of the attacker's, planted in `ownerEmail`'s vault through the local dev route (as a
 * hostile server writes its own storage), granted to every beneficiary. With `forgeSeal`, it also
 * carries a manifest over exactly this item, signed by a key of the attacker's.
 */
async function plantItem(ownerEmail: string, filename: string, text: string, forgeSeal: boolean) {
  const id = crypto.randomUUID()
  const raw = crypto.getRandomValues(new Uint8Array(32))
  const dek = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt'])
  const plain = new Uint8Array(Buffer.from(text, 'utf8'))
  // FORMAT.md: max(1, ceil(n / chunkBytes)) chunks, only the last marked last.
  const count = Math.max(1, Math.ceil(plain.length / 1024))
  const chunks = await Promise.all(Array.from({ length: count }, (_, i) => seal(dek, plain.slice(i * 1024, (i + 1) * 1024), aad('legacy-vault:chunk', id, i, i === count - 1))))
  const content = new Uint8Array(Buffer.concat(chunks))
  const encryptedMetadata = b64(await seal(dek, new TextEncoder().encode(JSON.stringify({ filename, mimetype: 'text/plain' })), aad('legacy-vault:metadata', id)))
  let manifest: string | null = null
  let manifestSignature: string | null = null
  if (forgeSeal) {
    const attacker = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])) as CryptoKeyPair
    manifest = itemManifest({
      ownerId: crypto.randomUUID(),
      itemId: id,
      type: 'doc',
      plainSize: plain.length,
      chunkCount: count,
      contentDigest: contentDigestOf(await Promise.all(chunks.map(async (c) => new Uint8Array(await crypto.subtle.digest('SHA-256', c))))),
      metadataDigest: digestOfBase64(encryptedMetadata),
      grants: [],
    })
    manifestSignature = b64(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, attacker.privateKey, new TextEncoder().encode(manifest)))
  }
  const res = await fetch(`${baseUrl()}/api/dev/plant-item`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ownerEmail, id, type: 'doc', plainSize: plain.length, chunkBytes: 1024, encryptedMetadata, content: b64(content), dataKey: b64(raw), manifest: manifest && b64(new TextEncoder().encode(manifest)), manifestSignature }),
  })
  if (res.status !== 200) throw new Error(`plant-item: ${res.status} ${await res.text()}`)
}

// ---- The owner's side, through the app --------------------------------------------------------

interface Scenario {
  ownerEmail: string
  heirEmail: string
  kitText: string
  vaultFingerprint: string
  portalUrl: string
}

/** An owner, Ada with her kit saved, the owner's own file for her, two planted items, and a manual release. */
async function releasedWithPlantedItems(): Promise<Scenario> {
  const { page, context } = await newPage(browser)
  try {
    return await ownerSide(page)
  } catch (error) {
    // A hook, not a test: onTestFailed is not available here.
    await page.screenshot({ path: `${SHOTS}/heir-verification-failure-owner.png`, fullPage: true }).catch(() => undefined)
    throw error
  } finally {
    await context.close()
  }
}

async function ownerSide(page: Page): Promise<Scenario> {
  const ownerEmail = uniqueEmail('sealing-owner')
  const heirEmail = uniqueEmail('ada')
  await registerOwner(page, { email: ownerEmail, password: 'a sound password 1', displayName: OWNER, passphrase: PASSPHRASE })

  const kitText = readFileSync(await addHeirWithKit(page, { fullName: 'Ada Heir', email: heirEmail }), 'utf8')
  const vaultFingerprint = kitText.match(/^Vault fingerprint: ((?:[0-9A-F]{4} ){15}[0-9A-F]{4})$/m)![1]!

  await uploadFirstItemFor(page, [FILE], 'Ada Heir')

  // What the outside tester did with a session (or a server's operator could do).
  await plantItem(ownerEmail, FORGED_NAME, FORGED_TEXT, false)
  await plantItem(ownerEmail, 'Bank details.txt', FORGED_TEXT, true)

  await releaseNow(page, 'Reading of the will', 3)
  const portalUrl = await releasedPortalUrl(heirEmail)
  return { ownerEmail, heirEmail, kitText, vaultFingerprint, portalUrl }
}

/** The heir's portal in a browser of their own, with `kitText` loaded as the kit's file. */
async function heirWithKit(s: Scenario, kitText: string, name: string) {
  const heir = await newPage(browser)
  diagnoseOnFailure(heir.page, 'heir-verification', name)
  const sent: string[] = []
  heir.context.on('request', (r) => sent.push(`${r.url()}\n${r.postData() ?? ''}`))
  await heir.page.goto(s.portalUrl)
  const cards = heir.page.getByTestId('released-asset')
  await poll(() => cards.count()).toBe(3)
  const kitPath = `${SHOTS}/kit-${name}.txt`
  writeFileSync(kitPath, kitText)
  await heir.page.locator('input[type=file]').setInputFiles(kitPath)
  await heir.page.getByTestId('vault-trust').waitFor()
  return { ...heir, cards, sent }
}

/** The planted items' cards (a few dozen bytes each; the owner's file is kilobytes), named as the server knows them. */
const plantedCards = (page: Page) => page.getByTestId('released-asset').filter({ hasText: /A document \(\d+ bytes, released/ })

/** Both planted items: named only by what the server knows, refused, not decrypted. */
async function expectRefusedByName(page: Page) {
  const refused = plantedCards(page).filter({ hasText: 'may not be theirs' })
  await poll(() => refused.count()).toBe(2)
  for (const card of await refused.all()) {
    const text = (await card.textContent())!
    expect(text).toMatch(/A document \(\d+ bytes, released \d{1,2} \w{3} \d{4}\)/)
    expect(text).toContain(`was not sealed by ${OWNER}’s vault, so it may not be theirs. It has not been opened.`)
    expect(await card.getByRole('button', { name: 'Download & Decrypt' }).isDisabled()).toBe(true)
  }
}

describe("the heir's portal checks every item's seal", () => {
  let s: Scenario
  beforeAll(async () => {
    s = await releasedWithPlantedItems()
  }, 240_000)

  it("refuses the planted items by name, never decrypting them, while the owner's own item opens", async () => {
    const heir = await heirWithKit(s, s.kitText, 'new-kit')
    expect(await heir.page.getByTestId('vault-trust').textContent()).toContain(RELEASE_MESSAGES.vaultKeyMatched(OWNER))
    await expectRefusedByName(heir.page)
    expect(await heir.page.getByText(FORGED_NAME).count()).toBe(0)
    expect(await heir.page.getByText('Bank details.txt').count()).toBe(0)
    await heir.page.screenshot({ path: `${SHOTS}/heir-portal-refused-1280.png`, fullPage: true })
    expect(await seriousViolations(heir.page, 'heir portal refusing planted items')).toEqual([])

    // Waits for the owner's upload to be sealed (the "manifests" part of 0.3 · 3 of 7): the owner's
    // own item carries the vault's seal, opens, and decrypts to the identical bytes.
    const own = heir.cards.filter({ hasText: FILE.name })
    await own.getByText(RELEASE_MESSAGES.sealedBy(OWNER)).waitFor()
    const [file] = await Promise.all([heir.page.waitForEvent('download'), own.getByRole('button', { name: 'Download & Decrypt' }).click()])
    expect(file.suggestedFilename()).toBe(FILE.name)
    expect(readFileSync((await file.path())!).equals(FILE.buffer)).toBe(true)
    await heir.context.close()
  })

  it('with a kit naming another vault key, opens nothing and says not to trust the list', async () => {
    const other = s.kitText.replaceAll(s.vaultFingerprint, s.vaultFingerprint.replace(/^..../, s.vaultFingerprint.startsWith('0000') ? '1111' : '0000'))
    const heir = await heirWithKit(s, other, 'wrong-fingerprint')
    expect(await heir.page.getByTestId('vault-trust').textContent()).toContain(RELEASE_MESSAGES.vaultKeyMismatch(OWNER))
    await poll(() => heir.cards.filter({ hasText: 'has not been opened' }).count()).toBe(3)
    for (const name of [FILE.name, FORGED_NAME, 'Bank details.txt']) expect(await heir.page.getByText(name).count()).toBe(0)
    await heir.context.close()
  })

  it("with a kit printed before fingerprints, shows the vault's fingerprint and how to compare it", async () => {
    const older = s.kitText
      .split('\n')
      .filter((line) => !line.startsWith('Vault fingerprint:'))
      .join('\n')
    expect(older).not.toContain(s.vaultFingerprint)
    const heir = await heirWithKit(s, older, 'older-kit')
    const notice = heir.page.getByTestId('vault-trust')
    expect(await notice.textContent()).toContain(RELEASE_MESSAGES.oldKit(OWNER))
    expect(await heir.page.getByTestId('vault-fingerprint').textContent()).toBe(s.vaultFingerprint)

    // The item with a forged seal is refused; the one with none waits for the heir's choice.
    const forged = plantedCards(heir.page).filter({ hasText: 'may not be theirs' })
    await poll(() => forged.count()).toBe(1)
    const unsealed = plantedCards(heir.page).filter({ has: heir.page.getByTestId('asset-seal').filter({ hasText: /^Not sealed$/ }) })
    await poll(() => unsealed.count()).toBe(1)
    expect(await unsealed.textContent()).toContain(RELEASE_MESSAGES.notSealedBody(OWNER))
    expect(await unsealed.getByRole('button', { name: 'Download & Decrypt' }).isDisabled()).toBe(true)
    expect(await heir.page.getByText(FORGED_NAME).count()).toBe(0)
    await heir.page.screenshot({ path: `${SHOTS}/heir-portal-older-kit-1280.png`, fullPage: true })
    expect(await seriousViolations(heir.page, 'heir portal with an older kit')).toEqual([])
    // The heir chooses to open it (the departure: an older kit cannot tell it from an item of the
    // owner's that was never sealed): it opens, still marked as not sealed.
    await unsealed.getByRole('button', { name: RELEASE_MESSAGES.openUnsealed }).click()
    const opened = heir.cards.filter({ hasText: FORGED_NAME })
    await opened.getByTestId('asset-seal').getByText(RELEASE_MESSAGES.notSealed, { exact: true }).waitFor()
    expect(await opened.getByRole('button', { name: 'Download & Decrypt' }).isEnabled()).toBe(true)

    // Waits for the owner's upload to be sealed: it opens as sealed by the vault with that fingerprint.
    await heir.cards.filter({ hasText: FILE.name }).getByText(RELEASE_MESSAGES.sealedByFingerprint(OWNER)).waitFor()
    await heir.context.close()
  })
})

describe("the owner's Beneficiaries page", () => {
  it('offers a new kit to each person whose kit predates the fingerprint', async () => {
    const { page, context } = await newPage(browser)
    diagnoseOnFailure(page, 'heir-verification', 'older-kits-owner')
    const ownerEmail = uniqueEmail('older-kits')
    await registerOwner(page, { email: ownerEmail, password: 'a sound password 1', displayName: OWNER, passphrase: PASSPHRASE })
    await addBeneficiaryThroughUi(page, { fullName: 'Ben Heir' })
    expect(await page.getByTestId('older-kits').count()).toBe(0)

    const res = await fetch(`${baseUrl()}/api/dev/older-kits`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: ownerEmail }) })
    expect(res.status).toBe(200)
    await page.reload()
    const notice = page.getByTestId('older-kits')
    await notice.getByText('Ben Heir').waitFor()
    expect(await seriousViolations(page, 'beneficiaries page offering new kits')).toEqual([])
    await page.screenshot({ path: `${SHOTS}/beneficiaries-older-kits-1280.png`, fullPage: true })

    await notice.getByRole('button', { name: 'Issue a new kit for Ben Heir' }).click()
    const dialog = page.getByRole('dialog', { name: "Replace Ben Heir's key?" })
    const unlock = page.getByRole('dialog', { name: 'Unlock Your Vault' })
    await dialog.waitFor()
    // After the reload the vault may be locked again: the dialog asks for it to be unlocked first.
    const unlockFirst = dialog.getByRole('button', { name: 'Unlock Vault' })
    await dialog.getByRole('button', { name: 'Replace key' }).waitFor()
    if (await unlockFirst.isVisible()) {
      await unlockFirst.click()
      await unlock.getByLabel('Vault passphrase').fill(PASSPHRASE)
      await unlock.getByRole('button', { name: 'Unlock Vault' }).click()
      await unlock.waitFor({ state: 'detached' })
    }
    await dialog.getByRole('button', { name: 'Replace key' }).click()
    const kit = page.getByRole('dialog', { name: 'New Access Kit' })
    await kit.getByTestId('kit-fingerprint').waitFor()
    await kit.getByLabel('I have saved the kit').check()
    await kit.getByRole('button', { name: 'Done' }).click()
    await kit.waitFor({ state: 'detached' })
    // Ben's kit now carries the fingerprint: nobody is left to offer one to.
    await poll(() => page.getByTestId('older-kits').count()).toBe(0)
    await context.close()
  })
})
