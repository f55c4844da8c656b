import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Download, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addBeneficiaryThroughUi, closeContext, launch, newPage, registerOwner, safeRoute, toastText, uniqueEmail } from './browser'
import { diagnoseOnFailure, ESTATE_PASSPHRASE as PASSPHRASE, nav, releasedEstate, SHOTS } from './estate'

// Streamed downloads (issue 19 item 2): in an automated Chromium there is no save picker, so the
// owner's and the heir's downloads decrypt chunk by chunk into a stream that the same-origin
// download Service Worker (/downloads/sw.js) answers at /downloads/<id>, and the browser saves to
// disk. The saved file is byte for byte the original; a tampered chunk fails the download with the
// page's error instead of saving a complete-looking file; a photo too large to preview says so.

const MiB = 1024 * 1024
const CHUNK_CIPHER = 8 * MiB + 29 // one encrypted chunk (contract/vault-items UPLOAD_CHUNK_BYTES + 29)

let browser: Browser
let dir: string
beforeAll(async () => {
  browser = await launch()
  mkdirSync(SHOTS, { recursive: true })
  dir = mkdtempSync(join(tmpdir(), 'legacy-vault-stream-'))
})
afterAll(async () => {
  await browser?.close()
  rmSync(dir, { recursive: true, force: true })
})

