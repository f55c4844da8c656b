import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest'
import { RENEWAL_MESSAGES } from '../../contract/renewals'
import { seriousViolations } from './axe'
import { baseUrl, closeContext, firstLink, launch, newPage, registerOwner, toastText, uniqueEmail, waitForMail } from './browser'

// Heirs who run out (issue 0.3 · 5 of 7): an heir whose item reached its download limit asks for
// more time from the portal; the owner allows it through the link e-mailed to them; the heir
// downloads the item again, byte for byte.

const SHOTS = '/tmp/shots'
const PASSPHRASE = 'Harbour-Quill-58-Meadow'

let browser: Browser
let dir: string
beforeAll(async () => {
  browser = await launch()
  mkdirSync(SHOTS, { recursive: true })
  dir = mkdtempSync(join(tmpdir(), 'legacy-vault-renewal-'))
})
afterAll(async () => {
  await browser?.close()
  rmSync(dir, { recursive: true, force: true })
})

const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const absolute = (url: string) => (url.startsWith('http') ? url : `${baseUrl()}${url}`)

function diagnoseOnFailure(page: Page, name: string) {
  const logs: string[] = []
  page.on('console', (msg) => logs.push(`${msg.type()}: ${msg.text()}`))
  onTestFailed(async () => {
    await page.screenshot({ path: `${SHOTS}/renewal-failure-${name}.png`, fullPage: true }).catch(() => undefined)
    console.error(`page log (${name}):\n${logs.join('\n')}`)
  })
}

async function nav(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click()
}

/** Uses up the heir's downloads through the portal's own API (what the page calls), as five earlier visits would have. */
async function useUpDownloads(portalUrl: string) {
  const url = new URL(absolute(portalUrl))
  const id = url.searchParams.get('id')!
  const token = encodeURIComponent(url.searchParams.get('token')!)
  const [asset] = (await (await fetch(`${baseUrl()}/api/beneficiaries/${id}/assets?token=${token}`)).json()) as Array<{ id: string; maxDownloads: number }>
  for (let i = 0; i < asset!.maxDownloads; i++) {
    const ticket = (await (await fetch(`${baseUrl()}/api/beneficiaries/${id}/assets/${asset!.id}/download?token=${token}`)).json()) as { contentUrl: string }
    const content = await fetch(`${baseUrl()}${ticket.contentUrl}`)
    expect(content.status).toBe(200)
    await content.arrayBuffer()
  }
}

