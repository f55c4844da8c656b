import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fillRegistrationForm, firstLink, launch, newPage, registerOwner, signInThroughForm, uniqueEmail, waitForMail } from './browser'

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

async function registerThroughForm(page: Page, email: string, password: string, displayName = 'Grace Owner') {
  await registerOwner(page, { email, password, displayName })
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click()
  await page.getByRole('menuitem', { name: 'Sign Out' }).click()
}

describe('accounts in the browser', () => {
  it('registers, lands on the dashboard, logs out and logs back in', async () => {
    const { context, page } = await newPage(browser)
    const email = uniqueEmail('journey')
    await registerThroughForm(page, email, 'a sound password 1', 'Grace Owner')

    await page.waitForURL('**/dashboard')
    // A new account protects nothing yet, and the dashboard says so.
    await expect.poll(() => page.getByRole('heading', { name: 'Not protected yet: add a beneficiary' }).isVisible()).toBe(true)
    expect(await page.getByText('Your Digital Legacy is Protected').count()).toBe(0)
    expect(await page.getByText('Welcome, Grace Owner').isVisible()).toBe(true)
    await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Account created successfully!')
    // The signed-in shell: highlighted navigation, 'Encrypted' badge, and the 'Secure connection'
    // mark in the footer (never floating over the page).
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).toEqual([
      'Vault',
      'Beneficiaries',
      'Policies',
      'Identity',
      'Triggers',
      'Audit',
    ])
    expect(await page.getByText('Encrypted', { exact: true }).isVisible()).toBe(true)
    const secure = page.getByTestId('secure-indicator')
    expect((await secure.textContent())?.trim()).toBe('Secure connection')
    expect(await secure.evaluate((el) => el.closest('footer') !== null && getComputedStyle(el).position !== 'fixed')).toBe(true)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Policies' }).click()
    await page.waitForURL('**/protocols')
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Policies' }).getAttribute('aria-current')).toBe('page')

    await logOut(page)
    await page.waitForURL((url) => url.pathname === '/')
    await expect.poll(() => page.getByRole('heading', { name: 'Secure Your Digital Legacy' }).isVisible()).toBe(true)
    // The session is gone on the server too: a protected page sends us to sign in.
    await page.goto('/dashboard')
    await page.waitForURL('**/login')

    await signInThroughForm(page, email, 'a sound password 1')
    await page.waitForURL('**/dashboard')
    await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Welcome back!')
    await context.close()
  })

  it('resets a forgotten password through the e-mailed link', async () => {
    const { context, page } = await newPage(browser)
    const email = uniqueEmail('reset')
    await registerThroughForm(page, email, 'the old password 1')
    await page.waitForURL('**/dashboard')
    await logOut(page)
    await page.waitForURL((url) => url.pathname === '/')

    await page.goto('/forgot-password')
    const send = page.getByRole('button', { name: 'Send Reset Instructions' })
    expect(await send.isDisabled()).toBe(true)
    await page.getByLabel('Email').fill(email)
    await send.click()
    await expect.poll(() => page.getByRole('heading', { name: 'Check Your Email' }).isVisible()).toBe(true)
    expect(await page.getByText(email).isVisible()).toBe(true)

    const mail = await waitForMail(email, /Reset your/)
    const link = firstLink(mail.text, '/reset-password?token=')
    expect(mail.html).toContain(link.replace(/&/g, '&#38;'))
    await page.goto(link)
    await page.getByLabel('New password', { exact: true }).fill('the new password 2')
    await page.getByLabel('Confirm new password').fill('the new password 2')
    await page.getByRole('button', { name: 'Set New Password' }).click()
    await page.waitForURL('**/login')

    await signInThroughForm(page, email, 'the old password 1')
    await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Sign-in failed')
    expect(await page.getByTestId('toast').textContent()).toContain('Invalid email or password.')

    await signInThroughForm(page, email, 'the new password 2')
    await page.waitForURL('**/dashboard')

    // The link worked once; a second use is refused with a clear message.
    await page.goto(link)
    await page.getByLabel('New password', { exact: true }).fill('another password 3')
    await page.getByLabel('Confirm new password').fill('another password 3')
    await page.getByRole('button', { name: 'Set New Password' }).click()
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Password reset failed' }).isVisible()).toBe(true)
    await context.close()
  })

  it('tells a visitor the address is taken without losing the form', async () => {
    const { context, page } = await newPage(browser)
    const email = uniqueEmail('taken')
    await registerThroughForm(page, email, 'a sound password 1')
    await page.waitForURL('**/dashboard')
    await logOut(page)
    await page.waitForURL((url) => url.pathname === '/')

    await fillRegistrationForm(page, { email, password: 'a sound password 1' })
    await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Registration failed')
    expect(await page.getByTestId('toast').textContent()).toContain('already exists')
    expect(await page.getByLabel('Email').inputValue()).toBe(email)
    await context.close()
  })
})

