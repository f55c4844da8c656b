import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHANNEL_COPY, CHANNEL_MESSAGES } from '../../contract/channels-constants'
import { ageProof, baseUrl, firstLink, launch, newPage, registerOwner, toastText, uniqueEmail, waitForMail } from './browser'

// A second channel (issue 0.3 · 5 of 7, item 3): Settings → add a backup address → the link sent
// to it, opened signed in → the address shown confirmed.

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

describe('the backup address', () => {
  it('is added from Settings, confirmed through the link sent to it, and shown confirmed', { timeout: 180_000 }, async () => {
    const { context, page } = await newPage(browser)
    await registerOwner(page, { email: uniqueEmail('channels'), password: 'a sound password 1' })
    const backup = uniqueEmail('backup')
    await page.goto(`${baseUrl()}/settings`)
    const card = page.getByTestId('channels-card')
    await card.getByRole('textbox', { name: CHANNEL_COPY.backupLabel, exact: true }).fill(backup)
    await card.getByRole('button', { name: CHANNEL_COPY.backupAdd }).click()
    await expect.poll(() => toastText(page)).toContain(`We sent a link to ${backup}`)
    await expect.poll(() => card.getByTestId('backup-status').textContent()).toContain(CHANNEL_COPY.waiting)

    const mail = await waitForMail(backup, /^Confirm your backup address/)
    await page.goto(firstLink(mail.text, '/verify-backup-email'))
    await page.getByRole('button', { name: CHANNEL_COPY.verifyButton }).click()
    await page.getByText(CHANNEL_COPY.verifiedTitle).waitFor()
    await page.getByRole('link', { name: 'Go to your settings' }).click()
    await expect.poll(() => page.getByTestId('backup-status').textContent()).toContain(CHANNEL_COPY.confirmed)
    expect(await page.getByTestId('backup-status').textContent()).toContain(backup)
    await context.close()
  })
})

async function openFromMenu(page: Page, item: 'Settings' | 'Profile') {
  await page.getByRole('button', { name: 'Account menu' }).click()
  await page.getByRole('menuitem', { name: item }).click()
}

describe('the emergency contact', () => {
  it('asks the owner to confirm it’s them, tells them by e-mail, and shows the same contact on Settings and Profile', { timeout: 180_000 }, async () => {
    const { context, page } = await newPage(browser)
    const email = uniqueEmail('contact-owner')
    const password = 'a sound password 1'
    await registerOwner(page, { email, password })
    // Proof given at sign-up is now more than 5 minutes old.
    await ageProof(email)
    const contact = uniqueEmail('kin')
    await openFromMenu(page, 'Settings')
    const card = page.getByTestId('channels-card')
    await card.getByRole('textbox', { name: CHANNEL_COPY.contactLabel }).fill(contact)
    await card.getByRole('checkbox', { name: CHANNEL_COPY.contactAlerts }).check()
    await card.getByRole('button', { name: CHANNEL_COPY.contactSave }).click()
    const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' })
    await dialog.getByLabel('Your password').fill(password)
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await expect.poll(() => toastText(page)).toContain(CHANNEL_MESSAGES.contactSaved)
    expect((await waitForMail(email, /^Your emergency contact was changed/)).text).toContain(contact)

    // The Profile page shows it without a reload; a change there shows on Settings.
    await openFromMenu(page, 'Profile')
    const field = page.getByLabel('Emergency contact', { exact: true })
    await expect.poll(() => field.inputValue()).toBe(contact)
    const next = uniqueEmail('kin-next')
    await page.getByRole('button', { name: 'Edit Profile' }).click()
    await field.fill(next)
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await expect.poll(() => toastText(page)).toContain('Profile updated')
    await openFromMenu(page, 'Settings')
    await expect.poll(() => page.getByTestId('channels-card').getByRole('textbox', { name: CHANNEL_COPY.contactLabel }).inputValue()).toBe(next)
    expect(await page.getByTestId('channels-card').getByRole('checkbox', { name: CHANNEL_COPY.contactAlerts }).isChecked()).toBe(true)
    await context.close()
  })
})
