import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WEBAUTHN_MESSAGES } from '../../contract/webauthn'
import { seriousViolations } from './axe'
import { ageProof, firstLink, launch, newPage, registerOwner, signInThroughForm, toastText, uniqueEmail, waitForMail } from './browser'

// A session whose proof is stale (a token lifted from a shared computer) asks for the password in
// one dialog before adding a passkey; the owner is e-mailed about the new key, and "This wasn't
// me" in that e-mail removes it, signs out everywhere and leads to a new password.

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

async function plugInKey(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'usb', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
}

const keyList = (page: Page) => page.getByRole('list', { name: 'Your security keys' }).getByRole('listitem')

describe('fresh proof', () => {
  it('asks for the password before a passkey is added; the new-key e-mail’s "This wasn’t me" removes it and leads to a new password', async () => {
    const { context, page } = await newPage(browser)
    const email = uniqueEmail('stepup')
    const password = 'a sound password 1'
    await registerOwner(page, { email, password, displayName: 'Stella Step' })
    // Proof given at sign-up is now more than 5 minutes old.
    await ageProof(email)

    await page.goto('/profile')
    await page.getByRole('heading', { name: 'Security Keys' }).waitFor()
    await plugInKey(context, page)
    await page.getByLabel('Key name (optional)').fill('Found key')
    await page.getByRole('button', { name: 'Add Security Key' }).click()
    const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' })
    await dialog.waitFor()
    expect(await seriousViolations(page, 'the fresh-proof dialog')).toEqual([])
    // A wrong password is said in place; the dialog stays.
    await dialog.getByLabel('Your password').fill('not it')
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await dialog.getByText('That password is not right.').waitFor()
    await dialog.getByLabel('Your password').fill(password)
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    // The act that asked is sent again once proved: the key is registered.
    await expect.poll(() => toastText(page)).toContain(WEBAUTHN_MESSAGES.registered)
    await expect.poll(() => keyList(page).count()).toBe(1)
    expect(await dialog.count()).toBe(0)

    const mail = await waitForMail(email, /^A security key was added/)
    expect(mail.text).toContain('Found key')
    await page.goto(firstLink(mail.text, '/not-me?token='))
    await page.getByRole('button', { name: 'Sign out everywhere and secure my account' }).click()
    await page.getByRole('heading', { name: 'Your account is secured' }).waitFor()
    expect(await page.getByText(/1 security key added since then was removed/).count()).toBe(1)
    await page.getByRole('link', { name: 'Choose a new password' }).click()
    await page.getByLabel('New password', { exact: true }).fill('a fresh password 2')
    await page.getByLabel('Confirm new password').fill('a fresh password 2')
    await page.getByRole('button', { name: 'Set New Password' }).click()
    await page.waitForURL('**/login')
    await signInThroughForm(page, email, 'a fresh password 2')
    await page.waitForURL('**/dashboard')
    await page.goto('/profile')
    await page.getByText('No security keys yet.').waitFor()
    await context.close()
  })

  it('cancelling the dialog changes nothing and says why', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 })
    const email = uniqueEmail('stepup-cancel')
    await registerOwner(page, { email, password: 'a sound password 1' })
    await ageProof(email)
    await page.goto('/profile')
    await page.getByRole('heading', { name: 'Security Keys' }).waitFor()
    await plugInKey(context, page)
    await page.getByRole('button', { name: 'Add Security Key' }).click()
    const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' })
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => toastText(page)).toContain('Nothing was changed')
    expect(await keyList(page).count()).toBe(0)
    await context.close()
  })
})
