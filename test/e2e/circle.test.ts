import { mkdirSync, readFileSync } from 'node:fs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CIRCLE_MESSAGES } from '../../contract/circle'
import { ageProof, baseUrl, firstLink, launch, newPage, outbox, registerOwner as registerWithVault, submitBeneficiaryDialog, uniqueEmail, waitForMail, toastText } from './browser'

// The owner's circle in the browser: beneficiaries with their Access Kits, approvers, and the
// pages a beneficiary or approver opens from their e-mail.

const SHOTS = '/tmp/shots'
const PASSPHRASE = 'Harbour-Willow-58-Ember'
let browser: Browser
beforeAll(async () => {
  browser = await launch()
  mkdirSync(SHOTS, { recursive: true })
})
afterAll(async () => {
  await browser?.close()
})

/** Registers with a vault (it signs each beneficiary's key); the vault stays unlocked until a reload. */
async function registerOwner(page: Page, displayName: string): Promise<string> {
  const email = uniqueEmail('circle-owner')
  await registerWithVault(page, { email, displayName, password: 'a sound password 1', passphrase: PASSPHRASE })
  return email
}

async function openBeneficiaries(page: Page) {
  await page.goto('/beneficiaries')
  await page.getByRole('heading', { name: 'Beneficiaries', level: 1 }).waitFor()
}

async function fillBeneficiary(page: Page, b: { fullName: string; email: string; relationship: string }) {
  await page.getByRole('button', { name: 'Add Beneficiary' }).first().click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Full name').fill(b.fullName)
  await dialog.getByLabel('Email').fill(b.email)
  await dialog.getByLabel('Relationship').fill(b.relationship)
  await submitBeneficiaryDialog(page, dialog, PASSPHRASE)
  return dialog
}

/** Adds one through the dialog and closes the kit step with 'I have saved the kit'. */
async function addBeneficiaryQuickly(page: Page, b: { fullName: string; email: string; relationship: string }) {
  const dialog = await fillBeneficiary(page, b)
  await dialog.getByRole('heading', { name: 'Beneficiary Access Kit' }).waitFor()
  await dialog.getByLabel('I have saved the kit').check()
  await dialog.getByRole('button', { name: 'Done' }).click()
  await dialog.waitFor({ state: 'detached' })
}

const card = (page: Page, name: string) => page.getByTestId('beneficiary-card').filter({ hasText: name })

function recordRequests(context: BrowserContext): string[] {
  const sent: string[] = []
  context.on('request', (request) => sent.push(`${request.method()} ${request.url()}\n${request.postData() ?? ''}`))
  return sent
}

