import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WEBAUTHN_MESSAGES } from '../../contract/webauthn'
import { SECURITY_KEY } from '../../contract/webauthn-constants'
import { executeSql, fillRegistrationForm, launch, logOut, newPage, runScript, toastText, uniqueEmail } from './browser'

// Security keys in a real Chromium with a CDP virtual authenticator (a USB FIDO2 key with a PIN):
// registration, sign-in and the second factor all go through the server's verification.

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

interface VirtualKey {
  cdp: CDPSession
  authenticatorId: string
}

async function plugInKey(context: BrowserContext, page: Page): Promise<VirtualKey> {
  const cdp = await context.newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'usb',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return { cdp, authenticatorId }
}

async function credentialsOn(key: VirtualKey) {
  return (await key.cdp.send('WebAuthn.getCredentials', { authenticatorId: key.authenticatorId })).credentials
}

/** Every request body the page sends, to show what never leaves the browser. */
function recordBodies(page: Page): string[] {
  const bodies: string[] = []
  page.on('request', (request) => {
    const body = request.postData()
    if (body) bodies.push(body)
  })
  return bodies
}

async function openProfile(page: Page) {
  await page.goto('/profile')
  await page.getByRole('heading', { name: 'Security Keys' }).waitFor()
}

const keyList = (page: Page) => page.getByRole('list', { name: 'Your security keys' }).getByRole('listitem')

describe('security keys', () => {
  it('registers a key at sign-up, signs in with it alone, adds a second factor, offers no more than the most keys, and removes keys', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 })
    const key = await plugInKey(context, page)
    const bodies = recordBodies(page)
    const email = uniqueEmail('passkey')
    const password = 'a sound password 1'

    // Registration step 2 offers the key; the server verifies its attestation and keeps it.
    await fillRegistrationForm(page, { email, password, displayName: 'Kay Holder' })
    await page.getByRole('heading', { name: 'Set Up Security' }).waitFor()
    await page.getByRole('button', { name: /Use a hardware security key/ }).click()
    await expect.poll(() => toastText(page)).toContain(WEBAUTHN_MESSAGES.registered)
    await page.getByText('Security key added').waitFor()
    await page.getByRole('button', { name: 'Skip for now (less secure)' }).click()
    await page.waitForURL('**/dashboard')
    const [credential] = await credentialsOn(key)
    expect(credential?.isResidentCredential).toBe(true)

    // Signed out, the key alone signs in: the server checks the signature and opens a session.
    await logOut(page)
    await page.goto('/login')
    await page.getByText('Or continue with').waitFor()
    await page.getByRole('button', { name: 'Security Key' }).click()
    await page.waitForURL('**/dashboard')
    await expect.poll(() => toastText(page)).toContain(WEBAUTHN_MESSAGES.authSuccess)
    expect((await credentialsOn(key))[0]!.signCount).toBeGreaterThan(credential!.signCount)

    // The profile lists it with its last use; a second key (another authenticator) is added by name.
    await openProfile(page)
    await expect.poll(() => keyList(page).count()).toBe(1)
    expect(await keyList(page).first().textContent()).toMatch(/Security key 1.*Last used/)
    const firstKeySecrets = (await credentialsOn(key)).map((c) => c.privateKey)
    await key.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: key.authenticatorId })
    const backup = await plugInKey(context, page)
    await page.getByLabel('Key name (optional)').fill('Backup key')
    await page.getByRole('button', { name: 'Add Security Key' }).click()
    await expect.poll(() => toastText(page)).toContain(WEBAUTHN_MESSAGES.registered)
    await expect.poll(() => keyList(page).count()).toBe(2)
    expect(await keyList(page).nth(1).textContent()).toMatch(/Backup key.*Never used to sign in/)

    // At the most keys an owner may hold (seeded in SQL), Add Security Key is no longer offered.
    executeSql(
      Array.from(
        { length: SECURITY_KEY.maxPerOwner - 2 },
        (_, i) => `insert into webauthn_credentials (id, user_id, name, public_key, counter, transports, device_type, backed_up, created_at)
          select 'seeded-${i}-' || id, id, 'Seeded key ${i + 1}', 'AA', 0, '[]', 'singleDevice', 0, 1 from users where email = '${email.toLowerCase()}'`,
      ).join('; '),
    )
    await page.reload()
    await expect.poll(() => keyList(page).count()).toBe(SECURITY_KEY.maxPerOwner)
    expect(await page.getByRole('button', { name: 'Add Security Key' }).isDisabled()).toBe(true)
    executeSql(`delete from webauthn_credentials where id like 'seeded-%'`)
    await page.reload()
    await expect.poll(() => keyList(page).count()).toBe(2)
    expect(await page.getByRole('button', { name: 'Add Security Key' }).isDisabled()).toBe(false)

    // Two-factor on: the password alone is no longer enough.
    await page.getByRole('switch', { name: /Two-factor sign-in/ }).click()
    await expect.poll(() => page.getByRole('switch', { name: /Two-factor sign-in/ }).getAttribute('aria-checked')).toBe('true')
    await logOut(page)
    await page.goto('/login')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill(password)
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForURL('**/dashboard')
    await expect.poll(() => toastText(page)).toContain(WEBAUTHN_MESSAGES.authSuccess)

    // Removing: the last key cannot go while two-factor is on; with it off, both go.
    await openProfile(page)
    await page.getByRole('switch', { name: /Two-factor sign-in/ }).click()
    await expect.poll(() => page.getByRole('switch', { name: /Two-factor sign-in/ }).getAttribute('aria-checked')).toBe('false')
    for (const name of ['Backup key', 'Security key 1']) {
      await page.getByRole('button', { name: `Remove ${name}` }).click()
      await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click()
      await expect.poll(() => toastText(page)).toContain(WEBAUTHN_MESSAGES.removedTitle)
    }
    await page.getByText('No security keys yet.').waitFor()

    // The authenticator still holds its credential, but the server no longer accepts it.
    await logOut(page)
    await page.goto('/login')
    await page.getByRole('button', { name: 'Security Key' }).click()
    await expect.poll(() => toastText(page)).toContain(WEBAUTHN_MESSAGES.noKeys)
    expect(new URL(page.url()).pathname).toBe('/login')

    // The keys' private halves never left the authenticator.
    const privateKeys = [...firstKeySecrets, ...(await credentialsOn(backup)).map((c) => c.privateKey)]
    expect(privateKeys).toHaveLength(2)
    for (const secret of privateKeys) expect(bodies.some((b) => b.includes(secret))).toBe(false)
    await context.close()
  })

  it('takes an admin who signs in with a key to /admin', async () => {
    const email = uniqueEmail('admin-key')
    expect(runScript('admin:create', [email, 'an admin password 1'])).toContain('Admin account ready')
    const { context, page } = await newPage(browser)
    await plugInKey(context, page)
    await page.goto('/login')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill('an admin password 1')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForURL('**/admin')
    await openProfile(page)
    await page.getByRole('button', { name: 'Add Security Key' }).click()
    await expect.poll(() => toastText(page)).toContain(WEBAUTHN_MESSAGES.registered)

    await page.goto('/admin')
    await page.getByRole('button', { name: 'Sign Out' }).click()
    await page.waitForURL('**/login')
    await page.getByRole('button', { name: 'Security Key' }).click()
    await page.waitForURL('**/admin')
    await expect.poll(() => page.getByRole('heading', { name: 'Admin Dashboard' }).isVisible()).toBe(true)
    await context.close()
  })
})
