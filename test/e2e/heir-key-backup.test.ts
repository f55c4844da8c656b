import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest'
import { AUTH_TOKEN_STORAGE_KEY } from '../../contract/constants'
import { HEIR_BACKUP_MESSAGES } from '../../contract/heir-key-backup'
import { VAULT_MESSAGES } from '../../contract/vault'
import { seriousViolations } from './axe'
import { firstLink, launch, newPage, registerOwner, toastText, uniqueEmail, waitForMail } from './browser'
import { addHeirWithKit, nav, releaseNow, uploadFirstItemFor } from './estate'

// An heir key that survives a lost kit (0.3 · 4 of 7): the heir sets a passphrase backup of their
// key from the invitation's link (a guessable passphrase is refused with advice), the owner sees it,
// releases by hand, and the heir, without the kit, opens the portal with the passphrase and gets
// back exactly the bytes uploaded.

const PASSPHRASE = 'Lantern-Orchard-31-Pebble'
const HEIR_PASSPHRASE = 'copper kestrel winters 84 lagoon'
const FILE = { name: 'deeds-location.txt', mimeType: 'text/plain', buffer: Buffer.from('The deeds are with the notary on Elm Street.\n'.repeat(40)) }
const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000 })

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

function logOnFailure(page: Page, name: string) {
  const logs: string[] = []
  page.on('console', (msg) => logs.push(`${msg.type()}: ${msg.text()}`))
  onTestFailed(() => console.error(`page log (${name}):\n${logs.join('\n')}`))
}

async function api<T>(page: Page, method: string, path: string): Promise<T> {
  const answer = await page.evaluate(
    async ({ method, path, key }) => {
      const res = await fetch(path, { method, headers: { authorization: `Bearer ${localStorage.getItem(key)}` } })
      return { status: res.status, text: await res.text() }
    },
    { method, path, key: AUTH_TOKEN_STORAGE_KEY },
  )
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`)
  return JSON.parse(answer.text) as T
}

describe("an heir's passphrase backup in the browser", () => {
  it('is set from the invitation link, shown to the owner, and opens the released item without the kit', async () => {
    const { page } = await newPage(browser)
    logOnFailure(page, 'owner')
    const ownerEmail = uniqueEmail('backup-owner')
    const heirEmail = uniqueEmail('backup-heir')
    await registerOwner(page, { email: ownerEmail, password: 'a sound password 1', passphrase: PASSPHRASE })
    const kitText = readFileSync(await addHeirWithKit(page, { fullName: 'Nora Heir', email: heirEmail, relationship: 'Niece' }), 'utf8')
    await page.getByText('Access Kit only').waitFor()

    await uploadFirstItemFor(page, [FILE], 'Nora Heir')

    // The heir, from the invitation: the kit's key and a passphrase of their own.
    const invite = await waitForMail(heirEmail, /Named as a Beneficiary/)
    const heir = await newPage(browser)
    logOnFailure(heir.page, 'heir opt-in')
    await heir.page.goto(firstLink(invite.text, '/beneficiary-opt-in'))
    await heir.page.getByRole('button', { name: 'Set up a passphrase backup' }).click()
    // A file far larger than any kit is refused with a message, not ignored.
    await heir.page.locator('input[type=file]').setInputFiles({ name: 'holiday.txt', mimeType: 'text/plain', buffer: Buffer.alloc(70 * 1024, 'x') })
    await heir.page.getByText('Invalid private key format').waitFor()
    await heir.page.getByLabel('Your Access Kit').fill(kitText)
    await heir.page.getByLabel('Backup passphrase', { exact: true }).fill('abcdefghijk1')
    await poll(() => heir.page.getByTestId('passphrase-guessing').textContent()).toContain(VAULT_MESSAGES.tooGuessable)
    expect(await heir.page.getByRole('button', { name: 'Save passphrase backup' }).isDisabled()).toBe(true)
    await heir.page.getByLabel('Backup passphrase', { exact: true }).fill(HEIR_PASSPHRASE)
    await heir.page.getByLabel('Confirm backup passphrase').fill(HEIR_PASSPHRASE)
    await poll(() => heir.page.getByTestId('passphrase-guessing').count()).toBe(0)
    expect(await seriousViolations(heir.page, 'heir backup form')).toEqual([])
    await heir.page.getByRole('button', { name: 'Save passphrase backup' }).click()
    await heir.page.getByTestId('heir-backup-saved').waitFor({ timeout: 30_000 })
    await heir.context.close()

    // The owner sees it, then releases by hand.
    await nav(page, 'Beneficiaries')
    await page.reload()
    await page.getByText('Passphrase backup', { exact: true }).waitFor()
    expect((await api<Array<{ hasKeyBackup: boolean }>>(page, 'GET', '/api/beneficiaries'))[0]!.hasKeyBackup).toBe(true)
    await releaseNow(page, 'Handing over the deeds', 1)
    await poll(() => toastText(page)).toContain('1 release started')

    // The heir, the kit lost: the passphrase opens the portal.
    const released = await waitForMail(heirEmail, /left something for you/)
    const portal = await newPage(browser)
    logOnFailure(portal.page, 'heir portal')
    await portal.page.goto(firstLink(released.text, '/beneficiary-portal'))
    const card = portal.page.getByTestId('released-asset')
    await card.waitFor()
    await portal.page.getByRole('button', { name: 'Use my passphrase instead' }).click()
    await portal.page.getByLabel('Backup passphrase').fill('copper kestrel winters 85 lagoon')
    await portal.page.getByRole('button', { name: 'Open with passphrase' }).click()
    await poll(() => portal.page.getByRole('alert').first().textContent()).toContain(HEIR_BACKUP_MESSAGES.wrongPassphrase)
    await portal.page.getByLabel('Backup passphrase').fill(HEIR_PASSPHRASE)
    await portal.page.getByRole('button', { name: 'Open with passphrase' }).click()
    await card.getByText(FILE.name).waitFor({ timeout: 30_000 })
    expect(await seriousViolations(portal.page, 'portal opened by passphrase')).toEqual([])
    const [file] = await Promise.all([portal.page.waitForEvent('download'), card.getByRole('button', { name: 'Download & Decrypt' }).click()])
    expect(readFileSync((await file.path())!).equals(FILE.buffer)).toBe(true)
  }, 240_000)
})