describe('validation and errors on screen', () => {
  it('shows the spec messages on the login form', async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/login')
    await page.getByLabel('Email').fill('not-an-email')
    await page.getByLabel('Password', { exact: true }).fill('12345')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await expect.poll(() => page.getByText('Please enter a valid email address').isVisible()).toBe(true)
    expect(await page.getByText('Password must be at least 6 characters').isVisible()).toBe(true)
    await context.close()
  })

  it('shows the spec messages on the registration form', async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/register')
    await page.getByLabel('Email').fill('bad')
    await page.getByLabel('Display name').fill('A')
    await page.getByLabel('Password', { exact: true }).fill('short')
    await page.getByLabel('Confirm password').fill('different')
    await page.getByRole('button', { name: 'Create Account' }).click()
    for (const message of [
      'Please enter a valid email address',
      'Display name must be at least 2 characters',
      'Password must be at least 8 characters',
      'You must accept the terms and conditions',
    ]) {
      await expect.poll(() => page.getByText(message).isVisible(), { message }).toBe(true)
    }
    await page.getByLabel('Password', { exact: true }).fill('long enough 1')
    await page.getByLabel('Confirm password').fill('long enough 2')
    await page.getByRole('button', { name: 'Create Account' }).click()
    await expect.poll(() => page.getByText("Passwords don't match").isVisible()).toBe(true)
    await context.close()
  })

  it("shows 'Page Not Found' for an unknown path, and for /admin to a non-admin", async () => {
    const { context, page } = await newPage(browser)
    const res = await page.goto('/no/such/page')
    expect(res?.status()).toBe(200)
    await expect.poll(() => page.getByRole('heading', { name: 'Page Not Found' }).isVisible()).toBe(true)

    await page.goto('/admin')
    await expect.poll(() => page.getByRole('heading', { name: 'Admin sign in' }).isVisible()).toBe(true)
    await registerThroughForm(page, uniqueEmail('nonadmin'), 'a sound password 1')
    await page.waitForURL('**/dashboard')
    await page.goto('/admin')
    await expect.poll(() => page.getByRole('heading', { name: 'Page Not Found' }).isVisible()).toBe(true)
    await context.close()
  })
})

describe('the page itself', () => {
  it('serves HTML with the security headers and runs without CSP violations', async () => {
    const { context, page } = await newPage(browser)
    const violations: string[] = []
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text())
    })
    const res = await page.goto('/')
    const headers = res!.headers()
    expect(headers['content-security-policy']).toContain("script-src 'self'")
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['strict-transport-security']).toContain('max-age=')
    expect(headers['referrer-policy']).toBe('no-referrer')
    await expect.poll(() => page.getByRole('heading', { name: 'Secure Your Digital Legacy' }).isVisible()).toBe(true)
    expect(violations).toEqual([])
    await context.close()
  })

  it('logs no console error on signed-out pages: a visitor is an answer, not a failed session check', async () => {
    const { context, page } = await newPage(browser)
    const errors: string[] = []
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text())
    })
    const sessionChecks: number[] = []
    page.on('response', (res) => {
      if (new URL(res.url()).pathname.startsWith('/api/auth/')) sessionChecks.push(res.status())
    })
    for (const [path, heading] of [
      ['/', 'Secure Your Digital Legacy'],
      ['/login', 'Sign in to your vault'],
      ['/pricing', /plan/i],
    ] as const) {
      await page.goto(path)
      await page.getByRole('heading', { name: heading }).first().waitFor()
    }
    expect(sessionChecks.length).toBeGreaterThan(0)
    expect(sessionChecks.every((status) => status === 200)).toBe(true)
    expect(errors).toEqual([])
    await context.close()
  })

  it('works on a phone-sized screen with the keyboard', async () => {
    const { context, page } = await newPage(browser, { width: 375, height: 740 })
    await registerThroughForm(page, uniqueEmail('phone'), 'a sound password 1')
    await page.waitForURL('**/dashboard')
    const menu = page.getByRole('button', { name: 'Open navigation' })
    await menu.waitFor()
    await menu.focus()
    await page.keyboard.press('Enter')
    await page.getByRole('menuitem', { name: 'Beneficiaries' }).click()
    await page.waitForURL('**/beneficiaries')
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(width).toBeLessThanOrEqual(375)
    await context.close()
  })
})
