import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, executeSql, launch, newPage, registerOwner, toastText, uniqueEmail } from './browser'

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

async function openProfile(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click()
  await page.getByRole('menuitem', { name: 'Profile' }).click()
  await page.getByRole('heading', { name: 'Profile Settings' }).waitFor()
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true })

describe('profile settings', () => {
  it('edits and keeps the profile, changes the password and signs in with the new one', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 })
    const email = uniqueEmail('profile')
    const oldPassword = 'a sound password 1'
    const newPassword = 'an even better password 2'
    await registerOwner(page, { email, password: oldPassword, displayName: 'Grace Owner' })
    await openProfile(page)

    // Read-only until Edit Profile; the e-mail never editable; the spec's defaults.
    expect(await field(page, 'Display name').isDisabled()).toBe(true)
    expect(await field(page, 'Email').inputValue()).toBe(email)
    expect(await field(page, 'Country').inputValue()).toBe('US')
    expect(await field(page, 'Timezone').inputValue()).toBe('America/New_York')
    expect(await page.getByRole('switch', { name: 'Email notifications' }).getAttribute('aria-checked')).toBe('true')
    expect(await page.getByTestId('account-plan').textContent()).toBe('Basic')
    expect(await page.getByTestId('account-vault-setup').textContent()).toBe('No')
    expect(await page.getByRole('switch', { name: /Two-factor sign-in/ }).isDisabled()).toBe(true)

    // Cancel restores what was there.
    await page.getByRole('button', { name: 'Edit Profile' }).click()
    expect(await field(page, 'Email').isDisabled()).toBe(true)
    await field(page, 'Display name').fill('Somebody Else')
    await page.getByRole('button', { name: 'Cancel' }).click()
    expect(await field(page, 'Display name').inputValue()).toBe('Grace Owner')
    expect(await field(page, 'Display name').isDisabled()).toBe(true)
    // So does Esc; Edit Profile puts the cursor in the first field.
    await page.getByRole('button', { name: 'Edit Profile' }).click()
    await page.keyboard.type(' Typo')
    expect(await field(page, 'Display name').inputValue()).toBe('Grace Owner Typo')
    await page.keyboard.press('Escape')
    expect(await field(page, 'Display name').inputValue()).toBe('Grace Owner')
    await page.getByRole('button', { name: 'Edit Profile' }).waitFor()

    // Inline validation, then a real save.
    await page.getByRole('button', { name: 'Edit Profile' }).click()
    await field(page, 'Display name').fill('Grace Hopper')
    await field(page, 'Phone number').fill('not a phone')
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await page.getByText('Please enter a valid phone number').waitFor()
    await field(page, 'Phone number').fill('+1 (555) 123-4567')
    await field(page, 'Emergency contact').fill('kin@example.com')
    await field(page, 'Country').selectOption('CA')
    await field(page, 'Timezone').selectOption({ label: 'Tokyo' })
    await page.getByRole('switch', { name: 'Email notifications' }).click()
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await expect.poll(() => toastText(page)).toContain('Profile updated')
    await page.getByRole('button', { name: 'Edit Profile' }).waitFor()

    await page.reload()
    await page.getByRole('heading', { name: 'Profile Settings' }).waitFor()
    expect(await field(page, 'Display name').inputValue()).toBe('Grace Hopper')
    expect(await field(page, 'Phone number').inputValue()).toBe('+1 (555) 123-4567')
    expect(await field(page, 'Emergency contact').inputValue()).toBe('kin@example.com')
    expect(await field(page, 'Country').inputValue()).toBe('CA')
    expect(await field(page, 'Timezone').inputValue()).toBe('Asia/Tokyo')
    expect(await page.getByRole('switch', { name: 'Email notifications' }).getAttribute('aria-checked')).toBe('false')

    // Password: a wrong current one is refused beside the field; then the real change.
    await field(page, 'Current password').fill('not my password')
    await field(page, 'New password').fill(newPassword)
    await field(page, 'Confirm new password').fill('something else')
    await field(page, 'Current password').focus()
    await page.getByText("Passwords don't match").waitFor()
    await field(page, 'Confirm new password').fill(newPassword)
    await page.getByRole('button', { name: 'Update Password' }).click()
    // Beside the field and in the toast, in words (no "currentPassword:" field name).
    await page.getByText('Current password is incorrect', { exact: true }).first().waitFor()
    await expect.poll(() => toastText(page)).toContain('Current password is incorrect')
    expect(await toastText(page)).not.toContain('currentPassword')
    await field(page, 'Current password').fill(oldPassword)
    await page.getByRole('button', { name: 'Update Password' }).click()
    await expect.poll(() => toastText(page)).toContain('Password updated')
    expect(await field(page, 'Current password').inputValue()).toBe('')

    // This session stayed signed in.
    await page.reload()
    await page.getByRole('heading', { name: 'Profile Settings' }).waitFor()

    await page.getByRole('button', { name: 'Account menu' }).click()
    await page.getByRole('menuitem', { name: 'Sign Out' }).click()
    await page.waitForURL((url) => url.pathname === '/')

    await page.goto('/login')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill(oldPassword)
    await page.getByRole('button', { name: 'Sign In' }).click()
    await expect.poll(() => toastText(page)).toContain('Sign-in failed')
    await page.getByLabel('Password', { exact: true }).fill(newPassword)
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForURL('**/dashboard')
    await openProfile(page)
    expect(await field(page, 'Display name').inputValue()).toBe('Grace Hopper')
    await context.close()
  })

  it('offers to remove security keys with the new password, and says what was removed and what is left', async () => {
    const email = uniqueEmail('keys')
    const password = 'a sound password 1'
    const res = await fetch(`${baseUrl()}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, displayName: 'Grace Owner' }),
    })
    expect(res.status).toBe(201)
    const { user } = (await res.json()) as { user: { id: string } }
    // Two keys on the account: the owner's own, and one they do not know (as if someone else added it).
    const key = (id: string, name: string, at: number) =>
      `('${id}', '${user.id}', '${name}', 'pQECAyYgASFYIA', 0, '["usb"]', 'singleDevice', 0, ${at})`
    executeSql(
      `insert into webauthn_credentials (id, user_id, name, public_key, counter, transports, device_type, backed_up, created_at) values ${key(`desk${Date.now()}`, 'Desk key', Date.parse('2026-01-05T12:00:00Z'))}, ${key(`odd${Date.now()}`, 'Odd key', Date.parse('2026-02-10T12:00:00Z'))}`,
    )

    const { context, page } = await newPage(browser, { width: 390, height: 844 })
    await page.goto('/login')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill(password)
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForURL('**/dashboard')
    await openProfile(page)

    const list = page.getByRole('group', { name: 'Also remove security keys' })
    const desk = list.getByRole('checkbox', { name: 'Remove Desk key (added Jan 5, 2026)' })
    const odd = list.getByRole('checkbox', { name: 'Remove Odd key (added Feb 10, 2026)' })
    const all = list.getByRole('checkbox', { name: 'Remove all security keys' })
    await desk.waitFor()
    expect(await list.textContent()).toContain('a new password does not keep them out')
    // "Remove all" ticks both; un-ticking one un-ticks it.
    await all.click()
    expect(await desk.getAttribute('aria-checked')).toBe('true')
    expect(await odd.getAttribute('aria-checked')).toBe('true')
    await desk.click()
    expect(await all.getAttribute('aria-checked')).toBe('false')
    expect(await odd.getAttribute('aria-checked')).toBe('true')

    await field(page, 'Current password').fill(password)
    await field(page, 'New password').fill('an even better password 2')
    await field(page, 'Confirm new password').fill('an even better password 2')
    await page.getByRole('button', { name: 'Update Password' }).click()
    await expect.poll(() => toastText(page)).toContain('Password updated')
    expect(await toastText(page)).toContain(
      '1 security key was removed. 1 security key can still sign in to your account: if you did not add it, remove it from your Profile Settings.',
    )
    // Only the owner's own key is left, in both lists.
    await expect.poll(() => page.getByRole('list', { name: 'Your security keys' }).getByRole('listitem').allTextContents()).toEqual([expect.stringContaining('Desk key')])
    await expect.poll(() => list.getByRole('checkbox').count()).toBe(2)
    expect(await desk.getAttribute('aria-checked')).toBe('false')
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await context.close()
  })
})
