import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seriousViolations } from './axe'
import { executeSql, launch, newPage, registerOwner, signInThroughForm, toastText, uniqueEmail, mirrorAccount } from './browser'

// Subscribing, the account page, cancelling and deleting, on a server without billing
// (seeds 000 §2 Subscribe / Pricing / Account, §4, §5, §8); the retired /checkout and a payment
// issue's pages without billing (0.2 · 7 of 7).

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

async function openAccount(page: Page) {
  await page.goto('/account')
  await page.getByRole('heading', { name: 'Account & Billing' }).waitFor()
  await page.getByTestId('plan-name').waitFor()
}

describe('billing', () => {
  it('a guest subscribes with a free-subscription code, registers and lands on Premium, Trialing', async () => {
    const code = `FREE${Date.now().toString(36).toUpperCase()}`
    executeSql(
      `insert into promo_codes (id, code, description, type, value, max_uses, used_count, valid_until, is_active, created_at)
       values ('promo-${code}', '${code}', 'e2e free month', 'free_subscription', 30, 5, 0, null, 1, ${Date.now()})`,
    )
    const { context, page } = await newPage(browser)
    const email = uniqueEmail('guest')
    const password = 'a sound password 1'
    await page.goto('/subscribe?plan=premium')
    await page.getByRole('heading', { name: 'Subscribe to Premium' }).waitFor()
    await page.getByTestId('billing-off').waitFor()
    const continueButton = page.getByRole('button', { name: 'Continue to Payment' })
    expect(await continueButton.isDisabled()).toBe(true)
    expect(await page.getByRole('link', { name: 'Back to Pricing' }).getAttribute('href')).toBe('/pricing')

    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Promo code (optional)').pressSequentially(code.toLowerCase())
    expect(await page.getByLabel('Promo code (optional)').inputValue()).toBe(code)
    await continueButton.click()

    await expect.poll(() => toastText(page)).toContain('Free Subscription Activated!')
    const card = page.getByTestId('free-activated')
    await card.waitFor()
    expect(await card.textContent()).toContain(`Code applied: ${code}`)
    expect(await card.textContent()).toContain('Trial period: 30 days')
    expect(await page.getByTestId('invoice-summary').textContent()).toContain('Amount Due Today$0.00')
    const pending = JSON.parse((await page.evaluate(() => localStorage.getItem('pending_subscription'))) ?? 'null')
    expect(pending).toMatchObject({ email, plan: 'premium' })

    // About 2 s later: registration, prefilled, with the banner.
    await page.waitForURL('**/register')
    await page.getByText('Free subscription activated', { exact: true }).waitFor()
    expect(await page.getByLabel('Email').inputValue()).toBe(email)
    await page.getByLabel('Display name').fill('Guest Owner')
    await page.getByLabel('Password', { exact: true }).fill(password)
    await page.getByLabel('Confirm password').fill(password)
    await page.getByRole('checkbox').check()
    await page.getByRole('button', { name: 'Create Account' }).click()
    await page.getByRole('heading', { name: 'Set Up Security' }).waitFor()
    expect(await page.evaluate(() => localStorage.getItem('pending_subscription'))).toBeNull()
    await page.getByRole('button', { name: 'Skip for now (less secure)' }).click()
    await page.waitForURL('**/dashboard')

    await openAccount(page)
    expect(await page.getByTestId('plan-name').textContent()).toBe('Premium')
    expect(await page.getByTestId('plan-status').textContent()).toBe('Trialing')
    expect(await page.getByTestId('plan-amount').textContent()).toBe('Nothing is charged')
    expect(await page.getByRole('button', { name: 'Cancel Subscription' }).count()).toBe(1)
    expect(await page.getByRole('link', { name: 'Change Plan' }).count()).toBe(1)
    await context.close()
  })

  it('refuses an unknown code for a guest with the catalogue messages', async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/subscribe?plan=basic')
    await page.getByLabel('Email').fill(uniqueEmail('guest'))
    await page.getByLabel('Promo code (optional)').fill('NOSUCHCODE')
    await page.getByRole('button', { name: 'Continue to Payment' }).click()
    await expect.poll(() => toastText(page)).toContain('Invalid Promotion Code')
    expect(await toastText(page)).toContain('The promotion code you entered is not valid. Please check and try again.')
    // Still on the guest step, nothing stored.
    await page.getByRole('button', { name: 'Continue to Payment' }).waitFor()
    expect(await page.evaluate(() => localStorage.getItem('pending_subscription'))).toBeNull()
    await context.close()
  })

  it('a signed-in owner subscribes to Enterprise from /pricing, then cancels', async () => {
    const { context, page } = await newPage(browser)
    await registerOwner(page, { email: uniqueEmail('enterprise'), password: 'a sound password 1' })
    await page.goto('/pricing')
    await page.getByTestId('billing-off').waitFor()
    await page.getByRole('link', { name: 'Back to Dashboard' }).waitFor()
    await page.getByRole('link', { name: /Subscribe to Enterprise/ }).click()
    await expect.poll(() => toastText(page)).toContain('Subscription Successful')
    expect(await toastText(page)).toContain('Welcome to Enterprise!')
    await page.waitForURL('**/dashboard')

    await openAccount(page)
    expect(await page.getByTestId('plan-name').textContent()).toBe('Enterprise')
    expect(await page.getByTestId('plan-status').textContent()).toBe('Active')
    // Billing is off: nothing is charged, so no price and no billing date, but when the plan renews.
    expect(await page.getByTestId('plan-amount').textContent()).toBe('Nothing is charged')
    expect(await page.getByText('$99.99/month').count()).toBe(0)
    expect(await page.getByText('Next billing date').count()).toBe(0)
    expect(await page.getByText('Renews on').count()).toBe(1)
    expect(await page.getByTestId('next-billing').textContent()).toMatch(/\d{4}/)
    // Enterprise and active: nothing to upgrade to.
    expect(await page.getByRole('link', { name: 'Upgrade Plan' }).count()).toBe(0)
    expect(await page.getByRole('link', { name: 'Change Plan' }).count()).toBe(0)
    expect(await page.getByText('This server takes no payments, so no invoices are issued.').count()).toBe(1)

    await page.getByRole('button', { name: 'Cancel Subscription' }).click()
    const dialog = page.getByRole('alertdialog')
    await dialog.getByRole('button', { name: 'Cancel Subscription' }).click()
    await expect.poll(() => toastText(page)).toContain('Subscription Cancelled')
    expect(await toastText(page)).toContain('Your subscription will end at the current billing period.')
    await page.getByTestId('cancel-notice').waitFor()
    expect(await page.getByText('Ends on').count()).toBe(1)
    expect(await page.getByRole('button', { name: 'Cancel Subscription' }).count()).toBe(0)
    // Changed their mind: the same subscription goes on.
    await page.getByRole('button', { name: 'Keep my subscription' }).click()
    await expect.poll(() => toastText(page)).toContain('Subscription Kept')
    await page.getByText('Renews on').waitFor()
    expect(await page.getByTestId('cancel-notice').count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Cancel Subscription' }).count()).toBe(1)
    await context.close()
  })

  it('the no-billing paths: /checkout leads to /subscribe, nothing to pay on /account, the plan changed and cancelled', async () => {
    // The retired /checkout: to /subscribe for its plan (Premium unless a valid one is named), where
    // this server says it takes no payments, and no entry for /checkout in the history.
    const guest = await newPage(browser)
    await guest.page.goto('/pricing')
    await guest.page.goto('/checkout')
    await guest.page.waitForURL((url) => url.pathname === '/subscribe')
    expect(new URL(guest.page.url()).search).toBe('?plan=premium')
    await guest.page.getByRole('heading', { name: 'Subscribe to Premium' }).waitFor()
    await guest.page.getByTestId('billing-off').waitFor()
    await guest.page.goBack()
    await guest.page.waitForURL((url) => url.pathname === '/pricing')
    const redirects: Array<[string, string]> = [
      ['/checkout?plan=basic', 'basic'],
      ['/checkout?plan=admin', 'premium'],
      ['/checkout?amount=1', 'premium'],
    ]
    for (const [from, plan] of redirects) {
      await guest.page.goto(from)
      await guest.page.waitForURL((url) => url.pathname === '/subscribe')
      expect(new URL(guest.page.url()).searchParams.get('plan'), from).toBe(plan)
    }
    await guest.context.close()

    const { context, page } = await newPage(browser)
    const errors: string[] = []
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())))
    const invoiceCalls: string[] = []
    page.on('request', (r) => void (r.url().includes('/api/account/invoices') && invoiceCalls.push(r.url())))
    await registerOwner(page, { email: uniqueEmail('nobilling'), password: 'a sound password 1' })
    await openAccount(page)
    expect(await page.getByTestId('plan-name').textContent()).toBe('Basic')
    // Nothing to pay, nothing to change, and the page says why.
    expect(await page.getByTestId('payment-issue').count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Update payment method' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(0)
    expect(await page.getByRole('link', { name: 'Open invoice' }).count()).toBe(0)
    expect(await page.getByTestId('billing-off').count()).toBeGreaterThan(0)
    await page.getByText('This server takes no payments, so no invoices are issued.').waitFor()
    expect(await page.getByRole('button', { name: 'Show more invoices' }).count()).toBe(0)
    expect(await seriousViolations(page, '/account (no billing)')).toEqual([])

    // Change plan: /pricing, another plan, granted at once.
    await page.getByRole('link', { name: 'Change Plan' }).click()
    await page.waitForURL('**/pricing')
    await page.getByRole('link', { name: /Subscribe to Premium/ }).click()
    await page.waitForURL((url) => url.pathname === '/subscribe' && url.searchParams.get('plan') === 'premium')
    await expect.poll(() => toastText(page)).toContain('Welcome to Premium!')
    await page.waitForURL('**/dashboard')
    await openAccount(page)
    expect(await page.getByTestId('plan-name').textContent()).toBe('Premium')
    expect(await page.getByTestId('plan-status').textContent()).toBe('Active')

    // And cancel it.
    await page.getByRole('button', { name: 'Cancel Subscription' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel Subscription' }).click()
    await expect.poll(() => toastText(page)).toContain('Subscription Cancelled')
    await page.getByTestId('cancel-notice').waitFor()
    expect(await page.getByText('Ends on').count()).toBe(1)

    // A server that issues no invoices is not asked for them.
    expect(invoiceCalls).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  it('a past-due owner: the banner across the app, the payment panel on /account, and /subscribe leading to the fix', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 })
    const errors: string[] = []
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())))
    const subscribeCalls: string[] = []
    page.on('request', (r) => void (r.url().includes('/api/create-subscription') && subscribeCalls.push(r.url())))
    const email = uniqueEmail('pastdue')
    await registerOwner(page, { email, password: 'a sound password 1' })
    // A renewal that failed (a state only a billing provider's webhook reaches), a week of grace left.
    const graceUntil = Date.UTC(2099, 10, 8, 12)
    executeSql(`update users set subscription_status = 'past_due', payment_grace_until = ${graceUntil} where email = '${email}'`)
    await mirrorAccount(email)

    await page.goto('/dashboard')
    const banner = page.getByTestId('payment-issue-banner')
    await banner.waitFor()
    expect(await banner.getAttribute('role')).toBe('status')
    expect(await banner.textContent()).toContain('Your last subscription payment did not go through.')
    expect(await banner.textContent()).toContain('Your vault stays fully usable during the grace period.')
    expect(await seriousViolations(page, '/dashboard with the payment banner (phone)')).toEqual([])
    await page.goto('/settings')
    await banner.waitFor()

    await banner.getByRole('link', { name: 'Fix payment' }).click()
    await page.waitForURL('**/account')
    const panel = page.getByTestId('payment-issue')
    await panel.waitFor()
    // The panel says it all here: no banner on /account.
    expect(await page.getByTestId('payment-issue-banner').count()).toBe(0)
    expect(await panel.getByRole('heading', { name: 'Payment issue' }).count()).toBe(1)
    expect(await panel.textContent()).toContain('Your vault stays fully usable until November 8, 2099.')
    expect(await page.getByTestId('plan-status').textContent()).toBe('Payment due')
    // Without billing there is no card to change and no invoice to pay.
    expect(await page.getByRole('button', { name: 'Update payment method' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(0)
    expect(await seriousViolations(page, '/account with the payment panel (phone)')).toEqual([])

    // /subscribe: the payment first, no card form, and nothing created.
    await page.goto('/subscribe?plan=enterprise')
    const first = page.getByTestId('payment-due-first')
    await first.waitFor()
    expect(await first.textContent()).toContain('Your last subscription payment did not go through')
    await first.getByRole('link', { name: 'Go to Account & Billing' }).waitFor()
    expect(await seriousViolations(page, '/subscribe with a payment to fix (phone)')).toEqual([])
    expect(subscribeCalls).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  it('deletes the account from /account after 7 days: signed out at once, and signing in shows the date and keeps it', async () => {
    const { context, page } = await newPage(browser)
    const email = uniqueEmail('delete')
    const password = 'a sound password 1'
    await registerOwner(page, { email, password })
    await openAccount(page)
    await page.getByRole('button', { name: 'Delete Account' }).click()
    const dialog = page.getByRole('alertdialog')
    expect(await dialog.textContent()).toContain('deleted permanently in 7 days')
    await dialog.getByRole('button', { name: 'Delete Account' }).click()
    await dialog.getByText('Type DELETE in capitals to confirm.').waitFor()
    await dialog.getByLabel('Type DELETE to confirm').fill('DELETE')
    await dialog.getByRole('button', { name: 'Delete Account' }).click()
    await expect.poll(() => toastText(page)).toContain('Account Set to Be Deleted')
    expect(await toastText(page)).toContain('sign in before then to keep it')
    await page.waitForURL((url) => url.pathname === '/')
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull()

    // Signing in again shows when, on every page, and keeps the account in one click.
    await signInThroughForm(page, email, password)
    await page.waitForURL('**/dashboard')
    const banner = page.getByTestId('deletion-banner')
    expect(await banner.textContent()).toMatch(/Your account will be deleted on \w+ \d+, \d{4}/)
    expect(await seriousViolations(page, 'the dashboard of an account set to be deleted')).toEqual([])
    await banner.getByRole('button', { name: 'Keep my account' }).click()
    await expect.poll(() => toastText(page)).toContain('Account kept')
    await expect.poll(() => banner.count()).toBe(0)
    await context.close()
  })
})
