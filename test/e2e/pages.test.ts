import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fillRegistrationForm, launch, newPage, registerOwner, uniqueEmail } from './browser'

// Pages a person meets: each page's own browser title, and registration's steps as history entries.

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

const PUBLIC_PAGES: Record<string, string> = {
  '/': 'Secure Your Digital Legacy',
  '/how-it-works': 'How It Works',
  '/pricing': 'Pricing',
  '/login': 'Sign In',
  '/register': 'Create Account',
  '/forgot-password': 'Forgot Password',
  '/reset-password?token=not-a-real-reset-token': 'Reset Password',
  '/terms': 'Terms of Service',
  '/privacy': 'Privacy Policy',
  '/subscribe': 'Subscribe',
  '/payment-success': 'Payment Successful',
  '/verify-beneficiary': 'Beneficiary Verification',
  '/beneficiary-portal': 'Beneficiary Portal',
  '/check-in': 'Check In',
  '/cancel-release': 'Cancel Release',
  '/approve-release': 'Approve Release',
  '/confirm-death': 'Confirm Death',
  '/confirm-email': 'Confirm Email',
  '/no-such-page': 'Page Not Found',
}

const OWNER_PAGES: Record<string, string> = {
  '/dashboard': 'Dashboard',
  '/vault': 'Vault',
  '/beneficiaries': 'Beneficiaries',
  '/protocols': 'Policies',
  '/identity-verification': 'Identity Verification',
  '/triggers': 'Triggers',
  '/audit': 'Audit Log',
  '/profile': 'Profile',
  '/settings': 'Settings',
  '/account': 'Account & Billing',
}

/** Opens each page and waits for its title (the titles load just after the page). */
async function expectTitles(page: Page, pages: Record<string, string>) {
  for (const [route, name] of Object.entries(pages)) {
    await page.goto(route)
    await expect.poll(() => page.title(), { message: route, timeout: 10_000 }).toBe(`${name} · Legacy Vault`)
  }
}

describe('pages a person meets', () => {
  it('gives each page its own title, signed out and signed in', async () => {
    // Each its own: no two pages share a title.
    const names = Object.values({ ...PUBLIC_PAGES, ...OWNER_PAGES })
    expect(new Set(names).size).toBe(names.length)
    const { context, page } = await newPage(browser)
    await expectTitles(page, PUBLIC_PAGES)
    await registerOwner(page, { email: uniqueEmail('titles'), password: 'a sound password 1' })
    await expectTitles(page, OWNER_PAGES)
    await context.close()
  }, 180_000)

  it('makes each registration step a history entry: Back returns a step, Forward cannot skip the passphrase', async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/')
    await fillRegistrationForm(page, { email: uniqueEmail('steps'), password: 'a sound password 1' })
    const security = page.getByRole('heading', { name: 'Set Up Security' })
    await security.waitFor()
    expect(new URL(page.url()).searchParams.get('step')).toBe('setup-security')

    // Back at step 2 stays on the site, at step 1, which now says the account is made.
    await page.goBack()
    await page.getByText('Your account is created').waitFor()
    expect(new URL(page.url()).pathname).toBe('/register')
    expect(await page.getByRole('button', { name: 'Create Account' }).count()).toBe(0)
    // Forward returns to step 2, not to the dashboard.
    await page.goForward()
    await security.waitFor()

    await page.getByRole('button', { name: /Choose a secure passphrase/ }).click()
    const passphrase = page.getByRole('heading', { name: 'Create Your Vault Passphrase' })
    await passphrase.waitFor()
    await page.goBack()
    await security.waitFor()
    await page.goForward()
    await passphrase.waitFor()
    expect(new URL(page.url()).searchParams.get('step')).toBe('passphrase')
    // The page's own Back too.
    await page.getByRole('button', { name: 'Back', exact: true }).click()
    await security.waitFor()
    await context.close()
  }, 180_000)

  it('starts the steps over for someone with no account', async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/register?step=passphrase')
    await page.getByRole('button', { name: 'Create Account' }).waitFor()
    expect(new URL(page.url()).searchParams.get('step')).toBeNull()
    await context.close()
  }, 180_000)
})
