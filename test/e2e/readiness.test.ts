import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest'
import { addBeneficiaryThroughUi, launch, newPage, registerOwner, uniqueEmail } from './browser'

// Release readiness in the browser (issue 0.2 · 2 of 7): an item uploaded with the default
// protocol and no trigger to serve it is shown as stuck on the dashboard and in the vault list,
// and the offered link fixes it. From 0.3 · 1 of 7, a new account is never 'Protected': the
// dashboard names the first thing missing.

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })
const STUCK = 'An item set to Verified Death waits for a Verified Death trigger, and you have none.'

function logOnFailure(page: Page) {
  const logs: string[] = []
  page.on('console', (msg) => logs.push(`${msg.type()}: ${msg.text()}`))
  onTestFailed(() => console.error(`page log:\n${logs.join('\n')}`))
}

async function nav(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click()
}

describe('release readiness', () => {
  it('says a new account is not protected yet, then shows an item no trigger serves on the dashboard and in the vault, and the offered link fixes it', async () => {
    const { context, page } = await newPage(browser)
    logOnFailure(page)
    await registerOwner(page, { email: uniqueEmail('ready-owner'), password: 'a sound password 1', passphrase: 'Lantern-Orchard-73-Quay' })
    // Nothing chosen yet: nothing is protected, and the dashboard says the first thing missing.
    const title = page.locator('#dashboard-title')
    await poll(() => title.textContent()).toBe('Not protected yet: add a beneficiary')
    expect(await page.getByText('Your Digital Legacy is Protected').count()).toBe(0)
    const planRowText = () => page.getByTestId('status-row').filter({ hasText: 'Release plan' }).textContent()
    // The row counts the lines the panel lists.
    expect(await planRowText()).toContain(`${await page.getByTestId('readiness-problem').count()} problem`)
    await page.getByRole('link', { name: 'Add a beneficiary' }).first().click()
    await page.waitForURL('**/beneficiaries')

    await addBeneficiaryThroughUi(page, { fullName: 'Ben Heir', email: uniqueEmail('ready-heir') })
    // In the app (a reload would lock the vault the upload below needs).
    await page.getByRole('link', { name: 'Legacy Vault dashboard' }).click()
    await poll(() => title.textContent()).toBe('Not protected yet: add an item to your vault')
    await nav(page, 'Vault')
    await poll(() => page.getByTestId('vault-state').textContent()).toBe('Vault unlocked')
    await page.getByRole('button', { name: 'Upload First Item' }).click()
    const upload = page.getByRole('dialog', { name: 'Add Item' })
    await upload.getByTestId('file-input').setInputFiles([{ name: 'deeds.txt', mimeType: 'text/plain', buffer: Buffer.from('The deeds are with the notary.') }])
    await upload.getByRole('checkbox', { name: /Ben Heir/ }).check()
    // The dialog says, before anything is uploaded, that the default protocol has no trigger.
    await poll(() => upload.getByTestId('protocol-trigger-note').textContent()).toContain('These items wait for a Verified Death trigger, and you have none')
    await upload.getByRole('button', { name: 'Encrypt & Upload', exact: true }).click()
    await upload.waitFor({ state: 'detached', timeout: 30_000 })

    // The vault list marks the item, with the way to fix it.
    // The only item (its name shows only while the vault is unlocked).
    const item = page.getByTestId('vault-item').first()
    await item.filter({ hasText: 'deeds.txt' }).waitFor()
    await poll(() => item.getByTestId('vault-item-problem').textContent()).toContain(STUCK)

    // Still not protected: no trigger would release the item, and the panel says why.
    await page.goto('/dashboard')
    await poll(() => title.textContent()).toBe('Not protected yet: set up a trigger')
    expect(await page.getByText('Your Digital Legacy is Protected').count()).toBe(0)
    const panel = page.getByTestId('readiness-panel')
    await poll(() => panel.textContent()).toContain(STUCK)
    expect(await planRowText()).toContain(`${await panel.getByTestId('readiness-problem').count()} problem`)
    const status = page.getByTestId('status-row').filter({ hasText: 'Inactivity Monitor' })
    expect(await status.textContent()).toContain('Not set up')
    expect(await page.getByTestId('system-summary').textContent()).not.toContain('All systems active')

    // The offered link opens Create Trigger for the right kind; creating it clears the item.
    await panel.getByRole('link', { name: 'Set up a Verified Death trigger' }).click()
    const create = page.getByRole('dialog', { name: 'Create Trigger' })
    await create.waitFor()
    await create.getByRole('button', { name: 'Create Trigger' }).click()
    await create.waitFor({ state: 'detached' })
    await nav(page, 'Vault')
    await item.waitFor()
    await poll(() => item.getByTestId('vault-item-problem').count()).toBe(0)
    await page.goto('/dashboard')
    await poll(() => page.getByTestId('readiness-panel').textContent()).not.toContain(STUCK)
    // The item reaches Ben now; what is left (no approver to report a death) still needs attention.
    await poll(() => title.textContent()).toBe('Your release plan needs attention')

    // A Manual Release trigger: offered by Create Trigger, fired only by hand; the Trigger Monitor's
    // manual test shows its own settings.
    await page.goto('/triggers')
    await page.getByRole('button', { name: 'Set Up Manual Release trigger' }).click()
    const manual = page.getByRole('dialog', { name: 'Create Trigger' })
    await manual.getByRole('button', { name: 'Create Trigger' }).click()
    await manual.waitFor({ state: 'detached' })
    await poll(() => page.getByTestId('trigger-card-manual_release').textContent()).toContain('Fires only when you release by hand')
    await page.getByRole('link', { name: 'Open Trigger Monitor' }).click()
    await page.getByRole('heading', { name: 'Trigger Monitor' }).waitFor()
    const select = page.getByTestId('manual-trigger-select')
    const option = await select.locator('option', { hasText: 'Manual Release' }).getAttribute('value')
    await select.selectOption(option!)
    await poll(() => page.getByTestId('manual-trigger-settings').textContent()).toBe('Fires only when you release by hand')

    // The audit log reads in words: no ids anywhere on the page.
    await page.goto('/audit')
    await page.getByText('Chain Verified').waitFor()
    expect(await page.locator('main').textContent()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i)
    await context.close()
  })
})
