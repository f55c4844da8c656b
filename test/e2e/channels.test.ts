import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHANNEL_COPY } from '../../contract/channels-constants'
import { baseUrl, firstLink, launch, newPage, registerOwner, toastText, uniqueEmail, waitForMail } from './browser'

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
