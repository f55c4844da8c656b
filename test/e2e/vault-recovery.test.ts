import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest'
import { VAULT_MESSAGES } from '../../contract/vault'
import { RECOVERY_MESSAGES } from '../../contract/vault-recovery'
import { seriousViolations } from './axe'
import { addBeneficiaryThroughUi, keepRecoveryKit, launch, newPage, registerOwner, toastText, uniqueEmail, waitForMail } from './browser'

// The owner's recovery code (0.3 · 4 of 7 item 3): made with the vault at registration, it opens
// the vault when the passphrase is forgotten and sets another; a new code from Settings voids the
// old one. Neither code, nor any passphrase, is ever sent; an item stored before opens after.

const FIRST = 'Harbour finches argue over 6 maps'
const SECOND = 'Velvet glaciers hum beside 3 kilns'
const FILE = { name: 'letter-to-mara.txt', mimeType: 'text/plain', buffer: Buffer.from('Dear Mara, the key to the shed is under the blue pot.\n'.repeat(30)) }
const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000 })

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

function recordRequests(page: Page): string[] {
  const sent: string[] = []
  page.on('request', (request) => sent.push(`${request.method()} ${request.url()}\n${request.postData() ?? ''}`))
  return sent
}

function logOnFailure(page: Page) {
  const logs: string[] = []
  page.on('console', (msg) => logs.push(`${msg.type()}: ${msg.text()}`))
  onTestFailed(() => console.error(`page log:\n${logs.join('\n')}`))
}

async function nav(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click()
}

async function lockAndOpenUnlock(page: Page) {
  await nav(page, 'Vault')
  await page.getByRole('button', { name: 'Lock Vault' }).click()
  await page.getByRole('button', { name: 'Unlock Vault' }).first().click()
  await page.getByRole('dialog', { name: 'Unlock Your Vault' }).waitFor()
}

async function unlockWith(page: Page, passphrase: string): Promise<'unlocked' | 'refused'> {
  const dialog = page.getByRole('dialog', { name: 'Unlock Your Vault' })
  await dialog.getByLabel('Vault passphrase').fill(passphrase)
  await dialog.getByRole('button', { name: 'Unlock Vault' }).click()
  const refused = dialog.getByText(VAULT_MESSAGES.invalidPassphrase)
  await poll(async () => ((await refused.isVisible()) ? 'refused' : await page.getByTestId('vault-state').textContent())).toMatch(/refused|Vault unlocked/)
  return (await refused.isVisible()) ? 'refused' : 'unlocked'
}

