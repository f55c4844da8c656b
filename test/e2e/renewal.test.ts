import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RENEWAL_MESSAGES } from '../../contract/renewals'
import { seriousViolations } from './axe'
import { baseUrl, closeContext, firstLink, launch, newPage, waitForMail } from './browser'
import { diagnoseOnFailure, releasedEstate, SHOTS } from './estate'

// Heirs who run out (issue 0.3 · 5 of 7): an heir whose item reached its download limit asks for
// more time from the portal; the owner allows it through the link e-mailed to them; the heir
// downloads the item again, byte for byte.

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
    diagnoseOnFailure(page, 'renewal', 'owner')
    const bytes = randomBytes(3000)
    bytes.write('%PDF-1.7', 0, 'latin1')
    const letter = { name: 'letter-for-ada.pdf', path: join(dir, 'letter-for-ada.pdf'), digest: sha256(bytes) }
    writeFileSync(letter.path, bytes)
    const { ownerEmail, heirEmail, kitPath, portalUrl } = await releasedEstate(page, { files: letter.path })

    // Ada has used up her downloads; her page says the limit is reached and who can help.
    await useUpDownloads(portalUrl)
    const ada = await newPage(browser)
    diagnoseOnFailure(ada.page, 'renewal', 'heir')
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
    diagnoseOnFailure(grace.page, 'renewal', 'decision')
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