const poll = <T,>(fn: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(fn, { timeout: 15_000, ...options })
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

function recordRequests(context: BrowserContext): string[] {
  const sent: string[] = []
  context.on('request', (r) => sent.push(`${r.method()} ${r.url()}\n${r.postDataBuffer()?.toString('latin1') ?? ''}`))
  return sent
}

/** A file of random bytes behind a recognisable header, written to disk for the file input. */
function makeFile(name: string, size: number, header: string) {
  const bytes = randomBytes(size)
  bytes.write(header, 0, 'latin1')
  const path = join(dir, name)
  writeFileSync(path, bytes)
  return { name, path, bytes, digest: sha256(bytes) }
}

/** The download went through the download worker (not a blob: URL) and saved exactly these bytes. */
async function expectStreamedCopy(download: Download, file: { name: string; bytes: Buffer; digest: string }) {
  expect(new URL(download.url()).pathname).toMatch(/^\/downloads\/[A-Za-z0-9_-]{22}$/)
  expect(download.suggestedFilename()).toBe(file.name)
  const saved = readFileSync((await download.path())!)
  expect(saved.length).toBe(file.bytes.length)
  expect(sha256(saved)).toBe(file.digest)
  await download.delete()
}

/** The response to the content GET with one byte flipped in its second encrypted chunk. */
async function tamperContent(page: Page, pattern: string | RegExp) {
  await safeRoute(page, pattern, async (route) => {
    const response = await route.fetch()
    const body = await response.body()
    body[CHUNK_CIPHER + 100]! ^= 0x01
    await route.fulfill({ response, body })
  })
}

/** A download that starts and must then fail, leaving no finished file. */
async function expectFailedDownload(page: Page, click: () => Promise<void>) {
  const started = page.waitForEvent('download', { timeout: 60_000 }).catch(() => null)
  await click()
  const download = await started
  // The first chunk went out before the second failed to authenticate, so the browser had begun
  // saving; the failed stream interrupts it and nothing is finished as if complete.
  expect(download).not.toBeNull()
  expect(await download!.failure()).not.toBeNull()
  expect(await download!.path().catch(() => null)).toBeNull()
}

describe('streamed downloads', () => {
  it("the owner's download streams through the download worker, fails on a tampered chunk, and a large photo's preview is refused with the reason", async () => {
    const { context, page } = await newPage(browser)
    diagnoseOnFailure(page, 'streamed-download', 'owner')
    const sent = recordRequests(context)
    // 51 MiB: over the preview limit (50 MiB), seven encrypted chunks.
    const photo = makeFile('harbour-panorama.png', 51 * MiB, '\x89PNG\r\n\x1a\n')
    await registerOwner(page, { email: uniqueEmail('stream-owner'), password: 'a sound password 1', passphrase: PASSPHRASE })
    await addBeneficiaryThroughUi(page, { fullName: 'Ada Heir' })
    await nav(page, 'Vault')
    await page.getByRole('heading', { name: 'Secure Vault' }).waitFor()
    await page.getByRole('button', { name: 'Upload First Item' }).click()
    const upload = page.getByRole('dialog', { name: 'Add Item' })
    await upload.getByTestId('file-input').setInputFiles(photo.path)
    await upload.getByRole('checkbox', { name: /Ada Heir/ }).check()
    await upload.getByRole('button', { name: /^Encrypt & Upload/ }).click()
    await upload.waitFor({ state: 'detached', timeout: 120_000 })

    // A tampered second chunk: the download starts, then fails, and the page says why.
    await tamperContent(page, '**/api/vault/items/*/content')
    await expectFailedDownload(page, () => page.getByRole('button', { name: `Download ${photo.name}` }).click())
    await poll(() => toastText(page)).toContain('Download Failed')
    await page.unroute('**/api/vault/items/*/content')

    // The preview is refused in plain words, and its Download streams the file to disk.
    await page.getByRole('button', { name: `Preview ${photo.name}` }).click()
    const preview = page.getByRole('dialog', { name: photo.name })
    await preview.getByTestId('preview-refused').getByText('This file is too large to preview here. Download it instead.').waitFor()
    expect(await preview.getByRole('img').count()).toBe(0)
    await page.screenshot({ path: `${SHOTS}/vault-preview-too-large-1280.png` })
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), preview.getByRole('button', { name: 'Download' }).click()])
    await expectStreamedCopy(download, photo)
    await preview.waitFor({ state: 'detached' })

    // The worker controls only /downloads/: the app's own pages have no controller.
    expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull()
    const scopes = await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).map((r) => new URL(r.scope).pathname))
    expect(scopes).toEqual(['/downloads/'])

    // Nothing the page sent carries the name or the bytes: the stream stayed in the browser.
    const body = sent.join('\n')
    expect(body).not.toContain(photo.name)
    expect(body).not.toContain(photo.bytes.subarray(1000, 1064).toString('latin1'))
    await closeContext(context)
  }, 300_000)

  it("the heir's download streams through the download worker too, byte for byte, and fails on a tampered chunk", async () => {
    const { page } = await newPage(browser)
    diagnoseOnFailure(page, 'streamed-download', 'owner-of-heir')
    // Two encrypted chunks.
    const letter = makeFile('letter-for-ada.pdf', 9 * MiB, '%PDF-1.7')
    // Ada, in a browser of her own, from the e-mailed link.
    const { kitPath, portalUrl } = await releasedEstate(page, { files: letter.path })
    const ada = await newPage(browser)
    diagnoseOnFailure(ada.page, 'streamed-download', 'heir')
    const sent = recordRequests(ada.context)
    await ada.page.goto(portalUrl)
    const card = ada.page.getByTestId('released-asset')
    await card.waitFor()
    await ada.page.locator('input[type=file]').setInputFiles(kitPath)
    await card.getByText(letter.name).waitFor()

    const [download] = await Promise.all([ada.page.waitForEvent('download', { timeout: 60_000 }), card.getByRole('button', { name: 'Download & Decrypt' }).click()])
    await expectStreamedCopy(download, letter)
    await poll(() => toastText(ada.page)).toContain('Download complete')
    await poll(() => card.textContent()).toContain('1/5')

    await tamperContent(ada.page, /\/api\/beneficiaries\/[^/]+\/assets\/[^/]+\/content\?ticket=/)
    await expectFailedDownload(ada.page, () => card.getByRole('button', { name: 'Download & Decrypt' }).click())
    await poll(() => toastText(ada.page)).toContain('Download Failed')

    const body = sent.join('\n')
    expect(body).not.toContain(letter.name)
    expect(body).not.toContain(letter.bytes.subarray(1000, 1064).toString('latin1'))
    await closeContext(ada.context)
    await page.context().close()
  }, 300_000)
})
