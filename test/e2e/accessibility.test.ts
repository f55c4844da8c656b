import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { moderateViolations } from './axe'
import { addBeneficiaryThroughUi, baseUrl, executeSql, launch, registerOwner, runScript, uniqueEmail } from './browser'

// The accessibility layer: axe-core on every route and every dialog, signed out and in, as an
// owner and as an administrator, at a desktop and a phone size. Any moderate, serious or critical violation
// fails the test, listed with the page and the elements at fault.

const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const
const PASSPHRASE = 'Meadow-Lantern-19-Quarry'

/** Pages anyone can open, and the pages opened from e-mailed links (here without a token). */
const PUBLIC_ROUTES = [
  '/',
  '/how-it-works',
  '/pricing',
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password?token=not-a-real-reset-token',
  '/terms',
  '/privacy',
  '/public-terms',
  '/public-privacy',
  '/subscribe',
  '/payment-success',
  '/email-preview',
  '/verify-beneficiary',
  '/verify-approver',
  '/beneficiary-opt-in',
  '/unsubscribe',
  '/beneficiary-portal',
  '/check-in',
  '/cancel-release',
  '/not-me',
  '/approve-release',
  '/approve-renewal',
  '/confirm-death',
  '/review-identity',
  '/confirm-email',
  '/verify-backup-email',
  '/no-such-page',
  // The API reference, served by the worker.
  '/api/docs',
]

const OWNER_ROUTES = ['/dashboard', '/vault', '/beneficiaries', '/protocols', '/identity-verification', '/triggers', '/audit', '/profile', '/settings', '/account', '/pricing']

/** Buttons on a page that open a dialog: each dialog is checked open. */
const DIALOGS: Record<string, string[]> = {
  '/vault': ['Add Item', 'Unlock Vault'],
  '/beneficiaries': ['Add Beneficiary', 'Add Approver'],
  '/protocols': ['Create Policy'],
  '/triggers': ['Set Up Manual Release trigger'],
}

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

const violations = moderateViolations

/** A page at a size, with the product's own headers (its CSP included). */
async function pageAt(size: (typeof SIZES)[number]) {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: size.width, height: size.height } })
  return { context, page: await context.newPage() }
}

async function settle(page: Page) {
  await page.locator('h1').first().waitFor({ timeout: 15_000 }).catch(() => undefined)
}