describe('beneficiaries', () => {
  it('adds a beneficiary whose Access Kit never leaves the browser, then verifies, opts in and unsubscribes', async () => {
    const { context, page } = await newPage(browser)
    const sent = recordRequests(context)
    const cspViolations: string[] = []
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text())
    })
    await registerOwner(page, 'Grace Owner')
    // Arrive through the navigation, so that Back stays inside the app.
    await page.goto('/dashboard')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Beneficiaries' }).click()
    await page.getByRole('heading', { name: 'No beneficiaries yet' }).waitFor()

    // The form's validation messages are the spec's.
    await page.getByRole('button', { name: 'Add Beneficiary' }).first().click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Add Beneficiary' }).click()
    for (const message of ['Full name must be at least 2 characters', 'Please enter a valid email address', 'Relationship must be specified']) {
      await dialog.getByText(message).waitFor()
    }
    expect(await dialog.getByRole('switch', { name: 'Send verification e-mail' }).getAttribute('aria-checked')).toBe('true')
    expect(await dialog.getByRole('switch', { name: 'Send asset notifications' }).getAttribute('aria-checked')).toBe('true')
    expect(await dialog.getByRole('switch', { name: 'Secrecy Mode: delay notifications' }).getAttribute('aria-checked')).toBe('false')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })

    const beneficiaryEmail = uniqueEmail('ada')
    await fillBeneficiary(page, { fullName: 'Ada Lovelace', email: beneficiaryEmail, relationship: 'Daughter' })
    await dialog.getByRole('heading', { name: 'Beneficiary Access Kit' }).waitFor()
    await expect.poll(() => toastText(page)).toContain('Beneficiary added')

    // The kit step cannot be left before the kit is saved: no close button, Esc refused, Done disabled.
    expect(await dialog.getByRole('button', { name: 'Close' }).count()).toBe(0)
    // (The first Esc may close the 'Beneficiary added' toast, the topmost layer.)
    const blocked = dialog.getByText('Download the kit or confirm that you have saved it')
    await expect
      .poll(async () => {
        await page.keyboard.press('Escape')
        return blocked.isVisible()
      })
      .toBe(true)
    expect(await dialog.getByRole('heading', { name: 'Beneficiary Access Kit' }).isVisible()).toBe(true)
    expect(await dialog.getByRole('button', { name: 'Done' }).isDisabled()).toBe(true)
    // Nor by the browser's back button.
    await page.goBack({ waitUntil: 'commit' }).catch(() => null)
    await page.waitForTimeout(500)
    expect(new URL(page.url()).pathname).toBe('/beneficiaries')
    expect(await dialog.getByRole('heading', { name: 'Beneficiary Access Kit' }).isVisible()).toBe(true)

    // Printing shows the kit alone.
    await page.emulateMedia({ media: 'print' })
    expect(await page.getByTestId('access-kit-print').isVisible()).toBe(true)
    expect(await page.getByRole('banner').isVisible()).toBe(false)
    await page.screenshot({ path: `${SHOTS}/access-kit-print.png`, fullPage: true })
    await page.emulateMedia({ media: 'screen' })
    expect(await page.getByTestId('access-kit-print').isVisible()).toBe(false)

    const fingerprint = (await dialog.getByTestId('kit-fingerprint').textContent())!.trim()
    expect(fingerprint).toMatch(/^([0-9A-F]{4} ){15}[0-9A-F]{4}$/)
    await page.screenshot({ path: `${SHOTS}/access-kit-dialog-1280.png` })
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download Access Kit' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('access-kit-ada-lovelace.txt')
    const kit = readFileSync((await download.path())!, 'utf8')
    expect(kit).toContain('-----BEGIN PRIVATE KEY-----')
    expect(kit).toContain('-----END PRIVATE KEY-----')
    expect(kit).toContain('Ada Lovelace')
    expect(kit).toContain(beneficiaryEmail)
    expect(kit).toContain('Grace Owner')
    expect(kit).toContain(fingerprint)
    expect(kit).toContain(`${baseUrl()}/beneficiary-portal`)

    await dialog.getByRole('button', { name: 'Done' }).click()
    await dialog.waitFor({ state: 'detached' })

    // Nothing the page sent carries the private key, in PEM or as its base64 body (or a piece of it).
    const keyBody = kit.split('-----BEGIN PRIVATE KEY-----')[1]!.split('-----END PRIVATE KEY-----')[0]!.replace(/\s+/g, '')
    expect(keyBody.length).toBeGreaterThan(1000)
    const pieces = [keyBody, keyBody.slice(0, 64), keyBody.slice(400, 464), keyBody.slice(-64)]
    const create = sent.find((r) => r.startsWith(`POST ${baseUrl()}/api/beneficiaries\n`))
    expect(create).toBeDefined()
    expect(JSON.parse(create!.split('\n').slice(1).join('\n'))).not.toHaveProperty('privateKey')
    for (const request of sent) {
      expect(request).not.toContain('PRIVATE KEY')
      for (const piece of pieces) expect(request).not.toContain(piece)
    }

    const ada = card(page, 'Ada Lovelace')
    await ada.getByText('Pending', { exact: true }).waitFor()
    expect(await ada.textContent()).toContain(fingerprint.split(' ').slice(0, 4).join(' '))
    expect(await ada.textContent()).toContain('Daughter')

    // The beneficiary, in a browser of their own, uses the link from the e-mail.
    const mail = await waitForMail(beneficiaryEmail, /Named as a Beneficiary/)
    const visitor = await newPage(browser, { width: 375, height: 740 })
    const verifyLink = firstLink(mail.text, '/verify-beneficiary?token=')
    await visitor.page.goto(verifyLink)
    // Words a person understands: the page says the link was checked and never shows its token.
    await visitor.page.getByTestId('link-checked').waitFor()
    const linkToken = new URL(verifyLink).searchParams.get('token')!
    expect(await visitor.page.locator('body').innerText()).not.toContain(linkToken.slice(0, 24))
    const verify = visitor.page.getByRole('button', { name: 'Complete Verification' })
    await verify.click()
    await visitor.page.getByRole('heading', { name: 'Verification Complete' }).waitFor()
    expect(await visitor.page.getByText('private key from the Beneficiary Access Kit').isVisible()).toBe(true)
    await visitor.page.screenshot({ path: `${SHOTS}/verify-beneficiary-375.png`, fullPage: true })
    // A second use of the link is a friendly 'already verified', not an error.
    await visitor.page.reload()
    await visitor.page.getByRole('button', { name: 'Complete Verification' }).click()
    await visitor.page.getByText('This address was already verified').waitFor()

    // Lists are never stale: back on /beneficiaries in the same tab (no reload), it says Verified.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vault' }).click()
    await page.getByRole('heading', { name: 'Secure Vault' }).waitFor()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Beneficiaries' }).click()
    await ada.getByText('Verified', { exact: true }).waitFor()

    // Opt in through the e-mailed link.
    await visitor.page.goto(firstLink(mail.text, '/beneficiary-opt-in?token='))
    await visitor.page.getByRole('heading', { name: "You've Been Named as a Beneficiary" }).waitFor()
    await visitor.page.getByText('Grace Owner', { exact: true }).waitFor()
    expect(await visitor.page.getByText('Daughter', { exact: true }).isVisible()).toBe(true)
    await visitor.page.screenshot({ path: `${SHOTS}/opt-in-375.png`, fullPage: true })
    expect(await visitor.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await visitor.page.getByRole('button', { name: 'Accept & Opt In to Notifications' }).click()
    await visitor.page.getByRole('heading', { name: "You're All Set!" }).waitFor()
    expect(await visitor.page.getByRole('link', { name: 'Unsubscribe from future notifications' }).getAttribute('href')).toContain(
      '/unsubscribe?token=',
    )
    // And on coming back to the tab (a headless browser does not say so itself, so the test does).
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })))
    await ada.getByText('Opted in', { exact: true }).waitFor()

    // The unsubscribe link works on arrival.
    await visitor.page.goto(firstLink(mail.text, '/unsubscribe?token='))
    await visitor.page.getByRole('heading', { name: 'Unsubscribed Successfully' }).waitFor()
    await visitor.page.screenshot({ path: `${SHOTS}/unsubscribe-375.png`, fullPage: true })
    expect(await visitor.page.getByRole('link', { name: 'Resubscribe to Notifications' }).getAttribute('href')).toContain(
      '/beneficiary-opt-in?token=',
    )
    await visitor.context.close()

    await page.reload()
    await ada.getByText('Unsubscribed', { exact: true }).waitFor()
    await page.screenshot({ path: `${SHOTS}/beneficiaries-1280.png`, fullPage: true })
    await page.setViewportSize({ width: 375, height: 800 })
    await page.screenshot({ path: `${SHOTS}/beneficiaries-375.png`, fullPage: true })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    expect(cspViolations).toEqual([])
    await context.close()
  })

  it('on a phone: edits, toggles, deletes, and stops at the Basic plan limit with the server’s message', async () => {
    const { context, page } = await newPage(browser, { width: 375, height: 740 })
    await registerOwner(page, 'Limit Owner')
    await openBeneficiaries(page)
    const kitDialog = await fillBeneficiary(page, { fullName: 'Zero Person', email: uniqueEmail('limit'), relationship: 'Cousin' })
    await kitDialog.getByRole('heading', { name: 'Beneficiary Access Kit' }).waitFor()
    await page.screenshot({ path: `${SHOTS}/access-kit-dialog-375.png` })
    await kitDialog.getByLabel('I have saved the kit').check()
    await kitDialog.getByRole('button', { name: 'Done' }).click()
    await kitDialog.waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Actions for Zero Person' }).click()
    await page.getByRole('menuitem', { name: 'Delete' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('heading', { name: 'No beneficiaries yet' }).waitFor()
    for (const [fullName, relationship] of [
      ['First Person', 'Son'],
      ['Second Person', 'Spouse'],
      ['Third Person', 'Friend'],
    ]) {
      await addBeneficiaryQuickly(page, { fullName: fullName!, email: uniqueEmail('limit'), relationship: relationship! })
      await card(page, fullName!).waitFor()
    }

    const dialog = await fillBeneficiary(page, { fullName: 'Fourth Person', email: uniqueEmail('limit'), relationship: 'Niece' })
    await expect.poll(() => toastText(page)).toContain('Failed to add beneficiary')
    expect(await toastText(page)).toContain('Your Basic plan allows up to 3 beneficiaries')
    // The form stays, so nothing typed is lost.
    expect(await dialog.getByLabel('Full name').inputValue()).toBe('Fourth Person')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })

    // Notifications off and on again.
    const first = card(page, 'First Person')
    await page.getByRole('button', { name: 'Actions for First Person' }).click()
    // Upload ID Document is offered while the identity is not verified (tested in identity.test.ts).
    expect(await page.getByRole('menuitem', { name: /Upload ID Document/ }).getAttribute('aria-disabled')).toBeNull()
    await page.getByRole('menuitem', { name: 'Disable Notifications' }).click()
    await first.getByText('Notifications off', { exact: true }).waitFor()
    // Only the early notice stops: the release e-mail carries their link, so it always goes.
    await expect.poll(() => toastText(page)).toContain('still receive the e-mail with their link to open them')
    await page.getByRole('button', { name: 'Actions for First Person' }).click()
    await page.getByRole('menuitem', { name: 'Enable Notifications' }).click()
    await first.getByText('Opt-in pending', { exact: true }).waitFor()

    // Resend verification.
    await page.getByRole('button', { name: 'Actions for Second Person' }).click()
    await page.getByRole('menuitem', { name: 'Resend Verification' }).click()
    await expect.poll(() => toastText(page)).toContain('Verification e-mail sent')

    // Edit Details: a new relationship and Secrecy Mode.
    await page.getByRole('button', { name: 'Actions for Third Person' }).click()
    await page.getByRole('menuitem', { name: 'Edit Details' }).click()
    const edit = page.getByRole('dialog')
    await edit.getByLabel('Relationship').fill('Godchild')
    await edit.getByRole('switch', { name: 'Secrecy Mode: delay notifications' }).click()
    await edit.getByRole('button', { name: 'Save Changes' }).click()
    await edit.waitFor({ state: 'detached' })
    const third = card(page, 'Third Person')
    await third.getByText('Godchild').waitFor()
    await third.getByText('Secrecy Mode', { exact: true }).waitFor()

    // Delete, after a confirmation that says it cannot be undone.
    await page.getByRole('button', { name: 'Actions for Second Person' }).click()
    await page.getByRole('menuitem', { name: 'Delete' }).click()
    const confirm = page.getByRole('alertdialog')
    expect(await confirm.textContent()).toContain('cannot be undone')
    expect(await confirm.textContent()).toContain('no longer be released to them')
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await card(page, 'Second Person').waitFor({ state: 'detached' })
    await expect.poll(() => toastText(page)).toContain('Beneficiary removed')
    await context.close()
  })
})

