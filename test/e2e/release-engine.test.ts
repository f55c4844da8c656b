import { createHash, generateKeyPairSync } from 'node:crypto'
import { mkdirSync, readFileSync } from 'node:fs'
import { verifyChain, type AuditEntry } from '../../contract/audit'
import { RELEASE_MESSAGES } from '../../contract/releases'
import { CLOCK_MESSAGES } from '../../contract/triggers'
import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addBeneficiaryThroughUi, baseUrl, firstLink, launch, newPage, outbox, registerOwner, toastText, uniqueEmail, waitForMail } from './browser'
import { seriousViolations } from './axe'
import { addHeirWithKit, diagnoseOnFailure, ESTATE_PASSPHRASE as PASSPHRASE, nav, SHOTS, uploadFirstItemFor } from './estate'

// The release engine end to end: the owner uploads a file for a beneficiary under a manual-release
// protocol, rehearses with a dry run, releases from the Trigger Monitor, and the beneficiary
// follows the e-mailed link, loads the Access Kit and gets the identical bytes, decrypted in their
// own browser. The audit log verifies its chain along the way.

const FILE = {
  name: 'letter-for-ada.txt',
  mimeType: 'text/plain',
  buffer: Buffer.from('Dear Ada,\nThe deeds are with the notary on Elm Street.\nLove, Mum\n'.repeat(200)),
}
let browser: Browser
beforeAll(async () => {
  browser = await launch()
  mkdirSync(SHOTS, { recursive: true })
})
afterAll(async () => {
  await browser?.close()
})

