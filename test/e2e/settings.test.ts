import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLOCK_MESSAGES, TRIGGER_MESSAGES } from '../../contract/triggers'
import { baseUrl, launch, newPage, registerOwner, toastText, uniqueEmail } from './browser'

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

describe('account settings', () => {
  it('saves the check-in frequency for the next inactivity trigger, and shows the schedule that runs once there is one', async () => {
    const { context, page } = await newPage(browser)
    await registerOwner(page, { email: uniqueEmail('settings'), password: 'a sound password 1' })
    await page.getByRole('button', { name: 'Account menu' }).click()
    await page.getByRole('menuitem', { name: 'Settings' }).click()
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor()
    // Nothing stored: 7 days (seeds 000 §9) is selected, not the spec client's form default of 30.
    expect(await page.getByRole('radio', { name: /Weekly \(7 days\)/ }).isChecked()).toBe(true)
    expect(await page.getByRole('radio', { name: /Monthly \(30 days\)/ }).isChecked()).toBe(false)
    expect(await page.getByTestId('summary-frequency').textContent()).toBe('7 days')
    expect(await page.getByTestId('settings-notice').textContent()).toContain('Settings apply only to the next trigger setup')
    expect(await page.getByTestId('settings-notice').textContent()).toContain('a check-in e-mail every 7 days')
    // No inactivity trigger: no clock runs, and the page says so rather than a schedule or a fixed grace.
    await expect.poll(() => page.getByTestId('running-schedule').textContent()).toContain(CLOCK_MESSAGES.notRunning)
    expect(await page.getByTestId('grace-period').textContent()).toBe('Chosen when you set up an inactivity trigger (14 days unless you change it)')
    expect(await page.getByRole('radio').count()).toBe(5)

    await page.getByRole('radio', { name: /Every two weeks \(14 days\)/ }).check()
    await page.getByRole('button', { name: 'Save Settings' }).click()
    await expect.poll(() => toastText(page)).toContain('Settings Updated')
    expect(await page.getByTestId('summary-frequency').textContent()).toBe('14 days')
    expect(await page.getByTestId('settings-notice').textContent()).toContain('every 14 days')
    await page.reload()
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor()
    expect(await page.getByRole('radio', { name: /Every two weeks \(14 days\)/ }).isChecked()).toBe(true)

    // The next inactivity trigger starts at that frequency: Create Trigger pre-selects it.
    await page.goto(`${baseUrl()}/triggers`)
    await page.getByRole('button', { name: 'Set Up Inactivity trigger' }).click()
    const create = page.getByRole('dialog', { name: 'Create Trigger' })
    const frequency = create.getByLabel('Check-in frequency')
    await expect.poll(() => frequency.inputValue()).toBe('14')
    expect(await create.getByText('From your Settings: every 14 days.').count()).toBe(1)
    await create.getByLabel('Grace period (days)').fill('5')
    await create.getByRole('button', { name: 'Create Trigger' }).click()
    await create.waitFor({ state: 'detached' })
    const card = page.getByTestId('trigger-card-inactivity')
    await expect.poll(() => card.textContent()).toContain('Check-ins every 14 days, 5-day grace')
    const cardText = (await card.textContent())!
    const fires = /· Fires (.+?) if nothing changes/.exec(cardText)?.[1]
    expect(fires).toBeTruthy()

    // A second one is not offered, and the dialog says why.
    await page.getByRole('button', { name: 'Create Trigger' }).click()
    const again = page.getByRole('dialog', { name: 'Create Trigger' })
    expect(await again.locator('option[value="inactivity"]').isDisabled()).toBe(true)
    expect(await again.getByText(TRIGGER_MESSAGES.inactivityExists).count()).toBe(1)
    await again.getByRole('button', { name: 'Cancel' }).click()

    // /settings shows the schedule that runs, the same numbers and firing time as the card.
    await page.goto(`${baseUrl()}/settings`)
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor()
    await expect.poll(() => page.getByTestId('settings-schedule').textContent()).toBe('Every 14 days, 5 days grace')
    expect(await page.getByTestId('settings-fires-at').textContent()).toBe(`${fires} unless you check in`)
    expect(await page.getByTestId('grace-period').textContent()).toBe('5 days, set on your inactivity trigger')
    expect(await page.getByTestId('summary-grace').textContent()).toBe('5 days, set on your inactivity trigger')
    expect(await page.getByTestId('running-schedule').getByRole('link', { name: 'Change it on the Triggers page' }).count()).toBe(1)

    // And so does the Trigger Monitor.
    await page.goto(`${baseUrl()}/trigger-monitor`)
    await expect.poll(() => page.getByTestId('check-in-schedule').textContent()).toBe('Every 14 days, 5 days grace')
    expect(await page.getByTestId('fires-at').textContent()).toBe(`${fires} unless you check in`)

    // The safety window: 72 hours until changed, never under 24.
    await page.goto(`${baseUrl()}/settings`)
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
