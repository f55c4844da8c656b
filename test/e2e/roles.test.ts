import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH_TOKEN_STORAGE_KEY } from '../../contract/constants'
import { moderateViolations } from './axe'
import { executeSql, firstLink, launch, newPage, registerOwner, runScript, uniqueEmail, waitForMail, mirrorAccount } from './browser'

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

describe('roles and guards', () => {
  it('lets an admin made by `npm run admin:create` into /admin, and shows it at /', async () => {
    const email = uniqueEmail('admin')
    expect(runScript('admin:create', [email, 'an admin password 1'])).toContain('Admin account ready')

    const { context, page } = await newPage(browser)
    await page.goto('/admin')
    await expect.poll(() => page.getByRole('heading', { name: 'Admin sign in' }).isVisible()).toBe(true)
    await signIn(page, email, 'an admin password 1')
    await page.waitForURL('**/admin')
    await expect.poll(() => page.getByRole('heading', { name: 'Admin Dashboard' }).isVisible()).toBe(true)

    await page.goto('/')
    await expect.poll(() => page.getByRole('heading', { name: 'Admin Dashboard' }).isVisible()).toBe(true)

    await page.getByRole('button', { name: 'Sign Out' }).click()
    await page.waitForURL('**/login')
    await page.goto('/')
    await expect.poll(() => page.getByRole('heading', { name: 'Secure Your Digital Legacy' }).isVisible()).toBe(true)
    await context.close()
  })

  it("shows 'Subscription Required' to an owner without an active subscription", async () => {
    const email = uniqueEmail('lapsed')
    const { context, page } = await newPage(browser)
    await registerOwner(page, { email, password: 'a sound password 1', displayName: 'Lapsed Owner' })

    executeSql(`UPDATE users SET subscription_status = 'canceled' WHERE email = '${email}'`)
    await mirrorAccount(email)
    await page.reload()
    await expect.poll(() => page.getByRole('heading', { name: 'Subscription Required' }).isVisible()).toBe(true)
    expect(await page.getByRole('link', { name: 'View Plans' }).getAttribute('href')).toBe('/pricing')
    await page.getByRole('button', { name: 'Sign Out' }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await context.close()
  })
})

describe('an owner whose plan ended', () => {
  // The promise to the heirs is kept, and the owner can always check in, pause and cancel, paid or not.
  it('can still check in and pause a trigger from the Subscription Required screen', async () => {
    const email = uniqueEmail('lapsed-controls')
    const { context, page } = await newPage(browser)
    await registerOwner(page, { email, password: 'a sound password 1', displayName: 'Lapsed Owner' })
    const created = await page.evaluate(
      async ({ key }) => {
        const res = await fetch('/api/triggers', {
          method: 'POST',
          headers: { authorization: `Bearer ${localStorage.getItem(key)}`, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'inactivity', config: { pingFrequency: 'weekly', gracePeriod: 14 }, status: 'active' }),
        })
        return res.status
      },
      { key: AUTH_TOKEN_STORAGE_KEY },
    )
    expect(created).toBe(201)

    executeSql(`UPDATE users SET subscription_status = 'canceled' WHERE email = '${email}'`)
    await mirrorAccount(email)
    await page.reload()
    await page.getByRole('heading', { name: 'Subscription Required' }).waitFor()
    await page.getByRole('heading', { name: 'Your triggers still watch over your vault' }).waitFor()
    expect(await moderateViolations(page, 'Subscription Required with triggers')).toEqual([])

    await page.getByRole('button', { name: 'Check in now' }).click()
    await page.getByRole('status').getByText('Checked in').waitFor()
    await page.getByRole('button', { name: 'Pause Inactivity' }).click()
    await page.getByRole('status').getByText('Trigger paused').waitFor()
    // Nothing active is left to pause.
    await expect.poll(() => page.getByRole('button', { name: 'Pause Inactivity' }).count()).toBe(0)
    await context.close()
  }, 180_000)
})

describe('the local mailbox', () => {
  it('lists sent mail newest first and its links can be clicked', async () => {
    const { context, page } = await newPage(browser)
    const email = uniqueEmail('mailbox')
    await registerOwner(page, { email, password: 'a sound password 1', displayName: 'Mailbox Owner' })

    const res = await fetch(new URL('/api/auth/forgot-password', page.url()), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    })
    expect(res.status).toBe(200)
    const mail = await waitForMail(email, /Reset your/)

    await page.goto('/dev/mailbox')
    await expect.poll(() => page.getByRole('heading', { name: 'Local mailbox' }).isVisible()).toBe(true)
    // Newest first: the message just sent is the one selected.
    const first = page.getByRole('list', { name: 'Messages' }).getByRole('button').first()
    expect(await first.textContent()).toContain(email)
    const link = firstLink(mail.text, '/reset-password?token=')
    await page.getByTestId('mail-text').getByRole('link', { name: link }).click()
    await page.waitForURL('**/reset-password?token=*')
    await expect.poll(() => page.getByRole('heading', { name: 'Choose a new password' }).isVisible()).toBe(true)
    await context.close()
  })
})
