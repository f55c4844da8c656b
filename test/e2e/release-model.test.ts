import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH_TOKEN_STORAGE_KEY } from '../../contract/constants'
import { RELEASE_MESSAGES } from '../../contract/releases'
import { parseEmailDate } from '../../worker/mail/dates'
import { seriousViolations } from './axe'
import { baseUrl, closeContext, firstLink, launch, newPage, outbox, registerOwner, toastText, uniqueEmail, waitForMail } from './browser'
import { addHeirWithKit, nav, uploadFirstItemFor } from './estate'

// The release model in a browser (0.3 · 1 of 7): a death report under a 0-hour policy makes
// nothing available before the safety window, and the owner is told the real time; a cancel after
// items became available withdraws them: the heir's next download fails in words, and the heir is
// told by e-mail. Setup the pages are not about goes through the API with the owner's session.

const PASSPHRASE = 'Lantern-Orchard-31-Pebble'
const FILE = { name: 'bank-passwords.txt', mimeType: 'text/plain', buffer: Buffer.from('Savings: 1234-5678\nPIN is with the notary.\n') }
const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

/** The owner's API, called from their page with their session (for setup the test is not about). */
async function api<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await page.evaluate(
    async ({ method, path, body, key }) => {
      const res = await fetch(path, {
        method,
        headers: { authorization: `Bearer ${localStorage.getItem(key)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return { status: res.status, text: await res.text() }
    },
    { method, path, body, key: AUTH_TOKEN_STORAGE_KEY },
  )
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`)
  return JSON.parse(answer.text) as T
}

/** An owner with a beneficiary (Access Kit saved to disk) and one file for them under `protocol`. */
async function ownerWithFile(protocol: string) {
  const { context, page } = await newPage(browser)
  const ownerEmail = uniqueEmail('model-owner')
  const heirEmail = uniqueEmail('model-heir')
  await registerOwner(page, { email: ownerEmail, password: 'a sound password 1', passphrase: PASSPHRASE })
  const kitPath = await addHeirWithKit(page, { fullName: 'Nora Heir', email: heirEmail, relationship: 'Niece' })
  await uploadFirstItemFor(page, [FILE], 'Nora Heir', protocol)
  const [item] = await api<Array<{ id: string }>>(page, 'GET', '/api/vault/items')
  const [heir] = await api<Array<{ id: string }>>(page, 'GET', '/api/beneficiaries')
  return { context, page, ownerEmail, heirEmail, kitPath, itemId: item!.id, heirId: heir!.id }
}

describe('the release model in the browser', () => {
  it('a 0-hour policy and one death report: the heir gets nothing, the owner is told the real time and cancels', async () => {
    const o = await ownerWithFile('MANUAL_RELEASE')
    // A policy on Verified Death with no delay covering the file, an approver, the trigger.
    const policy = await api<{ id: string }>(o.page, 'POST', '/api/policies', {
      name: 'At once on death',
      description: 'Everything for Nora the moment I die.',
      ruleJson: { assign: [{ beneficiaryId: o.heirId, access: 'read' }], release: { on: ['verified_death'], delayHours: 0, requiresApprover: false } },
      encryptedSelectors: btoa('sealed selectors'),
      wrappedKey: btoa('wrapped policy key'),
      requiresApprover: false,
      requiresIdentityVerification: false,
      identityVerificationApprovers: [],
      requiredDocumentTypes: [],
      minimumApprovals: 1,
      status: 'active',
    })
    await api(o.page, 'PUT', `/api/policies/${policy.id}/items`, { itemIds: [o.itemId] })
    const approverEmail = uniqueEmail('model-approver')
    await api(o.page, 'POST', '/api/approvers', { fullName: 'Otto Approver', email: approverEmail, role: 'Brother', sendVerificationEmail: true })
    const invite = await waitForMail(approverEmail, /approver/)
    const verify = await fetch(`${baseUrl()}/api/approvers/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: new URL(firstLink(invite.text, '/verify-approver')).searchParams.get('token') }),
    })
    expect(verify.status).toBe(200)
    await api(o.page, 'POST', '/api/triggers', { type: 'verified_death', config: {}, status: 'active' })

    // The approver reports, through their page.
    const reportMail = await waitForMail(approverEmail, /passes away/)
    const otto = await newPage(browser)
    await otto.page.goto(firstLink(reportMail.text, '/confirm-death'))
    await otto.page.getByLabel('Certificate number').fill('DC-0-HOUR')
    await otto.page.getByLabel('Date of death').fill('2026-11-20')
    await otto.page.getByRole('checkbox').check()
    const reportedAt = Date.now()
    await otto.page.getByRole('button', { name: 'Confirm the death' }).click()
    await otto.page.getByText('Confirmation recorded').waitFor()

    // The owner is e-mailed the engine's time: the window later, not now.
    const started = await waitForMail(o.ownerEmail, /A release of your vault has started/)
    const earliest = parseEmailDate(/at (.+?\)) at the earliest/.exec(started.text)![1]!)
    expect(earliest - reportedAt).toBeGreaterThan(71 * 3_600_000)
    // The heir's portal has nothing: no link was sent, and asking for one sends none.
    const heir = await newPage(browser)
    await heir.page.goto(`${baseUrl()}/beneficiary-portal`)
    await heir.page.getByLabel('Your e-mail address').fill(o.heirEmail)
    await heir.page.getByRole('button', { name: 'Send me a new link' }).click()
    await heir.page.getByText(/a new link to them is on its way/).waitFor()
    await new Promise((r) => setTimeout(r, 1_500))
    expect((await outbox()).filter((m) => m.to === o.heirEmail && /left something for you|portal/i.test(m.subject))).toEqual([])

    // The cancel page says nothing was available, and what cancelling does.
    await o.page.goto(firstLink(started.text, '/cancel-release'))
    await o.page.getByRole('heading', { name: 'A release of your vault is pending' }).waitFor()
    await o.page.getByText('Nothing has been made available to anyone yet.').waitFor()
    expect(await seriousViolations(o.page, 'cancel-release page')).toEqual([])
    await o.page.getByRole('button', { name: 'Cancel the release' }).click()
    await o.page.getByRole('heading', { name: 'Release cancelled' }).waitFor()
    await o.page.getByText('Nothing had been made available to anyone.').waitFor()
    // The used report link starts nothing again.
    const replay = await fetch(`${baseUrl()}/api/death-reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: new URL(firstLink(reportMail.text, '/confirm-death')).searchParams.get('token'), certificateNumber: 'DC-AGAIN', dateOfDeath: '2026-11-20', attest: true }),
    })
    expect(replay.status).toBe(400)
    // The dashboard is back to the truth at once.
    await o.page.goto(`${baseUrl()}/dashboard`)
    await o.page.getByRole('heading', { level: 1 }).waitFor()
    await poll(() => o.page.getByRole('heading', { name: 'A release from your vault has started' }).count()).toBe(0)
    await closeContext(otto.context)
    await closeContext(heir.context)
    await closeContext(o.context)
  })

  it('a cancel after the heir could download: the next download fails in words, and the heir is told', async () => {
    const o = await ownerWithFile('MANUAL_RELEASE')
    await nav(o.page, 'Triggers')
    await o.page.getByRole('button', { name: 'Set Up Verified Death trigger' }).click()
    const create = o.page.getByRole('dialog', { name: 'Create Trigger' })
    await create.getByRole('button', { name: 'Create Trigger' }).click()
    await create.waitFor({ state: 'detached' })
    await o.page.getByRole('link', { name: 'Open Trigger Monitor' }).click()
    await o.page.getByTestId('manual-trigger-select').selectOption({ index: 1 })
    await o.page.getByLabel('Reason').fill('Handing over the passwords')
    await o.page.getByRole('button', { name: 'Release Now' }).click()
    const confirm = o.page.getByRole('dialog', { name: 'Release now?' })
    await confirm.getByLabel('Type RELEASE to confirm').fill('RELEASE')
    await confirm.getByRole('button', { name: 'Release Now' }).click()
    await poll(() => toastText(o.page)).toContain('1 release started. 1 item available now in 1 delivery')

    // The heir downloads once.
    const released = await waitForMail(o.heirEmail, /left something for you/)
    const heir = await newPage(browser)
    await heir.page.goto(firstLink(released.text, '/beneficiary-portal'))
    const card = heir.page.getByTestId('released-asset')
    await card.waitFor()
    await heir.page.locator('input[type=file]').setInputFiles(o.kitPath)
    await card.getByText(FILE.name).waitFor()
    const [file] = await Promise.all([heir.page.waitForEvent('download'), card.getByRole('button', { name: 'Download & Decrypt' }).click()])
    expect(readFileSync((await file.path())!).equals(FILE.buffer)).toBe(true)

    // The owner's cancel page says what is available and what was already downloaded.
    const started = await waitForMail(o.ownerEmail, /A release of your vault has started/)
    await o.page.goto(firstLink(started.text, '/cancel-release'))
    await o.page.getByRole('heading', { name: 'Items from your vault are available to your beneficiaries' }).waitFor()
    await o.page.getByText(/One item is available to your beneficiaries now/).waitFor()
    const copies = o.page.getByTestId('downloaded-copies')
    await copies.getByText(/A document .* by Nora Heir/).waitFor()
    await copies.getByText(/cannot be taken back/).waitFor()
    await o.page.screenshot({ path: '/tmp/shots/cancel-release-available-1280.png', fullPage: true }).catch(() => undefined)
    expect(await o.page.getByText('Nothing has been released yet.').count()).toBe(0)
    await o.page.getByRole('button', { name: 'Cancel the release' }).click()
    await o.page.getByRole('heading', { name: 'Release cancelled' }).waitFor()
    await o.page.getByText(/One item that was available to your beneficiaries has been withdrawn/).waitFor()

    // The heir's next download fails, in the heir's words; after a reload the card says so too.
    await card.getByRole('button', { name: 'Download & Decrypt' }).click()
    await poll(async () => (await heir.page.textContent('body')) ?? '').toContain(RELEASE_MESSAGES.assetWithdrawn('Grace Owner'))
    await heir.page.reload()
    await card.getByText('Withdrawn').waitFor()
    await heir.page.screenshot({ path: '/tmp/shots/heir-withdrawn-1280.png', fullPage: true }).catch(() => undefined)
    expect(await card.getByRole('button', { name: 'Download & Decrypt' }).isDisabled()).toBe(true)
    expect(await seriousViolations(heir.page, 'heir portal, withdrawn')).toEqual([])
    const told = await waitForMail(o.heirEmail, /has withdrawn a release to you/)
    expect(told.text).toContain('can no longer be downloaded')
    await closeContext(heir.context)
    await closeContext(o.context)
  })
})
