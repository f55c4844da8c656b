import { Secret, TOTP } from 'otpauth'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTHENTICATOR, AUTHENTICATOR_MESSAGES } from '../../contract/authenticator-constants'
import { TOASTS } from '../../contract/messages'
import { seriousViolations } from './axe'
import { baseUrl, launch, logOut, newPage, signInThroughForm, toastText, uniqueEmail } from './browser'

// The authenticator app in a real Chromium, on a phone-sized screen: set up from the profile (the
// key read off the page, codes computed here as an app would), recovery codes saved, then sign-ins
// with the password and a code, and with a recovery code.

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

const PERIOD_MS = AUTHENTICATOR.periodSeconds * 1000
const codeAt = (secret: string, steps = 0) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: AUTHENTICATOR.periodSeconds, secret: Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + steps * PERIOD_MS,
  })

/** Waits until the current 30-second step has a few seconds left, so a code computed now is checked in the same step. */
async function midStep(): Promise<void> {
  const into = Date.now() % PERIOD_MS
  if (into > PERIOD_MS - 5000) await new Promise((r) => setTimeout(r, PERIOD_MS - into + 1000))
}

async function registerByApi(email: string, password: string) {
  const res = await fetch(`${baseUrl()}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, displayName: 'Tess Otp' }),
  })
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`)
}

describe('authenticator app', () => {
  it('is set up from the profile, then signs in with the password and a code, or with a recovery code once', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 })
    const email = uniqueEmail('totp')
    const password = 'a sound password 1'
    await registerByApi(email, password)
    await signInThroughForm(page, email, password)
    await page.waitForURL('**/dashboard')

    // Set up: the QR code and the key are drawn on the page; the key is read off it, as typed into an app.
    await page.goto('/profile')
    await page.getByRole('heading', { name: 'Authenticator App' }).waitFor()
    await page.getByRole('button', { name: 'Set up authenticator app' }).click()
    await page.getByRole('img', { name: /QR code to add/ }).waitFor()
    const shown = (await page.getByTestId('authenticator-secret').textContent())!
    expect(shown).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/)
    const secret = shown.replace(/\s/g, '')
    expect(await page.getByRole('link', { name: 'Open in authenticator app' }).getAttribute('href')).toContain(`secret=${secret}`)

    expect(await seriousViolations(page, 'authenticator setup')).toEqual([])
    const codeField = page.getByLabel(`2. Enter the ${AUTHENTICATOR.digits}-digit code the app shows`)
    expect(await codeField.getAttribute('inputmode')).toBe('numeric')
    expect(await codeField.getAttribute('autocomplete')).toBe('one-time-code')
    // A wrong code is said at the field.
    await midStep()
    await codeField.fill(codeAt(secret, 5))
    await page.getByRole('button', { name: 'Turn on' }).click()
    await expect.poll(() => page.getByRole('alert').filter({ hasText: AUTHENTICATOR_MESSAGES.wrongConfirmCode }).count()).toBe(1)
    // The code of the step before: the sign-in below uses the current one (each step counts once).
    await midStep()
    await codeField.fill(codeAt(secret, -1))
    await page.getByRole('button', { name: 'Turn on' }).click()

    // The recovery codes, once; saved, then gone from the page.
    await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor()
    expect(await seriousViolations(page, 'recovery codes')).toEqual([])
    const codes = await page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem').allTextContents()
    expect(codes).toHaveLength(AUTHENTICATOR.recoveryCodeCount)
    for (const code of codes) expect(code).toMatch(/^[2-9a-z]{4}-[2-9a-z]{4}-[2-9a-z]{4}$/)
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Save your recovery codes')
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Download' }).click()
    expect((await download).suggestedFilename()).toBe('legacy-vault-recovery-codes.txt')
    await page.getByRole('button', { name: 'I have saved these' }).click()
    await expect.poll(() => page.getByTestId('authenticator-status').textContent()).toContain('10 recovery codes left.')
    expect(await page.getByText(codes[0]!).count()).toBe(0)
    // Nothing on the page is wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)

    // Signed out, the password alone is not enough: the code step, with a field made for codes.
    await logOut(page)
    await signInThroughForm(page, email, password)
    const signInCode = page.getByLabel(`${AUTHENTICATOR.digits}-digit code from your authenticator app`)
    await signInCode.waitFor()
    expect(await signInCode.getAttribute('inputmode')).toBe('numeric')
    expect(await signInCode.getAttribute('autocomplete')).toBe('one-time-code')
    expect(new URL(page.url()).pathname).toBe('/login')
    expect(await seriousViolations(page, 'sign-in code step')).toEqual([])
    await midStep()
    await signInCode.fill(codeAt(secret))
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.waitForURL('**/dashboard')
    await expect.poll(() => toastText(page)).toContain(TOASTS.loginSuccess)

    // A recovery code instead; the same one again is refused, and read out at the field.
    await logOut(page)
    await signInThroughForm(page, email, password)
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click()
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await page.getByLabel('Recovery code').fill(codes[0]!.toUpperCase())
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.waitForURL('**/dashboard')
    await expect.poll(() => toastText(page)).toContain(AUTHENTICATOR_MESSAGES.recoveryCodeUsed(9))

    await logOut(page)
    await signInThroughForm(page, email, password)
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click()
    await page.getByLabel('Recovery code').fill(codes[0]!)
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect.poll(() => page.getByRole('alert').filter({ hasText: AUTHENTICATOR_MESSAGES.wrongCode }).count()).toBe(1)
    expect(new URL(page.url()).pathname).toBe('/login')
    await page.getByLabel('Recovery code').fill(codes[1]!)
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.waitForURL('**/dashboard')

    // Turned off (after a confirmation), the password alone signs in again.
    await page.goto('/profile')
    await expect.poll(() => page.getByTestId('authenticator-status').textContent()).toContain('8 recovery codes left.')
    await page.getByRole('button', { name: 'Turn off' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Turn off' }).click()
    await expect.poll(() => toastText(page)).toContain(AUTHENTICATOR_MESSAGES.disabledTitle)
    await page.getByRole('button', { name: 'Set up authenticator app' }).waitFor()
    await logOut(page)
    await signInThroughForm(page, email, password)
    await page.waitForURL('**/dashboard')
    await context.close()
  })
})
