import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launch, newPage, registerOwner, uniqueEmail } from './browser'

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

describe('public pages', () => {
  it('shows an owner on Basic "Current plan" on /pricing rather than an offer to subscribe to it', async () => {
    const { context, page } = await newPage(browser)
    await registerOwner(page, { email: uniqueEmail('pricing-basic'), password: 'a sound password 1' })
    await page.goto('/pricing')
    const basic = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Basic', exact: true }) })
    const current = basic.getByRole('button', { name: 'Current plan' })
    await current.waitFor()
    expect(await current.isDisabled()).toBe(true)
    expect(await basic.getByRole('link', { name: /Subscribe to Basic/ }).count()).toBe(0)
    expect(await page.getByRole('link', { name: /Subscribe to Premium/ }).count()).toBe(1)
    await context.close()
  })

  it('log no error and break no rule of the CSP on /, /login and /pricing (the pages Lighthouse scores)', async () => {
    const { context, page } = await newPage(browser)
    const problems: string[] = []
    page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`))
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    await page.exposeFunction('reportViolation', (text: string) => problems.push(`CSP: ${text}`))
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation: (t: string) => void }).reportViolation(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`),
      ),
    )
    for (const path of ['/', '/login', '/pricing']) {
      await page.goto(path)
      await page.getByRole('heading', { level: 1 }).waitFor()
      await page.waitForLoadState('networkidle')
    }
    expect(problems).toEqual([])
    await context.close()
  })

  it('each public route renders its page with one h1', async () => {
    const { context, page } = await newPage(browser)
    const pages: Array<[string, string]> = [
      ['/', 'Secure Your Digital Legacy'],
      ['/how-it-works', 'Your legacy, passed on exactly as you intend'],
      ['/pricing', 'Choose the plan that protects your legacy'],
      ['/payment-success?payment_intent=pi_123', 'Payment Successful!'],
      ['/public-terms', 'Terms of Service'],
      ['/public-privacy', 'Privacy Policy'],
      ['/terms', 'Terms of Service'],
      ['/privacy', 'Privacy Policy'],
    ]
    for (const [path, heading] of pages) {
      await page.goto(path)
      await page.getByRole('heading', { level: 1, name: heading }).waitFor()
      expect(await page.getByRole('heading', { level: 1 }).count(), path).toBe(1)
    }
    await context.close()
  })

  it('shows terms and privacy with their dates, in the public layout or the signed-in shell', async () => {
    const { context, page } = await newPage(browser)
    for (const path of ['/terms', '/privacy']) {
      await page.goto(path)
      await page.getByText('Effective date: August 11, 2025').waitFor()
      expect(await page.getByText('Last updated: August 11, 2025').isVisible()).toBe(true)
      expect(await page.getByRole('link', { name: 'Back to Home' }).isVisible()).toBe(true)
    }

    await registerOwner(page, { email: uniqueEmail('legal'), password: 'a sound password 1', displayName: 'Legal Reader' })
    await page.goto('/terms')
    await page.getByText('Effective date: August 11, 2025').waitFor()
    // Inside the app shell now: its account menu and 'Encrypted' badge, no public Back to Home.
    expect(await page.getByRole('button', { name: 'Account menu' }).isVisible()).toBe(true)
    expect(await page.getByRole('link', { name: 'Back to Home' }).count()).toBe(0)
    await context.close()
  })

  it('prices the three plans from one source and links each to /subscribe?plan=', async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/pricing')
    await page.getByText('Most Popular').waitFor()
    for (const price of ['$10.00', '$29.99', '$99.99']) expect(await page.getByText(price).first().isVisible()).toBe(true)
    const hrefs = await page.locator('a[href^="/subscribe"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')))
    expect(hrefs).toEqual(['/subscribe?plan=basic', '/subscribe?plan=premium', '/subscribe?plan=enterprise'])
    await context.close()
  })

  it("takes the footer's FAQs link to the pricing FAQ", async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/')
    await page.getByRole('contentinfo').getByRole('link', { name: 'FAQs' }).click()
    await page.waitForURL('**/pricing#faq')
    await expect.poll(() => page.locator('#faq').evaluate((el) => el.getBoundingClientRect().top < window.innerHeight)).toBe(true)
    await context.close()
  })

  it('takes an heir from the footer and from the sign-in page to "Send me a new link"; the footer says this year and writes to support', async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/')
    const footer = page.getByRole('contentinfo')
    // The page renders after load: wait for the footer's line before reading the rest of it.
    await footer.getByText(`© ${new Date().getFullYear()} Legacy Vault`).waitFor()
    expect(await footer.getByText('Help Center').count()).toBe(0)
    expect(await footer.getByRole('link', { name: 'Contact Us' }).getAttribute('href')).toMatch(/^mailto:support@/)
    await footer.getByRole('link', { name: 'Were you left something?' }).click()
    await page.waitForURL('**/beneficiary-portal')
    await page.getByRole('heading', { name: 'Send me a new link' }).waitFor()

    await page.goto('/login')
    await page.getByRole('link', { name: 'Were you left something?' }).click()
    await page.waitForURL('**/beneficiary-portal')
    await page.getByRole('heading', { name: 'Send me a new link' }).waitFor()
    await context.close()
  }, 180_000)
})

