import { generateKeyPairSync } from 'node:crypto'
import type { Browser, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Beneficiary } from '../../contract/circle'
import { KEY_SIGNING_MESSAGES } from '../../contract/key-signing'
import { addBeneficiaryThroughUi, launch, newPage, registerOwner, toastText, uniqueEmail } from './browser'

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
    await page.route('**/api/beneficiaries', async (route) => {
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
    await context.close()
  })
})
