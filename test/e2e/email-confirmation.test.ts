import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMAIL_CONFIRMATION } from '../../contract/messages'
import { addBeneficiaryThroughUi, firstLink, launch, newPage, outbox, registerOwner, uniqueEmail, waitForMail } from './browser'

// An owner's invitations wait until they confirm their own address (0.2 · 4 of 7, point 3): the
// pages say why, and confirming through the e-mailed link sends them.

const PASSPHRASE = 'Lantern-Orchard-73-Quill'
let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

describe('confirming the owner’s e-mail address', () => {
  it('holds an invitation until the owner follows the link, says why meanwhile, and sends it on confirmation', async () => {
    const { context, page } = await newPage(browser)
    const email = uniqueEmail('unconfirmed')
    const heir = uniqueEmail('held-heir')
    await registerOwner(page, { email, password: 'a sound password 1', displayName: 'Nora Newcomer', passphrase: PASSPHRASE, unconfirmed: true })
    const notice = page.getByTestId('email-confirmation-notice')
    await notice.waitFor()
    expect(await notice.textContent()).toContain(email)

    await addBeneficiaryThroughUi(page, { fullName: 'Hugo Held', email: heir })
    const card = page.getByTestId('beneficiary-card').filter({ hasText: 'Hugo Held' })
    await card.getByText('Invitation waiting', { exact: true }).waitFor()
    expect(await page.getByTestId('email-confirmation-notice').textContent()).toContain(EMAIL_CONFIRMATION.invitationsWait)
    expect((await outbox()).filter((m) => m.to === heir)).toEqual([])

    // The link, opened in another tab as from a mailbox, asks for a click before it confirms.
    const mail = await waitForMail(email, /^Confirm your e-mail address/)
    const tab = await context.newPage()
    await tab.goto(firstLink(mail.text, '/confirm-email'))
    await tab.getByRole('heading', { name: 'Confirm your e-mail address' }).waitFor()
    await tab.getByRole('button', { name: 'Confirm my e-mail address' }).click()
    await tab.getByRole('heading', { name: 'E-mail address confirmed' }).waitFor()
    await tab.getByText('The invitation you had prepared went out just now.').waitFor()
    await waitForMail(heir, /./)
    await tab.close()

    // Back in the first tab (a headless browser does not tell the page it is shown again, so the
    // test does): the notice goes, and the card no longer waits, without a reload.
    await page.bringToFront()
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })))
    await card.getByText('Pending', { exact: true }).waitFor()
    await page.getByTestId('email-confirmation-notice').waitFor({ state: 'detached' })
    expect(await page.getByTestId('email-confirmation-notice').count()).toBe(0)
    await context.close()
  })

  it('sends the owner a new link from the notice, and an invalid link says what to do', async () => {
    const { context, page } = await newPage(browser)
    const email = uniqueEmail('resend')
    await registerOwner(page, { email, password: 'a sound password 1', unconfirmed: true })
    await page.getByRole('button', { name: 'Send the link again' }).click()
    await page.getByTestId('toast').filter({ hasText: EMAIL_CONFIRMATION.sent(email) }).waitFor()
    const links = (await outbox()).filter((m) => m.to === email && m.subject.startsWith('Confirm your e-mail address'))
    expect(links).toHaveLength(2)

    await page.goto('/confirm-email?token=not-a-real-link-token-at-all')
    await page.getByRole('button', { name: 'Confirm my e-mail address' }).click()
    await page.getByText(EMAIL_CONFIRMATION.linkInvalid).waitFor()
    await page.goto('/confirm-email')
    await page.getByRole('heading', { name: 'Invalid Link' }).waitFor()
    await context.close()
  })
})