/** Every JavaScript file the page fetches from /assets, with its text. */
function recordScripts(page: Page): Array<{ url: string; text: Promise<string> }> {
  const scripts: Array<{ url: string; text: Promise<string> }> = []
  page.on('response', (res) => {
    if (/^\/assets\/[^/]+\.js$/.test(new URL(res.url()).pathname)) scripts.push({ url: res.url(), text: res.text().catch(() => '') })
  })
  return scripts
}

/** Whether any of these scripts contains the text (a string literal survives minifying). */
async function anyContains(scripts: Array<{ text: Promise<string> }>, marker: string): Promise<boolean> {
  return (await Promise.all(scripts.map((s) => s.text))).some((text) => text.includes(marker))
}

// Text found only in one app area's code, so a chunk is recognised by what it holds, whatever
// name and hash the build gave it.
const APP_MARKERS = {
  vault: 'vault_unlocked',
  'vault page': 'Secure Vault',
  crypto: 'Decryption failed',
  admin: 'The dashboard figures could not be loaded',
  Stripe: 'js.stripe.com',
  zod: 'ZodObject',
}

describe('route-level code splitting', () => {
  it('/, /login and /pricing download no vault, crypto, admin, Stripe or zod code', async () => {
    const { context, page } = await newPage(browser)
    const scripts = recordScripts(page)
    for (const path of ['/', '/login', '/pricing']) {
      await page.goto(path)
      await page.getByRole('heading', { level: 1 }).waitFor()
      await page.waitForLoadState('networkidle')
    }
    expect(scripts.length).toBeGreaterThan(0)
    const found: string[] = []
    for (const { url, text } of scripts) {
      const body = await text
      for (const [area, marker] of Object.entries(APP_MARKERS)) if (body.includes(marker)) found.push(`${area} in ${url}`)
    }
    expect(found).toEqual([])
    await context.close()
  })

  it('fetches a public page\'s chunk when its link is hovered or focused, before the click', async () => {
    const { context, page } = await newPage(browser)
    const scripts = recordScripts(page)
    await page.goto('/')
    await page.getByRole('heading', { level: 1 }).waitFor()
    await page.waitForLoadState('networkidle')
    const nav = page.getByRole('navigation', { name: 'Main' })
    expect(await anyContains(scripts, 'Sign in to your vault')).toBe(false)
    expect(await anyContains(scripts, 'Set Up Security')).toBe(false)

    await nav.getByRole('link', { name: 'Sign In' }).hover()
    await expect.poll(() => anyContains(scripts, 'Sign in to your vault')).toBe(true)
    await nav.getByRole('link', { name: 'Get Started' }).focus()
    await expect.poll(() => anyContains(scripts, 'Set Up Security')).toBe(true)

    const fetched = scripts.length
    await nav.getByRole('link', { name: 'Sign In' }).click()
    await page.getByRole('heading', { name: 'Sign in to your vault' }).waitFor()
    // The page came with the hover: the click downloads nothing of it again.
    expect(await anyContains(scripts.slice(fetched), 'Sign in to your vault')).toBe(false)
    await context.close()
  })

  it('fetches an app area\'s chunk when its navigation link is hovered, before the click', async () => {
    const { context, page } = await newPage(browser)
    const scripts = recordScripts(page)
    await registerOwner(page, { email: uniqueEmail('split'), password: 'a sound password 1' })
    await page.waitForLoadState('networkidle')
    expect(await anyContains(scripts, APP_MARKERS['vault page'])).toBe(false)

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vault' }).hover()
    await expect.poll(() => anyContains(scripts, APP_MARKERS['vault page'])).toBe(true)
    const fetched = scripts.length
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vault' }).click()
    // (Behind the vault set-up dialog, which opens for an owner without a vault: so not by role.)
    await page.locator('h1', { hasText: 'Secure Vault' }).waitFor()
    expect(await anyContains(scripts.slice(fetched), APP_MARKERS['vault page'])).toBe(false)
    await context.close()
  })
})
