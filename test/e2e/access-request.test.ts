import { mkdirSync, readFileSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seriousViolations } from './axe'
import { baseUrl, firstLink, launch, newPage, outbox, registerOwner, toastText, uniqueEmail, waitForMail } from './browser'
import { addHeirWithKit, diagnoseOnFailure, ESTATE_PASSPHRASE as PASSPHRASE, nav, SHOTS, uploadFirstItemFor } from './estate'

// Access on request (issue 0.3 · 5 of 7, item 1), end to end: the owner makes a policy the heir may
// ask for; the heir, with nothing released yet, gets a portal link by address and asks; the owner
// is e-mailed Approve now and Refuse; the wait runs out (a dev route ends it now) and the heir
// decrypts the identical bytes in their own browser.

const FILE = { name: 'house-keys.txt', mimeType: 'text/plain', buffer: Buffer.from('The spare key is under the blue pot by the shed.\n'.repeat(50)) }
let browser: Browser
beforeAll(async () => {
  browser = await launch()
  mkdirSync(SHOTS, { recursive: true })
})
afterAll(async () => {
  await browser?.close()
})

const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })

describe('access on request', () => {
  it('an heir asks from the portal, the owner is e-mailed Approve now and Refuse, and when the wait runs out the heir decrypts the item', async () => {
    const { page } = await newPage(browser)
    diagnoseOnFailure(page, 'access-request', 'owner')
    const ownerEmail = uniqueEmail('request-owner')
    const heirEmail = uniqueEmail('request-heir')
    await registerOwner(page, { email: ownerEmail, password: 'a sound password 1', passphrase: PASSPHRASE, displayName: 'Rosa Owner' })

    // The heir, with their Access Kit saved, and the file for Nell.
    const kitPath = await addHeirWithKit(page, { fullName: 'Nell Heir', email: heirEmail, relationship: 'Niece' })
    await uploadFirstItemFor(page, [FILE], 'Nell Heir')

    // A policy over it that Nell may ask for, waiting a day (the safety window of 72 hours is longer, and says so).
    await nav(page, 'Policies')
    await page.getByRole('button', { name: 'Create Policy' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Create Policy' })
    await dialog.getByLabel('Policy name').fill('Keys to the house')
    await dialog.getByLabel('Description').fill('Where the keys and the papers are kept')
    await dialog.getByRole('checkbox', { name: 'Documents' }).check()
    await dialog.getByRole('checkbox', { name: /Nell Heir/ }).check()
    await dialog.getByRole('checkbox', { name: /^Verified death/ }).check()
    await dialog.getByRole('switch', { name: 'Access on request' }).click()
    expect(await dialog.getByLabel('Waiting time (days)').inputValue()).toBe('7')
    await dialog.getByText(/The real wait is the longer of this and your safety window \(72 hours\)/).waitFor()
    await dialog.getByLabel('Waiting time (days)').fill('0')
    await dialog.getByRole('button', { name: 'Create Policy' }).click()
    await dialog.getByText('The waiting time must be between 1 and 365 days.').waitFor()
    await dialog.getByLabel('Waiting time (days)').fill('1')
    expect(await seriousViolations(page, 'policy form with access on request')).toEqual([])
    await dialog.getByRole('button', { name: 'Create Policy' }).click()
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    await poll(() => toastText(page)).toContain('Policy created')

    // Nell has nothing released yet: the portal's "send me a new link" still sends her one, to ask.
    const nell = await newPage(browser)
    diagnoseOnFailure(nell.page, 'access-request', 'heir')
    await nell.page.goto(`${baseUrl()}/beneficiary-portal`)
    await nell.page.getByLabel('Your e-mail address').fill(heirEmail)
    await nell.page.getByRole('button', { name: 'Send me a new link' }).click()
    const askMail = await waitForMail(heirEmail, /Asking for access/, 15_000)
    await nell.page.goto(firstLink(askMail.text, '/beneficiary-portal'))
    const card = nell.page.getByTestId('access-request-card')
    await card.getByRole('heading', { name: 'Ask for access: Keys to the house' }).waitFor()
    expect(await card.getByTestId('access-request-state').textContent()).toContain('within 3 days')
    expect(await seriousViolations(nell.page, 'portal Ask for access card')).toEqual([])
    await card.getByRole('button', { name: 'Ask for access' }).click()
    const confirm = nell.page.getByRole('alertdialog', { name: 'Ask for access?' })
    await confirm.getByText(/We will tell Rosa Owner at once/).waitFor()
    expect(await seriousViolations(nell.page, 'Ask for access confirmation')).toEqual([])
    await confirm.getByRole('button', { name: 'Send request' }).click()
    await card.getByText(/Your request was sent to the owner/).waitFor()
    await poll(() => card.getByTestId('access-request-state').textContent()).toMatch(/You asked\. Unless Rosa Owner refuses, access opens on/)
    await nell.page.screenshot({ path: `${SHOTS}/access-request-portal-1280.png`, fullPage: true })

    // The owner hears at once: Refuse (one click) and Approve now (the monitor, signed in).
    const told = await waitForMail(ownerEmail, /asked for access/, 15_000)
    expect(firstLink(told.text, '/access-refuse')).toContain('token=')
    const approveUrl = firstLink(told.text, '/trigger-monitor')
    expect(approveUrl).toContain('request=')
    await page.goto(approveUrl)
    const listed = page.getByTestId('access-request')
    await listed.getByText('Nell Heir asked for “Keys to the house”').waitFor()
    expect(await listed.getAttribute('aria-current')).toBe('true')
    await listed.getByRole('button', { name: 'Approve now' }).waitFor()
    await listed.getByRole('button', { name: 'Refuse' }).waitFor()
    expect(await seriousViolations(page, 'monitor access requests')).toEqual([])

    // The wait runs out, unrefused: the policy's item is released to Nell.
    const elapse = await fetch(`${baseUrl()}/api/dev/access-requests/elapse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: ownerEmail }) })
    expect(await elapse.json()).toEqual({ released: 1 })
    const released = await waitForMail(heirEmail, /left something for you/, 15_000)
    expect((await outbox()).some((m) => m.to === heirEmail && /refused/.test(m.subject))).toBe(false)
    await nell.page.goto(firstLink(released.text, '/beneficiary-portal'))
    const asset = nell.page.getByTestId('released-asset')
    await asset.waitFor()
    await nell.page.locator('input[type=file]').setInputFiles(kitPath)
    await asset.getByText(FILE.name).waitFor()
    const [file] = await Promise.all([nell.page.waitForEvent('download'), asset.getByRole('button', { name: 'Download & Decrypt' }).click()])
    expect(readFileSync((await file.path())!).equals(FILE.buffer)).toBe(true)
    await nell.context.close()
  }, 180_000)
})
