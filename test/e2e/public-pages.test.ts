import type { Browser } from 'playwright-core'
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
})
