import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { executeSql, launch, newPage, registerOwner, toastText, uniqueEmail } from './browser'

// Subscribing, the account page, cancelling and deleting, on a server without billing
// (seeds 000 §2 Subscribe / Checkout / Pricing / Account, §4, §5, §8).

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
    expect(await page.getByText('$29.99/month').count()).toBe(1)
    expect(await page.getByRole('button', { name: 'Cancel Subscription' }).count()).toBe(1)
    expect(await page.getByRole('link', { name: 'Upgrade Plan' }).count()).toBe(1)
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
    expect(await page.getByText('$99.99/month').count()).toBe(1)
    // Enterprise and active: nothing to upgrade to.
    expect(await page.getByRole('link', { name: 'Upgrade Plan' }).count()).toBe(0)
    expect(await page.getByText('No invoices yet.').count()).toBe(1)

    await page.getByRole('button', { name: 'Cancel Subscription' }).click()
    const dialog = page.getByRole('alertdialog')
    await dialog.getByRole('button', { name: 'Cancel Subscription' }).click()
    await expect.poll(() => toastText(page)).toContain('Subscription Cancelled')
    expect(await toastText(page)).toContain('Your subscription will end at the current billing period.')
    await page.getByTestId('cancel-notice').waitFor()
    expect(await page.getByTestId('next-billing').textContent()).toBe('Cancelled')
    expect(await page.getByRole('button', { name: 'Cancel Subscription' }).count()).toBe(0)

    // Checkout on this server: says why there is no card form.
    await page.goto('/checkout')
    await page.getByText('Unable to initialize payment processing.').waitFor()
    await page.getByTestId('billing-off').waitFor()
    await page.getByRole('link', { name: 'Back to Pricing' }).waitFor()
    await context.close()
  })

  it('deletes the account from /account: back home, and the old password no longer signs in', async () => {
    const { context, page } = await newPage(browser)
    const email = uniqueEmail('delete')
    const password = 'a sound password 1'
    await registerOwner(page, { email, password })
    await openAccount(page)
    await page.getByRole('button', { name: 'Delete Account' }).click()
    const dialog = page.getByRole('alertdialog')
    expect(await dialog.textContent()).toContain('cannot be undone')
    await dialog.getByRole('button', { name: 'Delete Account' }).click()
    await dialog.getByText('Type DELETE in capitals to confirm.').waitFor()
    await dialog.getByLabel('Type DELETE to confirm').fill('DELETE')
    await dialog.getByRole('button', { name: 'Delete Account' }).click()
    await expect.poll(() => toastText(page)).toContain('Account Deleted')
    expect(await toastText(page)).toContain('Your account has been permanently deleted.')
    await page.waitForURL((url) => url.pathname === '/')
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull()

    await page.goto('/login')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill(password)
    await page.getByRole('button', { name: 'Sign In' }).click()
    await expect.poll(() => toastText(page)).toContain('Sign-in failed')
    expect(new URL(page.url()).pathname).toBe('/login')
    await context.close()
  })
})
