import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH_ERRORS } from '../../contract/messages'
import { baseUrl, executeSql, launch, newPage, runScript, toastText, uniqueEmail } from './browser'

// The back office (seeds 001 §2 'Admin dashboard', §4, §5, §6): an admin finds an owner, pauses
// and resumes them, refunds them, and manages a promo code.

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
}

const statValue = (page: Page, title: string) => page.getByTestId('admin-stat').filter({ hasText: title }).locator('p').first().textContent()

/** Opens a user's row menu and picks `action` (Pause, Resume, Extend, Refund, Delete). */
async function rowAction(page: Page, email: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${email}` }).click()
  await page.getByRole('menuitem', { name: action }).click()
}

const recentActions = (page: Page) => page.getByRole('region', { name: 'Recent admin actions' })

describe('admin dashboard', () => {
  it('finds an owner, pauses and resumes them, refunds them, and creates and deletes a promo code', async () => {
    const ownerEmail = uniqueEmail('admin-target')
    const ownerPassword = 'a sound password 1'
    // The owner is seeded through the API: their registration page is not what this test is about.
    const registered = await fetch(`${baseUrl()}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ownerEmail, password: ownerPassword, displayName: 'Target Owner' }),
    })
    expect(registered.status).toBe(201)

    const adminEmail = uniqueEmail('admin')
    expect(runScript('admin:create', [adminEmail, 'an admin password 1'])).toContain('Admin account ready')

    const { context, page } = await newPage(browser, { width: 1280, height: 900 })
    // This server runs without billing; here its config is answered as a server with Stripe would,
    // so the Refund dialog (offered only then) can be walked. The phone test sees it absent.
    await page.route('**/api/billing/config', (route) => route.fulfill({ json: { billingEnabled: true, publishableKey: 'pk_test_e2e' } }))
    await page.goto('/admin')
    await page.getByRole('heading', { name: 'Admin sign in' }).waitFor()
    await signIn(page, adminEmail, 'an admin password 1')
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor()

    // The figures: at least the owner and the admin.
    await expect.poll(async () => Number((await statValue(page, 'Total Users'))?.replace(/,/g, '') ?? NaN)).toBeGreaterThanOrEqual(2)
    expect(await statValue(page, 'Monthly Revenue')).toMatch(/^\$\d[\d,]*\.\d\d$/)
    expect(await statValue(page, 'Storage Used')).toMatch(/^\d+(\.\d)? (bytes|KB|MB|GB)$/)

    // Search (on the server, by the start of the address, any case).
    await page.getByLabel('Search users').fill(ownerEmail.toUpperCase())
    const rows = page.getByTestId('admin-user-row')
    await expect.poll(() => rows.count()).toBe(1)
    const row = rows.filter({ hasText: ownerEmail })
    await row.waitFor()

    // Pause: a reason is required.
    await rowAction(page, ownerEmail, 'Pause')
    const pauseDialog = page.getByRole('dialog', { name: 'Pause account' })
    await pauseDialog.getByRole('button', { name: 'Pause Account' }).click()
    await expect.poll(() => pauseDialog.getByRole('alert').textContent()).toBe('A reason is required')
    await pauseDialog.getByLabel('Reason').fill('Chargeback under review')
    await pauseDialog.getByRole('button', { name: 'Pause Account' }).click()
    await expect.poll(() => toastText(page)).toContain('Account paused')
    await expect.poll(() => row.getByTestId('user-status').textContent()).toBe('paused')
    // The trail shows it without a reload.
    const mine = recentActions(page).getByRole('listitem').filter({ hasText: adminEmail })
    await expect.poll(() => mine.first().textContent(), { timeout: 10_000 }).toContain('Account paused')

    // The paused owner cannot sign in.
    {
      const owner = await newPage(browser)
      await owner.page.goto('/login')
      await signIn(owner.page, ownerEmail, ownerPassword)
      await expect.poll(() => toastText(owner.page)).toContain(AUTH_ERRORS.accountPaused)
      expect(new URL(owner.page.url()).pathname).toBe('/login')
      await owner.context.close()
    }

    // Resume.
    await rowAction(page, ownerEmail, 'Resume')
    await expect.poll(() => toastText(page)).toContain('Account resumed')
    await expect.poll(() => row.getByTestId('user-status').textContent()).toBe('active')
    await expect.poll(() => mine.first().textContent(), { timeout: 10_000 }).toContain('Account resumed')

    // Refund $12.34 in dollars, after a confirmation with email, plan and MB used.
    await rowAction(page, ownerEmail, 'Refund')
    const refundDialog = page.getByRole('dialog', { name: /refund/i })
    await refundDialog.getByLabel('Amount (USD)').fill('0')
    await refundDialog.getByLabel('Reason').fill('Goodwill')
    await refundDialog.getByRole('button', { name: 'Review Refund' }).click()
    await expect.poll(() => refundDialog.getByRole('alert').first().textContent()).toBe('Amount must be more than 0')
    await refundDialog.getByLabel('Amount (USD)').fill('12.34')
    await refundDialog.getByRole('button', { name: 'Review Refund' }).click()
    const confirmation = refundDialog.getByTestId('refund-confirmation')
    await confirmation.waitFor()
    expect(await confirmation.textContent()).toContain(ownerEmail)
    expect(await confirmation.textContent()).toMatch(/Storage used\d+(\.\d)? (bytes|KB|MB|GB)/)
    expect(await confirmation.textContent()).toContain('$12.34')
    await refundDialog.getByRole('button', { name: 'Issue Refund' }).click()
    await expect.poll(() => toastText(page)).toContain('Refund issued')

    await page.getByRole('tab', { name: 'Refunds' }).click()
    const refundRow = page.getByTestId('admin-refund-row').filter({ hasText: ownerEmail })
    await refundRow.waitFor()
    expect(await refundRow.textContent()).toContain('$12.34')
    expect(await refundRow.textContent()).toContain('Goodwill')

    // Promo code: upper-cased as typed, created, then deleted after confirmation.
    await page.getByRole('tab', { name: 'Promo Codes' }).click()
    const form = page.getByRole('form', { name: 'Create promo code' })
    const create = form.getByRole('button', { name: 'Create Promo Code' })
    expect(await create.isDisabled()).toBe(true)
    const code = `e2e${Date.now().toString(36)}`
    await form.getByLabel('Code', { exact: true }).fill(code)
    expect(await form.getByLabel('Code', { exact: true }).inputValue()).toBe(code.toUpperCase())
    await form.getByLabel('Description', { exact: true }).fill('End-to-end test code')
    await form.getByLabel('Value', { exact: true }).fill('25')
    await create.click()
    await expect.poll(() => toastText(page)).toContain('Promo code created')
    await expect.poll(() => mine.first().textContent(), { timeout: 10_000 }).toContain('Promo code created')
    const promoRow = page.getByTestId('admin-promo-row').filter({ hasText: code.toUpperCase() })
    await promoRow.waitFor()
    expect(await promoRow.textContent()).toContain('25%')
    expect(await promoRow.textContent()).toContain('0/100')

    await promoRow.getByRole('button', { name: `Delete ${code.toUpperCase()}` }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Delete promo code' })
    expect(await confirm.textContent()).toContain('cannot be undone')
    await confirm.getByRole('button', { name: 'Delete Code' }).click()
    await expect.poll(() => toastText(page)).toContain('Promo code deleted')
    await expect.poll(() => promoRow.count()).toBe(0)
    await expect.poll(() => mine.first().textContent(), { timeout: 10_000 }).toContain('Promo code deleted')

    // Analytics: real charts, with their data tables.
    await page.getByRole('tab', { name: 'Analytics' }).click()
    await expect.poll(() => page.getByTestId('admin-chart').count()).toBe(3)
    await context.close()
  }, 180_000)

  it('on a phone: signing in at /login lands on /admin; one-line header, every tab reachable, tables scroll in their card, one type scale, no refund or delete on an admin', async () => {
    const adminEmail = uniqueEmail('admin-phone')
    expect(runScript('admin:create', [adminEmail, 'an admin password 1'])).toContain('Admin account ready')
    const { context, page } = await newPage(browser, { width: 390, height: 844 })
    await page.goto('/login')
    await signIn(page, adminEmail, 'an admin password 1')
    await page.waitForURL('**/admin')
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor()
    expect((await page.getByTestId('admin-header').boundingBox())!.height).toBeLessThanOrEqual(64)
    // The title whole: not cut, inside the screen.
    const title = await page.getByRole('heading', { name: 'Admin Dashboard' }).evaluate((h) => ({ cut: h.scrollWidth > h.clientWidth, right: h.getBoundingClientRect().right }))
    expect(title.cut).toBe(false)
    expect(title.right).toBeLessThanOrEqual(390)
    // Every section's tab in view, none hidden past the edge.
    for (const name of ['Users', 'Promo Codes', 'Refunds', 'Analytics']) {
      const box = (await page.getByRole('tab', { name }).boundingBox())!
      expect(box.x, name).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width, name).toBeLessThanOrEqual(390)
    }

    // Every list has rows (a table, not its empty state), whatever other tests left behind: a
    // promo code made here on the phone; the owner signing up adds a user; the refund list is
    // checked only if it has rows.
    await page.getByRole('tab', { name: 'Promo Codes' }).click()
    const form = page.getByRole('form', { name: 'Create promo code' })
    const code = `phone${Date.now().toString(36)}`
    await form.getByLabel('Code', { exact: true }).fill(code)
    await form.getByLabel('Description', { exact: true }).fill('Phone test code')
    await form.getByLabel('Value', { exact: true }).fill('10')
    await form.getByRole('button', { name: 'Create Promo Code' }).click()
    await page.getByTestId('admin-promo-row').filter({ hasText: code.toUpperCase() }).waitFor()

    for (const name of ['Promo Codes', 'Refunds', 'Analytics', 'Users']) {
      const tab = page.getByRole('tab', { name })
      await tab.click()
      await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true')
      // The page itself never scrolls sideways: wide tables scroll inside their card. Read once the
      // tab's content has settled (a busy machine may measure a frame mid-render), so a lasting
      // overflow fails and a slow first frame does not.
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 10_000 }).toBeLessThanOrEqual(390)
      if (name === 'Analytics') {
        await page.getByTestId('admin-chart').first().waitFor()
        const sizes = await page.$$eval('[data-testid="admin-chart"] text', (texts) => [...new Set(texts.map((t) => getComputedStyle(t).fontSize))])
        expect(sizes.every((size) => ['11px', '12px'].includes(size))).toBe(true)
      }
    }

    // An administrator's own row offers nothing to refund or delete.
    await page.getByLabel('Search users').fill(adminEmail)
    const own = page.getByTestId('admin-user-row').filter({ hasText: adminEmail })
    await own.getByText('Administrator account', { exact: true }).waitFor()
    expect(await own.getByRole('button', { name: `Actions for ${adminEmail}` }).count()).toBe(0)

    // Many accounts: the server's search, a page of 50, Load more for the rest.
    const tag = `phone-page-${Date.now().toString(36)}`
    executeSql(`with recursive n(i) as (select 1 union all select i + 1 from n where i < 55)
      insert into users (id, email, password_hash, display_name, created_at, updated_at)
      select printf('%08x-0000-4000-8000-%012d', abs(random()) % 4294967295, i), '${tag}-' || printf('%02d', i) || '@example.com', 'x', 'Paged Person', ${Date.now()} + i, ${Date.now()} + i from n`)
    await page.getByLabel('Search users').fill(tag)
    const rows = page.getByTestId('admin-user-row')
    await expect.poll(() => rows.count()).toBe(50)
    expect(await page.getByTestId('admin-users-shown').textContent()).toBe('Showing the first 50 matching users')
    await page.getByRole('button', { name: 'Load more' }).click()
    await expect.poll(() => rows.count()).toBe(55)
    expect(await page.getByTestId('admin-users-shown').textContent()).toBe('55 matching users')
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0)

    // A row's actions stay in view while the table is wider than the phone, and without billing
    // there is no Refund.
    const last = `${tag}-55@example.com`
    const actions = page.getByRole('button', { name: `Actions for ${last}` })
    await actions.scrollIntoViewIfNeeded()
    const box = (await actions.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(390)
    await actions.click()
    const menu = page.getByRole('menu')
    await menu.waitFor()
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Pause', 'Extend', 'Delete'].map((a) => expect.stringContaining(a)))
    await page.keyboard.press('Escape')
    await menu.waitFor({ state: 'detached' })

    // From the signed-in shell, the account menu leads back to the back office.
    await page.goto('/profile')
    await page.getByRole('button', { name: 'Account menu' }).click()
    await page.getByRole('menuitem', { name: 'Back office' }).click()
    await page.waitForURL('**/admin')
    await context.close()
  }, 180_000)
})
