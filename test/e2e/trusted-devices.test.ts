import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, launch, newPage, signInThroughForm, toastText, uniqueEmail } from './browser'

// Trusted devices (issue 0.3 · 5 of 7, item 2): the owner marks this browser as trusted from the
// Signed-in devices list, then sets up a Loss of trusted devices trigger on the Triggers page.

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

describe('trusted devices', () => {
  it('marks this browser as trusted, then creates a Loss of trusted devices trigger', async () => {
    const email = uniqueEmail('trusted')
    const password = 'a sound password 1'
    const registered = await fetch(`${baseUrl()}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, displayName: 'Tess Owner' }),
    })
    expect(registered.status).toBe(201)
    const { page, context } = await newPage(browser)
    await signInThroughForm(page, email, password)
    // Signed in before going on: leaving /login before its answer arrives would leave it signed out.
    await page.waitForURL('**/dashboard')

    await page.goto('/profile')
    await page.getByRole('heading', { name: 'Signed-in devices' }).waitFor()
    const current = page.getByRole('list', { name: 'Your signed-in devices' }).getByRole('listitem').filter({ hasText: 'This device' })
    await current.getByRole('button', { name: 'Mark as trusted: Chrome on Linux' }).click()
    await expect.poll(() => toastText(page)).toContain('The device is now trusted.')
    await current.getByText('Trusted', { exact: true }).waitFor()
    await current.getByRole('button', { name: 'Stop trusting: Chrome on Linux' }).waitFor()

    await page.goto('/triggers')
    await page.getByRole('button', { name: 'Set Up Loss of trusted devices trigger' }).click()
    const create = page.getByRole('dialog', { name: 'Create Trigger' })
    const days = create.getByLabel('Days without a trusted device')
    expect(await days.inputValue()).toBe('30')
    await days.fill('14')
    await create.getByRole('button', { name: 'Create Trigger' }).click()
    await create.waitFor({ state: 'detached' })
    await expect.poll(() => page.getByTestId('trigger-card-device_loss').textContent()).toContain('No trusted device used for 14 days')
    await context.close()
  }, 180_000)
})
