import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, launch, newPage, signInThroughForm, toastText, uniqueEmail } from './browser'

// Signed-in devices (issue "A stolen session is not the owner"): the owner sees every browser
// signed in to the account on their profile and signs one out; that browser is sent to sign in.

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

describe('signed-in devices', () => {
  it('lists both browsers, signs the other one out, and that one lands on /login', async () => {
    const email = uniqueEmail('devices')
    const password = 'a sound password 1'
    const registered = await fetch(`${baseUrl()}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, displayName: 'Grace Owner' }),
    })
    expect(registered.status).toBe(201)

    // The owner's phone, and another browser (someone else's, say) signed in to the same account.
    const mine = await newPage(browser, { width: 390, height: 844 })
    const theirs = await newPage(browser)
    // Each signed in before going on: a page left before its sign-in answered is not signed in.
    await signInThroughForm(mine.page, email, password)
    await mine.page.waitForURL('**/dashboard')
    await signInThroughForm(theirs.page, email, password)
    await theirs.page.waitForURL('**/dashboard')

    const page = mine.page
    await page.goto('/profile')
    await page.getByRole('heading', { name: 'Signed-in devices' }).waitFor()
    const devices = page.getByRole('list', { name: 'Your signed-in devices' }).getByRole('listitem')
    // Registration's own session (through the API) is a third, with no browser to name.
    await expect.poll(() => devices.count()).toBe(3)
    const current = devices.filter({ hasText: 'This device' })
    expect(await current.count()).toBe(1)
    expect(await current.textContent()).toMatch(/Chrome on Linux/)
    expect(await current.textContent()).toMatch(/Signed in .* · Last active just now/)
    // This device is listed first and has no button to sign itself out here (only one to trust it).
    expect(await devices.first().textContent()).toContain('This device')
    expect(await current.getByRole('button', { name: /^Sign out/ }).count()).toBe(0)

    // Sign out the other browser, after confirming (the row's button names the device).
    const other = devices.filter({ hasNotText: 'This device' }).filter({ hasText: 'Chrome on Linux' })
    const button = other.getByRole('button', { name: 'Sign out Chrome on Linux' })
    await button.click()
    const confirm = page.getByRole('alertdialog', { name: 'Sign out Chrome on Linux?' })
    await confirm.getByRole('button', { name: 'Sign out', exact: true }).click()
    await expect.poll(() => toastText(page)).toContain('Device signed out')
    await expect.poll(() => devices.count()).toBe(2)
    // The phone's page fits its width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)

    // The other browser's next navigation finds its session gone.
    await theirs.page.goto('/profile')
    await theirs.page.waitForURL('**/login')

    // Sign out all the others: only this device is left, still signed in.
    await page.getByRole('button', { name: 'Sign out all other devices' }).click()
    await page.getByRole('alertdialog', { name: 'Sign out all other devices?' }).getByRole('button', { name: 'Sign out all other devices' }).click()
    await expect.poll(() => toastText(page)).toContain('Other devices signed out')
    await expect.poll(() => devices.count()).toBe(1)
    await page.getByText('No other device is signed in.').waitFor()
    await page.reload()
    await page.getByRole('heading', { name: 'Signed-in devices' }).waitFor()

    await mine.context.close()
    await theirs.context.close()
  })
})