describe('heirs who run out', () => {
  it('a renewal approved', async () => {
    const { page } = await newPage(browser)
    diagnoseOnFailure(page, 'owner')
    const ownerEmail = uniqueEmail('renew-owner')
    const heirEmail = uniqueEmail('renew-heir')
    const bytes = randomBytes(3000)
    bytes.write('%PDF-1.7', 0, 'latin1')
    const letter = { name: 'letter-for-ada.pdf', path: join(dir, 'letter-for-ada.pdf'), digest: sha256(bytes) }
    writeFileSync(letter.path, bytes)
    await registerOwner(page, { email: ownerEmail, password: 'a sound password 1', passphrase: PASSPHRASE, displayName: 'Grace Owner' })

    await nav(page, 'Beneficiaries')
    await page.getByRole('heading', { name: 'Beneficiaries', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Add Beneficiary' }).first().click()
    const add = page.getByRole('dialog')
    await add.getByLabel('Full name').fill('Ada Heir')
    await add.getByLabel('Email').fill(heirEmail)
    await add.getByLabel('Relationship').fill('Daughter')
    await add.getByRole('button', { name: 'Add Beneficiary' }).click()
    await add.getByRole('heading', { name: 'Beneficiary Access Kit' }).waitFor()
    const [kitDownload] = await Promise.all([page.waitForEvent('download'), add.getByRole('button', { name: 'Download Access Kit' }).click()])
    const kitPath = join(dir, 'access-kit.txt')
    await kitDownload.saveAs(kitPath)
    await add.getByRole('button', { name: 'Done' }).click()
    await add.waitFor({ state: 'detached' })

    await nav(page, 'Vault')
    await page.getByRole('heading', { name: 'Secure Vault' }).waitFor()
    await page.getByRole('button', { name: 'Upload First Item' }).click()
    const upload = page.getByRole('dialog', { name: 'Add Item' })
    await upload.getByTestId('file-input').setInputFiles(letter.path)
    await upload.getByLabel('Release condition').selectOption('MANUAL_RELEASE')
    await upload.getByRole('checkbox', { name: /Ada Heir/ }).check()
    await upload.getByRole('button', { name: /^Encrypt & Upload/ }).click()
    await upload.waitFor({ state: 'detached', timeout: 60_000 })

    await nav(page, 'Triggers')
    await page.getByRole('button', { name: 'Set Up Verified Death trigger' }).click()
    const create = page.getByRole('dialog', { name: 'Create Trigger' })
    await create.getByRole('button', { name: 'Create Trigger' }).click()
    await create.waitFor({ state: 'detached' })
    await page.getByRole('link', { name: 'Open Trigger Monitor' }).click()
    await page.getByRole('heading', { name: 'Trigger Monitor' }).waitFor()
    await page.getByTestId('manual-trigger-select').selectOption({ index: 1 })
    await page.getByLabel('Reason').fill('The family asked for the letter')
    await page.getByRole('button', { name: 'Release Now' }).click()
    const confirm = page.getByRole('dialog', { name: 'Release now?' })
    await confirm.getByLabel('Type RELEASE to confirm').fill('RELEASE')
    await confirm.getByRole('button', { name: 'Release Now' }).click()
    await confirm.waitFor({ state: 'detached' })
    await poll(() => toastText(page)).toMatch(/1 item/)

    // Ada has used up her downloads; her page says the limit is reached and who can help.
    const released = await waitForMail(heirEmail, /left something for you/)
    const portalUrl = absolute(firstLink(released.text, '/beneficiary-portal'))
    await useUpDownloads(portalUrl)
    const ada = await newPage(browser)
    diagnoseOnFailure(ada.page, 'heir')
    await ada.page.goto(portalUrl)
    const card = ada.page.getByTestId('released-asset')
    await card.waitFor()
    await poll(() => card.textContent()).toContain('5/5')
    const renewal = ada.page.getByTestId('renewal')
    await renewal.getByText(RENEWAL_MESSAGES.whoCanHelp(['Grace Owner'])).waitFor()
    await renewal.getByRole('button', { name: RENEWAL_MESSAGES.askButton }).click()
    const ask = ada.page.getByRole('alertdialog', { name: RENEWAL_MESSAGES.askTitle })
    await ask.getByText(RENEWAL_MESSAGES.askBody(['Grace Owner'], 1)).waitFor()
    expect(await seriousViolations(ada.page, 'ask for more time dialog')).toEqual([])
    await ada.page.screenshot({ path: `${SHOTS}/renewal-ask-1280.png` })
    await ask.getByRole('button', { name: 'Send the request' }).click()
    await ask.waitFor({ state: 'detached' })
    await renewal.getByText(/You asked for more time on/).waitFor()
    expect(await renewal.getByRole('button', { name: RENEWAL_MESSAGES.askButton }).count()).toBe(0)

    // Grace allows it from the link e-mailed to her own address.
    const request = await waitForMail(ownerEmail, /Ada Heir asks for more time/)
    const grace = await newPage(browser)
    diagnoseOnFailure(grace.page, 'decision')
    await grace.page.goto(absolute(firstLink(request.text, '/approve-renewal')))
    await grace.page.getByRole('heading', { name: 'More time for a beneficiary' }).waitFor()
    await grace.page.getByText('Waiting for an answer').waitFor()
    expect(await seriousViolations(grace.page, 'approve-renewal page')).toEqual([])
    await grace.page.screenshot({ path: `${SHOTS}/approve-renewal-1280.png`, fullPage: true })
    await grace.page.getByRole('button', { name: 'Allow more time' }).click()
    await grace.page.getByRole('status').getByText(RENEWAL_MESSAGES.approvedThanks('Ada Heir')).waitFor()
    await grace.page.getByText('You allowed this request.').waitFor()
    await closeContext(grace.context)

    // Ada hears it, and downloads the letter again, byte for byte.
    const allowed = await waitForMail(heirEmail, /download Grace Owner's items again/)
    await ada.page.goto(absolute(firstLink(allowed.text, '/beneficiary-portal')))
    await card.waitFor()
    await poll(() => card.textContent()).toContain('0/5')
    expect(await ada.page.getByTestId('renewal').count()).toBe(0)
    await ada.page.locator('input[type=file]').setInputFiles(kitPath)
    await card.getByText(letter.name).waitFor()
    const [download] = await Promise.all([ada.page.waitForEvent('download', { timeout: 60_000 }), card.getByRole('button', { name: 'Download & Decrypt' }).click()])
    const saved = readFileSync((await download.path())!)
    expect(saved.length).toBe(bytes.length)
    expect(sha256(saved)).toBe(letter.digest)
    await poll(() => card.textContent()).toContain('1/5')
    await closeContext(ada.context)
    await page.context().close()
  }, 180_000)
})
