import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launch, newPage, registerOwner, toastText, uniqueEmail } from './browser'

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

describe('account settings', () => {
  it('saves the check-in frequency, with the fixed grace period and the summary', async () => {
    const { context, page } = await newPage(browser)
    await registerOwner(page, { email: uniqueEmail('settings'), password: 'a sound password 1' })
    await page.getByRole('button', { name: 'Account menu' }).click()
    await page.getByRole('menuitem', { name: 'Settings' }).click()
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor()
    // Nothing stored: the clock runs on 7 days (seeds 000 §9), and that is what is selected, not the
    // spec client's form default of 30 with 7 in the summary.
    expect(await page.getByRole('radio', { name: /Weekly \(7 days\)/ }).isChecked()).toBe(true)
    expect(await page.getByRole('radio', { name: /Monthly \(30 days\)/ }).isChecked()).toBe(false)
    expect(await page.getByTestId('summary-frequency').textContent()).toBe('7 days')
    expect(await page.getByTestId('settings-notice').textContent()).toContain('next check-in e-mail is due 7 days after your last check-in')
    expect(await page.getByTestId('grace-period').textContent()).toBe('3 days (fixed)')
    expect(await page.getByRole('radio').count()).toBe(5)

    await page.getByRole('radio', { name: /Every two weeks \(14 days\)/ }).check()
    await page.getByRole('button', { name: 'Save Settings' }).click()
    await expect.poll(() => toastText(page)).toContain('Settings Updated')
    expect(await page.getByTestId('summary-frequency').textContent()).toBe('14 days')
    expect(await page.getByTestId('settings-notice').textContent()).toContain('due 14 days after your last check-in')
    await page.reload()
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor()
    expect(await page.getByRole('radio', { name: /Every two weeks \(14 days\)/ }).isChecked()).toBe(true)

    // The safety window: 72 hours until changed, never under 24.
    const hours = page.getByLabel('Safety window (hours)')
    await expect.poll(() => hours.inputValue()).toBe('72')
    expect(await page.getByTestId('safety-window-notice').textContent()).toContain('nothing becomes available for 72 hours')
    await hours.fill('12')
    await page.getByRole('button', { name: 'Save Safety Window' }).click()
    await page.getByText('The safety window is at least 24 hours').waitFor()
    await hours.fill('48')
    await page.getByRole('button', { name: 'Save Safety Window' }).click()
    await expect.poll(() => toastText(page)).toContain('Safety window saved')
    await page.reload()
    await expect.poll(() => page.getByLabel('Safety window (hours)').inputValue()).toBe('48')
    expect(await page.getByTestId('safety-window-notice').textContent()).toContain('for 48 hours')
    await context.close()
  })
})
