import { generateKeyPairSync } from 'node:crypto'
import type { Browser, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Beneficiary } from '../../contract/circle'
import { KEY_SIGNING_MESSAGES } from '../../contract/key-signing'
import { addBeneficiaryThroughUi, baseUrl, closeContext, launch, newPage, registerOwner, safeRoute, toastText, uniqueEmail } from './browser'

// A compromised server (or whoever sits between it and the owner) hands the owner's browser a
// beneficiary key of its own. The browser checks every key's signature by the vault before it
// wraps anything for it: the upload is refused, naming the beneficiary, and no grant is sent.

const PASSPHRASE = 'Signal-Harbour-64-Thistle'
const poll = expect.poll

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

/** An RSA-OAEP 2048 public key the attacker holds the private half of, as base64 SPKI. */
function attackerKey(): string {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return publicKey.export({ type: 'spki', format: 'der' }).toString('base64')
}

describe('a beneficiary key swapped outside the vault', () => {
  it('is refused by the upload with a warning naming the beneficiary, and no grant is sent for it', async () => {
    const { context, page } = await newPage(browser)
    const writes: string[] = []
    context.on('request', (request: Request) => {
      if (request.method() !== 'GET') writes.push(`${request.method()} ${new URL(request.url()).pathname}`)
    })
    await registerOwner(page, { email: uniqueEmail('signing-owner'), password: 'a sound password 1', passphrase: PASSPHRASE })
    await addBeneficiaryThroughUi(page, { fullName: 'Ben Heir' })
    await page.getByTestId('beneficiary-card').filter({ hasText: 'Ben Heir' }).getByText('Key signed').waitFor()

    // From now on the beneficiaries list says Ben's key is the attacker's.
    const substitute = attackerKey()
    await safeRoute(page, '**/api/beneficiaries', async (route) => {
      if (route.request().method() !== 'GET') return route.continue()
      const response = await route.fetch()
      const list = (await response.json()) as Beneficiary[]
      await route.fulfill({ response, json: list.map((b) => ({ ...b, publicKey: substitute })) })
    })
    // A new visit (the vault locks on reload): unlock, then try to upload for Ben.
    await page.goto('/vault')
    const unlock = page.getByRole('dialog', { name: 'Unlock Your Vault' })
    await unlock.getByLabel('Vault passphrase').fill(PASSPHRASE)
    await unlock.getByRole('button', { name: 'Unlock Vault' }).click()
    await unlock.waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Upload First Item' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add Item' })
    await dialog.getByTestId('file-input').setInputFiles([{ name: 'will.txt', mimeType: 'text/plain', buffer: Buffer.from('My last will.') }])
    await dialog.getByRole('checkbox', { name: /Ben Heir/ }).check()
    writes.length = 0
    await dialog.getByRole('button', { name: 'Encrypt & Upload' }).click()
    await poll(() => toastText(page)).toContain(`Ben Heir: ${KEY_SIGNING_MESSAGES.keyChangedOutside}`)
    // Nothing was started, stored or granted.
    expect(writes.filter((w) => w.includes('/api/vault/'))).toEqual([])
    expect(await dialog.isVisible()).toBe(true)
    await dialog.getByRole('button', { name: 'Cancel' }).click()

    // The beneficiaries page says so too, in words.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Beneficiaries' }).click()
    await page.getByTestId('beneficiary-card').filter({ hasText: 'Ben Heir' }).getByText(KEY_SIGNING_MESSAGES.keyChangedOutside).waitFor()
    await closeContext(context)
  })

  it('a statement older than the one this browser verified is refused (a rename rolled back), and renaming needs the unlocked vault', async () => {
    const { context, page } = await newPage(browser)
    await registerOwner(page, { email: uniqueEmail('rollback-owner'), password: 'a sound password 1', passphrase: PASSPHRASE })
    await addBeneficiaryThroughUi(page, { fullName: 'Ben Heir' })
    await page.getByTestId('beneficiary-card').filter({ hasText: 'Ben Heir' }).getByText('Key signed').waitFor()
    const token = await page.evaluate(() => localStorage.getItem('auth_token'))
    const listNow = async () => (await (await fetch(`${baseUrl()}/api/beneficiaries`, { headers: { authorization: `Bearer ${token}` } })).json()) as Beneficiary[]
    const [before] = await listNow()

    // The owner renames Ben: the vault states the new name at a higher sequence.
    await page.getByRole('button', { name: 'Actions for Ben Heir' }).click()
    await page.getByRole('menuitem', { name: 'Edit Details' }).click()
    const edit = page.getByRole('dialog')
    await edit.getByLabel('Full name').fill('Benjamin Heir')
    await edit.getByRole('button', { name: 'Save Changes' }).click()
    await edit.waitFor({ state: 'detached' })
    await page.getByTestId('beneficiary-card').filter({ hasText: 'Benjamin Heir' }).getByText('Key signed').waitFor()
    const [after] = await listNow()
    expect(after!.statementSequence).toBeGreaterThan(before!.statementSequence!)

    // From now on the list serves Ben's earlier row: its signature holds, but it is older.
    await safeRoute(page, '**/api/beneficiaries', async (route) => {
      if (route.request().method() !== 'GET') return route.continue()
      const response = await route.fetch()
      await route.fulfill({ response, json: [before] })
    })
    await page.goto('/vault')
    const unlock = page.getByRole('dialog', { name: 'Unlock Your Vault' })
    await unlock.getByLabel('Vault passphrase').fill(PASSPHRASE)
    await unlock.getByRole('button', { name: 'Unlock Vault' }).click()
    await unlock.waitFor({ state: 'detached' })
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Beneficiaries' }).click()
    await page.getByTestId('beneficiary-card').filter({ hasText: 'Ben Heir' }).getByText(KEY_SIGNING_MESSAGES.keyChangedOutside).waitFor()

    // Locked, the Edit dialog will not rename anyone: the vault must state the new name.
    await page.unrouteAll({ behavior: 'ignoreErrors' })
    await page.reload()
    await page.getByTestId('beneficiary-card').filter({ hasText: 'Benjamin Heir' }).waitFor()
    await page.getByRole('button', { name: 'Actions for Benjamin Heir' }).click()
    await page.getByRole('menuitem', { name: 'Edit Details' }).click()
    await edit.getByLabel('Relationship').fill('Son')
    await edit.getByRole('button', { name: 'Save Changes' }).click()
    await edit.getByText('Unlock your vault to change the name, relationship or address').waitFor()
    await closeContext(context)
  })

  it('a vault made before signing keys gets one at its first unlock, and each key is used once its owner confirms the fingerprint', async () => {
    const { context, page } = await newPage(browser)
    const writes: string[] = []
    context.on('request', (request: Request) => {
      if (request.method() !== 'GET') writes.push(`${request.method()} ${new URL(request.url()).pathname}`)
    })
    const email = uniqueEmail('legacy-owner')
    await registerOwner(page, { email, password: 'a sound password 1', passphrase: PASSPHRASE })
    await addBeneficiaryThroughUi(page, { fullName: 'Cleo Heir' })
    // As a vault set up before this release was: no signing key, no signed beneficiary key.
    const made = await fetch(`${baseUrl()}/api/dev/legacy-vault`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) })
    expect(made.status).toBe(200)

    await page.goto('/vault')
    const unlock = page.getByRole('dialog', { name: 'Unlock Your Vault' })
    await unlock.getByLabel('Vault passphrase').fill(PASSPHRASE)
    await unlock.getByRole('button', { name: 'Unlock Vault' }).click()
    await unlock.waitFor({ state: 'detached' })
    await poll(() => writes.includes('POST /api/vault/signing-key')).toBe(true)

    // Not confirmed yet: nothing is wrapped for Cleo.
    await page.getByRole('button', { name: 'Upload First Item' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add Item' })
    await dialog.getByTestId('file-input').setInputFiles([{ name: 'letter.txt', mimeType: 'text/plain', buffer: Buffer.from('Dear Cleo.') }])
    await dialog.getByRole('checkbox', { name: /Cleo Heir/ }).check()
    await dialog.getByRole('button', { name: 'Encrypt & Upload' }).click()
    await poll(() => toastText(page)).toContain(`Cleo Heir: ${KEY_SIGNING_MESSAGES.keyNotConfirmed}`)
    await dialog.getByRole('button', { name: 'Cancel' }).click()

    // The owner compares the fingerprint with the kit's and confirms.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Beneficiaries' }).click()
    const card = page.getByTestId('beneficiary-card').filter({ hasText: 'Cleo Heir' })
    await card.getByRole('button', { name: KEY_SIGNING_MESSAGES.confirmKeyTitle }).click()
    const confirm = page.getByRole('alertdialog', { name: "Confirm Cleo Heir's key" })
    const heirs = (await (await fetch(`${baseUrl()}/api/beneficiaries`, { headers: { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('auth_token'))}` } })).json()) as Beneficiary[]
    await confirm.getByText(heirs[0]!.publicKeyFingerprint).waitFor()
    await confirm.getByRole('button', { name: 'The fingerprint matches' }).click()
    await card.getByText('Key signed').waitFor()
    expect(writes).toContain(`POST /api/beneficiaries/${heirs[0]!.id}/key-signature`)

    // Now the upload goes through.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vault' }).click()
    await page.getByRole('button', { name: 'Upload First Item' }).click()
    await dialog.getByTestId('file-input').setInputFiles([{ name: 'letter.txt', mimeType: 'text/plain', buffer: Buffer.from('Dear Cleo.') }])
    await dialog.getByRole('checkbox', { name: /Cleo Heir/ }).check()
    await dialog.getByRole('button', { name: 'Encrypt & Upload' }).click()
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    await poll(() => toastText(page)).toContain('Upload complete')
    await context.close()
  })
})