describe('approvers', () => {
  it('adds an approver who verifies by e-mail, then removes them after a confirmation', async () => {
    const { context, page } = await newPage(browser)
    await registerOwner(page, 'Approver Owner')
    await openBeneficiaries(page)
    await page.getByText('No approvers yet').waitFor()

    await page.getByRole('button', { name: 'Add Approver' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Add Approver' }).click()
    await dialog.getByText('Role must be specified').waitFor()
    const approverEmail = uniqueEmail('approver')
    await dialog.getByLabel('Full name').fill('Sam Counsel')
    await dialog.getByLabel('Email').fill(approverEmail)
    await dialog.getByLabel('Role').fill('Lawyer')
    await dialog.getByRole('button', { name: 'Add Approver' }).click()
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => toastText(page)).toContain('Approver added')
    const row = page.getByTestId('approver-row').filter({ hasText: 'Sam Counsel' })
    await row.getByText('Pending', { exact: true }).waitFor()
    expect(await row.textContent()).toContain('Lawyer')

    const mail = await waitForMail(approverEmail, /approver/)
    const visitor = await newPage(browser)
    await visitor.page.goto(firstLink(mail.text, '/verify-approver?token='))
    await visitor.page.getByRole('button', { name: 'Complete Verification' }).click()
    await visitor.page.getByRole('heading', { name: 'Verification Complete' }).waitFor()
    expect(await visitor.page.getByText('approval actions are needed for asset releases').isVisible()).toBe(true)
    await visitor.context.close()

    await page.reload()
    await row.getByText('Verified', { exact: true }).waitFor()

    // A second approver who lost the e-mail: a fresh link from the row menu; the first no longer works.
    await page.getByRole('button', { name: 'Add Approver' }).click()
    const lateEmail = uniqueEmail('late-approver')
    await dialog.getByLabel('Full name').fill('Lee Late')
    await dialog.getByLabel('Email').fill(lateEmail)
    await dialog.getByLabel('Role').fill('Executor')
    await dialog.getByRole('button', { name: 'Add Approver' }).click()
    await dialog.waitFor({ state: 'detached' })
    const lost = await waitForMail(lateEmail, /approver/)
    await page.getByRole('button', { name: 'Actions for Lee Late' }).click()
    await page.getByRole('menuitem', { name: 'Resend Verification' }).click()
    await expect.poll(() => toastText(page)).toContain('Verification e-mail sent')
    await expect.poll(async () => (await outbox()).filter((m) => m.to === lateEmail).length).toBe(2)
    const [newest] = (await outbox()).filter((m) => m.to === lateEmail)
    expect(firstLink(newest!.text, '/verify-approver?token=')).not.toBe(firstLink(lost.text, '/verify-approver?token='))
    const late = await newPage(browser)
    await late.page.goto(firstLink(lost.text, '/verify-approver?token='))
    await late.page.getByRole('button', { name: 'Complete Verification' }).click()
    await late.page.getByText(CIRCLE_MESSAGES.linkInvalid).first().waitFor()
    await late.page.goto(firstLink(newest!.text, '/verify-approver?token='))
    await late.page.getByRole('button', { name: 'Complete Verification' }).click()
    await late.page.getByRole('heading', { name: 'Verification Complete' }).waitFor()
    await late.context.close()
    await page.getByRole('button', { name: 'Actions for Lee Late' }).click()
    await page.getByRole('menuitem', { name: 'Remove' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click()
    await page.getByTestId('approver-row').filter({ hasText: 'Lee Late' }).waitFor({ state: 'detached' })

    await page.getByRole('button', { name: 'Actions for Sam Counsel' }).click()
    await page.getByRole('menuitem', { name: 'Remove' }).click()
    const confirm = page.getByRole('alertdialog')
    expect(await confirm.textContent()).toContain('cannot be undone')
    await confirm.getByRole('button', { name: 'Remove' }).click()
    await row.waitFor({ state: 'detached' })
    await expect.poll(() => toastText(page)).toContain('Approver removed')
    await page.getByText('No approvers yet').waitFor()
    await context.close()
  })
})

describe('approvers need the owner', () => {
  it('a session whose proof is old is asked to confirm it’s the owner before an approver is added', { timeout: 180_000 }, async () => {
    const { context, page } = await newPage(browser)
    const email = await registerOwner(page, 'Stale Owner')
    await ageProof(email)
    await openBeneficiaries(page)
    await page.getByRole('button', { name: 'Add Approver' }).click()
    const form = page.getByRole('dialog', { name: 'Add Approver' })
    await form.getByLabel('Full name').fill('Pat Proof')
    await form.getByLabel('Email').fill(uniqueEmail('approver'))
    await form.getByLabel('Role').fill('Executor')
    await form.getByRole('button', { name: 'Add Approver' }).click()
    const proof = page.getByRole('dialog', { name: 'Confirm it’s you' })
    await proof.getByLabel('Your password').fill('a sound password 1')
    await proof.getByRole('button', { name: 'Confirm' }).click()
    await expect.poll(() => toastText(page)).toContain('Approver added')
    await page.getByTestId('approver-row').filter({ hasText: 'Pat Proof' }).waitFor()
    await waitForMail(email, /^An approver was added to your account/)
    await context.close()
  })
})

describe('pages opened from links', () => {
  it('explain a link without its token, and preview the invitation e-mail', async () => {
    const { context, page } = await newPage(browser, { width: 375, height: 740 })
    await page.goto('/verify-beneficiary')
    await page.getByRole('heading', { name: 'Invalid Link' }).waitFor()
    expect(await page.getByText('Invalid verification link. No token provided.').isVisible()).toBe(true)
    await page.goto('/verify-approver')
    await page.getByRole('heading', { name: 'Invalid Link' }).waitFor()
    await page.goto('/beneficiary-opt-in?token=not-a-real-token-at-all-0000')
    await page.getByRole('heading', { name: 'Invalid Link' }).waitFor()
    await page.goto('/unsubscribe')
    await page.getByRole('heading', { name: 'Unable to Unsubscribe' }).waitFor()
    expect(await page.getByText('The link has expired.').isVisible()).toBe(true)
    await page.goto('/verify-beneficiary?token=not-a-real-token-at-all-0000&id=x')
    await page.getByRole('button', { name: 'Complete Verification' }).click()
    await page.getByRole('alert').filter({ hasText: 'invalid' }).waitFor()

    await page.goto('/email-preview')
    await expect.poll(() => page.getByTestId('email-subject').textContent()).toBe("You've Been Named as a Beneficiary")
    expect(await page.locator('iframe').getAttribute('sandbox')).toBe('')
    expect(await page.frameLocator('iframe').getByText('Relationship').count()).toBeGreaterThan(0)
    await page.getByRole('switch', { name: 'Secrecy Mode version' }).click()
    await expect.poll(() => page.frameLocator('iframe').getByText('Secrecy Mode:').count()).toBeGreaterThan(0)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await context.close()
  })
})