describe('the recovery code in the browser', () => {
  it('opens the vault when the passphrase is forgotten and sets another; a new code from Settings voids the old one', async () => {
    const { context, page } = await newPage(browser)
    logOnFailure(page)
    const sent = recordRequests(page)
    const email = uniqueEmail('recovery')
    const code = (await registerOwner(page, { email, password: 'a sound password 1', passphrase: FIRST }))!
    expect(code).toMatch(/^([0-9A-Z]{4}-){6}[0-9A-Z]{4}$/)

    // An item stored under the first passphrase, for an heir.
    await page.goto('/vault')
    expect(await unlockWith(page, FIRST)).toBe('unlocked')
    await addBeneficiaryThroughUi(page, { fullName: 'Mara Heir' })
    await nav(page, 'Vault')
    await page.getByRole('button', { name: 'Upload First Item' }).click()
    const upload = page.getByRole('dialog', { name: 'Add Item' })
    await upload.getByTestId('file-input').setInputFiles([FILE])
    await upload.getByRole('checkbox', { name: /Mara Heir/ }).check()
    await upload.getByRole('button', { name: 'Encrypt & Upload', exact: true }).click()
    await upload.waitFor({ state: 'detached', timeout: 30_000 })

    // Forgotten: the unlock dialog's link, a code with a typing mistake, then the code as someone might type it.
    await lockAndOpenUnlock(page)
    await page.getByRole('button', { name: RECOVERY_MESSAGES.forgotLink }).click()
    const dialog = page.getByRole('dialog', { name: 'Forgot Your Vault Passphrase?' })
    await dialog.waitFor()
    const typo = code.slice(0, 5) + (code[5] === 'A' ? 'B' : 'A') + code.slice(6)
    await dialog.getByLabel('Recovery code').fill(typo)
    await dialog.getByRole('button', { name: 'Continue' }).click()
    await dialog.getByText(RECOVERY_MESSAGES.codeCheck).waitFor()
    expect(await seriousViolations(page, 'the recovery code step with a typing mistake')).toEqual([])
    await dialog.getByLabel('Recovery code').fill(code.replace(/-/g, ' ').toLowerCase())
    await dialog.getByRole('button', { name: 'Continue' }).click()

    const choose = page.getByRole('dialog', { name: 'Choose a New Vault Passphrase' })
    await choose.waitFor()
    await choose.getByLabel('New vault passphrase').fill('abcdefghijk1')
    await choose.getByText(VAULT_MESSAGES.tooGuessable).waitFor()
    await choose.getByLabel('New vault passphrase').fill(SECOND)
    await choose.getByLabel('Confirm new passphrase').fill(SECOND)
    expect(await seriousViolations(page, 'choosing a new passphrase after the recovery code')).toEqual([])
    await choose.getByRole('button', { name: 'Set passphrase and open vault' }).click()
    await choose.waitFor({ state: 'detached' })
    await poll(() => toastText(page)).toContain(RECOVERY_MESSAGES.recovered)
    await poll(() => page.getByTestId('vault-state').textContent()).toBe('Vault unlocked')
    await waitForMail(email, /Your vault was opened with its recovery code/)

    // The item stored before opens, byte for byte.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: `Download ${FILE.name}` }).click()])
    expect(readFileSync((await download.path())!).equals(FILE.buffer)).toBe(true)

    // Only the new passphrase opens it now.
    await lockAndOpenUnlock(page)
    expect(await unlockWith(page, FIRST)).toBe('refused')
    expect(await unlockWith(page, SECOND)).toBe('unlocked')

    // A new code from Settings (the passphrase re-entered), shown once; the old one stops working.
    await page.getByRole('button', { name: 'Account menu' }).click()
    await page.getByRole('menuitem', { name: 'Settings' }).click()
    const make = page.getByRole('form', { name: 'Make a new recovery code' })
    await make.waitFor()
    await poll(() => page.getByTestId('recovery-status').textContent()).toMatch(/^Your current recovery code was made on \d+ \w+ \d{4}\.$/)
    await make.getByLabel('Current vault passphrase').fill(FIRST)
    await make.getByRole('button', { name: 'Make a new recovery code' }).click()
    await make.getByText(VAULT_MESSAGES.currentPassphraseWrong).waitFor()
    await make.getByLabel('Current vault passphrase').fill(SECOND)
    await make.getByRole('button', { name: 'Make a new recovery code' }).click()
    await page.getByTestId('recovery-kit').waitFor()
    expect(await seriousViolations(page, 'settings showing a new recovery code')).toEqual([])
    const [kitFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Recovery Kit' }).click()])
    const next = await keepRecoveryKit(page, 'Done')
    expect(next).not.toBe(code)
    expect(readFileSync((await kitFile.path())!, 'utf8')).toContain(next)
    await waitForMail(email, /A new recovery code was made for your vault/)

    await lockAndOpenUnlock(page)
    await page.getByRole('button', { name: RECOVERY_MESSAGES.forgotLink }).click()
    await dialog.getByLabel('Recovery code').fill(code)
    await dialog.getByRole('button', { name: 'Continue' }).click()
    await dialog.getByText(RECOVERY_MESSAGES.codeWrong).waitFor()
    await dialog.getByLabel('Recovery code').fill(next)
    await dialog.getByRole('button', { name: 'Continue' }).click()
    await choose.waitFor()

    // Nothing typed here ever left the browser.
    for (const secret of [FIRST, SECOND, code, code.replace(/-/g, ''), next, next.replace(/-/g, '')]) {
      expect(sent.filter((entry) => entry.includes(secret))).toEqual([])
    }
    await context.close()
  }, 180_000)
})