const poll = <T,>(fn: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(fn, { timeout: 15_000, ...options })

function recordRequests(context: BrowserContext): string[] {
  const sent: string[] = []
  context.on('request', (r) => sent.push(`${r.method()} ${r.url()}\n${r.postDataBuffer()?.toString('latin1') ?? ''}`))
  return sent
}

describe('release engine, end to end', () => {
  it('uploads for a beneficiary, releases manually, and the beneficiary decrypts the identical bytes', async () => {
    const { page } = await newPage(browser)
    diagnoseOnFailure(page, 'release', 'owner')
    const beneficiaryEmail = uniqueEmail('ada')
    await registerOwner(page, { email: uniqueEmail('release-owner'), password: 'a sound password 1', passphrase: PASSPHRASE })

    // The beneficiary, with their Access Kit saved, and the file for Ada under the Manual Release protocol.
    const kitPath = await addHeirWithKit(page, { fullName: 'Ada Heir', email: beneficiaryEmail })
    expect(readFileSync(kitPath, 'utf8')).toContain('-----BEGIN PRIVATE KEY-----')
    await uploadFirstItemFor(page, [FILE], 'Ada Heir')

    // A trigger to release with.
    await nav(page, 'Triggers')
    await page.getByRole('button', { name: 'Set Up Verified Death trigger' }).click()
    const create = page.getByRole('dialog', { name: 'Create Trigger' })
    await create.getByRole('button', { name: 'Create Trigger' }).click()
    await create.waitFor({ state: 'detached' })
    await page.screenshot({ path: `${SHOTS}/triggers-1280.png`, fullPage: true })

    // Rehearse, then release for real from the monitor.
    await page.getByRole('link', { name: 'Open Trigger Monitor' }).click()
    await page.getByRole('heading', { name: 'Trigger Monitor' }).waitFor()
    await page.getByTestId('manual-trigger-select').selectOption({ index: 1 })
    await page.getByRole('button', { name: 'Release Now' }).click()
    await poll(() => toastText(page)).toContain('Missing Information')
    await page.getByLabel('Reason').fill('Rehearsal with the family present')
    await page.getByRole('button', { name: 'Dry Run' }).click()
    const dryRun = page.getByTestId('dry-run-result')
    await dryRun.getByText(FILE.name).waitFor()
    await dryRun.getByText('Ada Heir').first().waitFor()
    await page.screenshot({ path: `${SHOTS}/trigger-monitor-dry-run-1280.png`, fullPage: true })

    await page.getByRole('button', { name: 'Release Now' }).click()
    const confirm = page.getByRole('dialog', { name: 'Release now?' })
    const go = confirm.getByRole('button', { name: 'Release Now' })
    expect(await go.isDisabled()).toBe(true)
    await confirm.getByLabel('Type RELEASE to confirm').fill('RELEASE')
    await go.click()
    await confirm.waitFor({ state: 'detached' })
    await poll(() => toastText(page)).toMatch(/1 item/)

    // The audit log records it and its chain verifies in the browser.
    await nav(page, 'Audit')
    await page.getByText('Chain Verified').waitFor()
    await page.getByText(/Manual release/i).first().waitFor()

    // A fired trigger shows its state (not "Set Up"), and the dashboard no longer says 'Protected'.
    await nav(page, 'Triggers')
    const fired = page.getByTestId('trigger-card-verified_death')
    await fired.getByText('Triggered', { exact: true }).waitFor()
    expect(await fired.getByRole('button', { name: /^Set Up/ }).count()).toBe(0)
    await page.getByRole('link', { name: 'Legacy Vault dashboard' }).click()
    await page.getByRole('heading', { name: 'A release from your vault has started' }).waitFor()

    // The beneficiary's side, in a browser of their own. She lost the e-mail: the Access Kit's
    // portal address offers a new link, which she asks for.
    await waitForMail(beneficiaryEmail, /left something for you/)
    const ada = await newPage(browser)
    diagnoseOnFailure(ada.page, 'release', 'beneficiary')
    const sent = recordRequests(ada.context)
    await ada.page.goto(`${baseUrl()}/beneficiary-portal`)
    await ada.page.getByLabel('Your e-mail address').fill('not an address')
    await ada.page.getByRole('button', { name: 'Send me a new link' }).click()
    await ada.page.getByText('Please enter a valid email address').waitFor()
    await ada.page.getByLabel('Your e-mail address').fill(beneficiaryEmail)
    await ada.page.getByRole('button', { name: 'Send me a new link' }).click()
    await ada.page.getByText(/a new link to them is on its way/).waitFor()
    const released = async () => (await outbox()).filter((m) => m.to === beneficiaryEmail && /left something for you/.test(m.subject))
    await poll(async () => (await released()).length).toBe(2)
    const portalUrl = firstLink((await released())[0]!.text, '/beneficiary-portal')
    await ada.page.goto(portalUrl.startsWith('http') ? portalUrl : `${baseUrl()}${portalUrl}`)
    const card = ada.page.getByTestId('released-asset')
    await card.waitFor()
    // "Back to Portal" leads to what she can do next, never to an invalid-link page.
    await ada.page.getByRole('button', { name: 'Back to Portal' }).first().click()
    await ada.page.getByRole('heading', { name: 'Beneficiary Portal' }).waitFor()
    expect(await ada.page.getByText('Invalid Link').count()).toBe(0)
    await ada.page.getByRole('button', { name: 'Open your released assets' }).click()
    await card.waitFor()
    expect(await card.textContent()).toContain('Untitled Asset')
    // A key that is not hers (no kit's fingerprint line, like an older kit): the page says it does
    // not fit, never "loaded" beside it, and offers no download that would do nothing.
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    await ada.page.getByLabel('Private key', { exact: true }).fill(stranger)
    await ada.page.getByRole('button', { name: 'Use this key' }).click()
    await ada.page.getByTestId('key-does-not-fit').getByText(RELEASE_MESSAGES.keyDoesNotFit).waitFor()
    expect(await ada.page.getByText('Private key loaded').count()).toBe(0)
    await card.getByText(RELEASE_MESSAGES.keyDoesNotFitItem).waitFor()
    expect(await card.getByRole('button', { name: 'Download & Decrypt' }).isDisabled()).toBe(true)
    await ada.page.getByRole('button', { name: 'Use another key' }).click()
    await ada.page.locator('input[type=file]').setInputFiles(kitPath)
    await ada.page.getByText('Private key loaded').waitFor()
    await card.getByText(FILE.name).waitFor()
    await ada.page.screenshot({ path: `${SHOTS}/beneficiary-portal-1280.png`, fullPage: true })
    // The heir's page, with the kit opened, passes the accessibility layer too.
    expect(await seriousViolations(ada.page, 'heir portal with released assets')).toEqual([])
    const [file] = await Promise.all([ada.page.waitForEvent('download'), card.getByRole('button', { name: 'Download & Decrypt' }).click()])
    expect(file.suggestedFilename()).toBe(FILE.name)
    expect(readFileSync((await file.path())!).equals(FILE.buffer)).toBe(true)
    await poll(() => card.textContent()).toContain('1/5')

    // The private key and the plaintext never left Ada's browser.
    const kitKey = readFileSync(kitPath, 'utf8').match(/-----BEGIN PRIVATE KEY-----([\s\S]*?)-----END PRIVATE KEY-----/)![1]!.replace(/\s/g, '')
    const body = sent.join('\n')
    expect(body).not.toContain(kitKey.slice(0, 64))
    expect(body).not.toContain('notary on Elm Street')
    expect(body).not.toContain(FILE.name)
    await ada.context.close()
  })

  it('checks in from the triggers page, shows live figures on the dashboard, and exports an audit log that verifies offline', async () => {
    const { page } = await newPage(browser, { width: 390, height: 844 })
    diagnoseOnFailure(page, 'release', 'phone')
    const email = uniqueEmail('audit-owner')
    await registerOwner(page, { email, password: 'a sound password 1', passphrase: PASSPHRASE })
    await page.goto(`${baseUrl()}/triggers`)
    // No inactivity trigger yet: no clock, so no next check-in.
    await poll(() => page.getByTestId('clock-state').textContent()).toBe(CLOCK_MESSAGES.notRunning)
    expect(await page.getByTestId('next-check-in').count()).toBe(0)
    await page.getByRole('button', { name: 'Set Up Inactivity trigger' }).click()
    const create = page.getByRole('dialog', { name: 'Create Trigger' })
    await create.getByRole('button', { name: 'Create Trigger' }).click()
    await create.waitFor({ state: 'detached' })
    await page.getByRole('button', { name: "I'm Still Here" }).click()
    await poll(() => toastText(page)).toContain('Check-in recorded. Your inactivity clock has been reset.')
    await page.getByTestId('next-check-in').waitFor()
    await page.screenshot({ path: `${SHOTS}/triggers-390.png`, fullPage: true })

    await page.goto(`${baseUrl()}/dashboard`)
    // A trigger alone protects nothing: no one has been left anything yet.
    await page.getByRole('heading', { name: 'Not protected yet: add a beneficiary' }).waitFor()
    // The trigger's own weekly check-in (the spec's default) was just reset: next one in 7 days.
    await poll(() => page.getByText(/^[67]d$/).count()).toBeGreaterThan(0)
    await page.screenshot({ path: `${SHOTS}/dashboard-390.png`, fullPage: true })

    await page.goto(`${baseUrl()}/audit`)
    await page.getByText('Chain Verified').waitFor()
    await page.getByRole('button', { name: /Export/ }).click()
    const [exported] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Export as JSON' }).click()])
    const file = JSON.parse(readFileSync((await exported.path())!, 'utf8')) as { entries: AuditEntry[] }
    expect(file.entries.map((e) => e.action)).toEqual(expect.arrayContaining(['trigger.created', 'checkin.recorded']))
    const sha256 = (input: string) => createHash('sha256').update(input).digest('hex')
    expect(await verifyChain(file.entries, sha256)).toMatchObject({ valid: true, brokenAt: null })
    const forged = file.entries.map((e, i) => (i === 0 ? { ...e, details: { ...e.details, forged: true } } : e))
    expect((await verifyChain(forged, sha256)).valid).toBe(false)

    // A long chain: 5 000 more entries, seeded in the object's SQL. The page reads and verifies all
    // of it from the genesis hash, a page at a time, and exports it whole.
    const fill = await fetch(`${baseUrl()}/api/dev/audit-fill`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, count: 5_000 }),
    })
    expect(fill.status).toBe(200)
    await page.getByRole('button', { name: 'Refresh' }).click()
    await poll(() => page.getByTestId('chain-banner').textContent(), { timeout: 30_000 }).toMatch(/Chain Verified.*5,0\d\d entries checked in your browser and confirmed by the server/)
    await page.getByRole('button', { name: /Export/ }).click()
    const [long] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Export as JSON' }).click()])
    const whole = JSON.parse(readFileSync((await long.path())!, 'utf8')) as { entries: AuditEntry[] }
    expect(whole.entries.length).toBeGreaterThan(5_000)
    expect(await verifyChain(whole.entries, sha256)).toMatchObject({ valid: true, checked: whole.entries.length })
    await page.goto(`${baseUrl()}/dashboard`)
    await poll(() => page.getByText('Compromised').count()).toBe(0)
    await page.getByText('Verified', { exact: true }).first().waitFor()
  })

  it("an approver confirms the death and signs the release off through their own links, and is offered no second decision", async () => {
    const { page } = await newPage(browser)
    diagnoseOnFailure(page, 'release', 'death-owner')
    const approverEmail = uniqueEmail('counsel')
    const heirEmail = uniqueEmail('heir')
    const ownerEmail = uniqueEmail('death-owner')
    await registerOwner(page, { email: ownerEmail, password: 'a sound password 1', passphrase: PASSPHRASE })
    await addBeneficiaryThroughUi(page, { fullName: 'Ben Heir', email: heirEmail })
    await page.getByRole('button', { name: 'Add Approver' }).first().click()
    const addApprover = page.getByRole('dialog', { name: 'Add Approver' })
    await addApprover.getByLabel('Full name').fill('Clara Counsel')
    await addApprover.getByLabel('Email').fill(approverEmail)
    await addApprover.getByLabel('Role').fill('Family lawyer')
    await addApprover.getByRole('button', { name: 'Add Approver' }).click()
    await addApprover.waitFor({ state: 'detached' })

    // An item for Ben under Verified Death that needs Clara's sign-off, and the trigger.
    await nav(page, 'Vault')
    await page.getByRole('heading', { name: 'Secure Vault' }).waitFor()
    await poll(() => page.getByTestId('vault-state').textContent()).toBe('Vault unlocked')
    await page.getByRole('button', { name: 'Upload First Item' }).click()
    const upload = page.getByRole('dialog', { name: 'Add Item' })
    await upload.getByTestId('file-input').setInputFiles([{ ...FILE, name: 'instructions-for-ben.txt' }])
    await upload.getByRole('checkbox', { name: /Ben Heir/ }).check()
    await upload.getByRole('switch', { name: 'Requires approver' }).click()
    await upload.getByLabel('Approver contact').fill(approverEmail)
    await upload.getByRole('button', { name: 'Encrypt & Upload', exact: true }).click()
    await upload.waitFor({ state: 'detached', timeout: 30_000 })
    await nav(page, 'Triggers')
    await page.getByRole('button', { name: 'Set Up Verified Death trigger' }).click()
    const create = page.getByRole('dialog', { name: 'Create Trigger' })
    await create.getByRole('button', { name: 'Create Trigger' }).click()
    await create.waitFor({ state: 'detached' })

    // The approver, in a browser of their own, verifies their address only now, after the trigger
    // exists: the report link reaches her all the same.
    const clara = await newPage(browser)
    diagnoseOnFailure(clara.page, 'release', 'approver')
    const invite = await waitForMail(approverEmail, /approver/)
    await clara.page.goto(firstLink(invite.text, '/verify-approver'))
    await clara.page.getByRole('button', { name: 'Complete Verification' }).click()
    await clara.page.getByText('Verification Complete').waitFor()
    await waitForMail(approverEmail, /passes away/)
    // The owner can send it again from the triggers page.
    await page.getByRole('button', { name: 'Resend report links' }).click()
    await poll(() => toastText(page)).toContain('A report link was sent to 1 verified approver.')
    await poll(async () => (await outbox()).filter((m) => m.to === approverEmail && /passes away/.test(m.subject)).length).toBe(2)

    // Clara confirms the death certificate from her standing link.
    const reportMail = await waitForMail(approverEmail, /passes away/)
    await clara.page.goto(firstLink(reportMail.text, '/confirm-death'))
    await clara.page.getByRole('heading', { name: 'Confirm a death' }).waitFor()
    await clara.page.getByRole('button', { name: 'Confirm the death' }).click()
    await clara.page.getByText('Certificate number is required').waitFor()
    await clara.page.getByText('You must confirm that you have seen the death certificate').waitFor()
    await clara.page.getByLabel('Certificate number').fill('DC-2026-0042')
    await clara.page.getByLabel('Date of death').fill('2026-11-20')
    await clara.page.getByRole('checkbox').check()
    await clara.page.getByRole('button', { name: 'Confirm the death' }).click()
    await clara.page.getByText('Confirmation recorded').waitFor()

    // The release waits for her sign-off, which she gives through a link of its own.
    const approval = await waitForMail(approverEmail, /needs your approval/)
    await clara.page.goto(firstLink(approval.text, '/approve-release'))
    await clara.page.getByText('Ben Heir').waitFor()
    await clara.page.screenshot({ path: `${SHOTS}/approve-release-1280.png`, fullPage: true })
    await clara.page.getByRole('button', { name: 'Approve' }).click()
    await poll(() => clara.page.getByText(/approved/i).count()).toBeGreaterThan(0)
    // Once she has decided, her link no longer offers Approve or Reject, though the release still
    // waits on its safety window: after a reload too.
    await clara.page.reload()
    await clara.page.getByText('Ben Heir').waitFor()
    expect(await clara.page.getByRole('button', { name: 'Approve' }).count()).toBe(0)
    expect(await clara.page.getByRole('button', { name: /^Reject/ }).count()).toBe(0)

    // A death report is not the owner acting: nothing is available during the safety window, the
    // owner is e-mailed at once, and their one-click cancel link stops it.
    const started = await waitForMail(ownerEmail, /A release of your vault has started/)
    expect(started.text).toContain('at the earliest')
    await page.goto(firstLink(started.text, '/cancel-release'))
    await page.getByRole('heading', { name: 'A release of your vault is pending' }).waitFor()
    await page.getByRole('button', { name: 'Cancel the release' }).click()
    await page.getByRole('heading', { name: 'Release cancelled' }).waitFor()
    expect((await outbox()).filter((m) => m.to === heirEmail && /left something for you/.test(m.subject))).toEqual([])
    await page.goto(`${baseUrl()}/triggers`)

    await nav(page, 'Triggers')
    await page.getByRole('link', { name: 'Open Trigger Monitor' }).click()
    await page.getByRole('heading', { name: 'Trigger Monitor' }).waitFor()
    await poll(() => page.getByText('Verified Death item').count()).toBeGreaterThan(0)
    await clara.context.close()
  })
})