describe('accessibility (axe-core): no moderate, serious or critical violation', () => {
  for (const size of SIZES) {
    it(`on every public page and link page, signed out (${size.name})`, async () => {
      const { context, page } = await pageAt(size)
      const found: string[] = []
      for (const route of PUBLIC_ROUTES) {
        await page.goto(route)
        await settle(page)
        found.push(...(await violations(page, `${route} (${size.name})`)))
      }
      await context.close()
      expect(found).toEqual([])
    }, 240_000)

    it(`on every owner page and dialog, signed in (${size.name})`, async () => {
      const { context, page } = await pageAt(size)
      await registerOwner(page, { email: uniqueEmail(`a11y-${size.name}`), password: 'a sound password 1', passphrase: PASSPHRASE })
      // A beneficiary, so that the dialogs of a row can be opened too.
      await addBeneficiaryThroughUi(page, { fullName: 'Ada Heir' })
      const found: string[] = []
      // Add Item, while the vault is still unlocked (the page loads below lock it): reached in-app.
      const vaultLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vault' })
      if (await vaultLink.isVisible()) await vaultLink.click()
      else {
        await page.getByRole('button', { name: 'Open navigation' }).click()
        await page.getByRole('menuitem', { name: 'Vault' }).click()
      }
      await page.getByRole('button', { name: 'Upload First Item' }).click()
      const addItem = page.getByRole('dialog', { name: 'Add Item' })
      await addItem.waitFor()
      found.push(...(await violations(page, `/vault › Add Item dialog (${size.name})`)))
      await page.keyboard.press('Escape')
      await addItem.waitFor({ state: 'detached' })
      for (const route of OWNER_ROUTES) {
        await page.goto(route)
        await settle(page)
        found.push(...(await violations(page, `${route} (${size.name})`)))
        // A dialog the page opens on arrival (the vault's unlock prompt) was just checked with it.
        const arrived = page.getByRole('dialog')
        if (await arrived.isVisible()) {
          await page.keyboard.press('Escape')
          await arrived.waitFor({ state: 'detached' }).catch(() => undefined)
        }
        for (const opener of DIALOGS[route] ?? []) {
          const button = page.getByRole('button', { name: opener, exact: true }).first()
          await button.waitFor({ timeout: 10_000 }).catch(() => found.push(`${route}: no "${opener}" button to open its dialog`))
          if (!(await button.isVisible())) continue
          await button.click()
          const dialog = page.getByRole('dialog').or(page.getByRole('alertdialog')).first()
          await dialog.waitFor()
          found.push(...(await violations(page, `${route} › ${opener} dialog (${size.name})`)))
          await page.keyboard.press('Escape')
          await dialog.waitFor({ state: 'detached' }).catch(() => undefined)
        }
      }
      // A beneficiary's own dialogs, from the row's menu.
      await page.goto('/beneficiaries')
      await settle(page)
      for (const item of ['Edit Details', 'Upload ID Document', 'Replace key (lost kit)', 'Delete']) {
        await page.getByRole('button', { name: 'Actions for Ada Heir' }).click()
        await page.getByRole('menuitem', { name: item }).click()
        const dialog = page.getByRole('dialog').or(page.getByRole('alertdialog')).first()
        await dialog.waitFor()
        found.push(...(await violations(page, `/beneficiaries › ${item} (${size.name})`)))
        await page.keyboard.press('Escape')
        await dialog.waitFor({ state: 'detached' }).catch(() => undefined)
      }
      // The account menu, open (in the signed-in shell; /pricing, last above, is a public page).
      await page.goto('/dashboard')
      await settle(page)
      await page.getByRole('button', { name: 'Account menu' }).click()
      await page.getByRole('menu').waitFor()
      found.push(...(await violations(page, `account menu (${size.name})`)))
      await context.close()
      expect(found).toEqual([])
    }, 240_000)

    it(`on every tab of the back office (${size.name})`, async () => {
      const email = uniqueEmail(`a11y-admin-${size.name}`)
      runScript('admin:create', [email, 'an admin password 1'])
      const { context, page } = await pageAt(size)
      await page.goto('/login')
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password', { exact: true }).fill('an admin password 1')
      await page.getByRole('button', { name: 'Sign In' }).click()
      await page.waitForURL('**/admin')
      await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor()
      const found: string[] = []
      for (const tab of ['Users', 'Promo Codes', 'Refunds', 'Analytics']) {
        await page.getByRole('tab', { name: tab }).click()
        found.push(...(await violations(page, `/admin › ${tab} (${size.name})`)))
      }
      // The dialogs of an owner's row.
      await page.getByRole('tab', { name: 'Users' }).click()
      // An owner of its own (an account row is enough for the menu and its dialogs).
      const owner = uniqueEmail(`a11y-owner-${size.name}`)
      executeSql(`insert into users (id, email, password_hash, display_name, plan_tier, subscription_status, created_at, updated_at)
        values ('${crypto.randomUUID()}', '${owner}', 'x', 'Accessible Owner', 'basic', 'active', ${Date.now()}, ${Date.now()})`)
      await page.getByLabel('Search users').fill(owner)
      const rowActions = page.getByRole('button', { name: `Actions for ${owner}` })
      await rowActions.click()
      await page.getByRole('menu').waitFor()
      found.push(...(await violations(page, `/admin › a user's actions menu (${size.name})`)))
      await page.keyboard.press('Escape')
      // Without billing there is no Refund (test/e2e/admin.test.ts).
      for (const action of ['Pause', 'Extend', 'Delete']) {
        await rowActions.click()
        await page.getByRole('menuitem', { name: action }).click()
        const dialog = page.getByRole('dialog').or(page.getByRole('alertdialog')).first()
        await dialog.waitFor()
        found.push(...(await violations(page, `/admin › ${action} dialog (${size.name})`)))
        await page.keyboard.press('Escape')
        await dialog.waitFor({ state: 'detached' }).catch(() => undefined)
      }
      await context.close()
      expect(found).toEqual([])
    }, 240_000)
  }
})
