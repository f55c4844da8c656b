import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addBeneficiaryThroughUi, launch, newPage, registerOwner, uniqueEmail } from './browser'

// A large file through the real pipeline: 60 MB is 8 encrypted chunks, so 8 R2 multipart parts.
const SIZE = 60 * 1024 * 1024
const PASSPHRASE = 'Harbour Lantern 42 Orchard!'

let browser: Browser
let dir: string
let path: string
let digest: string
beforeAll(async () => {
  browser = await launch()
  dir = mkdtempSync(join(tmpdir(), 'legacy-vault-large-'))
  path = join(dir, 'archive.pdf')
  const bytes = randomBytes(SIZE)
  bytes.write('%PDF-1.7', 0) // a PDF by its first bytes, so the dropzone accepts it by name and type
  writeFileSync(path, bytes)
  digest = createHash('sha256').update(bytes).digest('hex')
})
afterAll(async () => {
  await browser?.close()
  rmSync(dir, { recursive: true, force: true })
})


describe('a 60 MB file', () => {
  it('is encrypted in the browser, uploaded in parts, and comes back byte for byte after a reload', async () => {
    const { context, page } = await newPage(browser)
    let partRequests = 0
    page.on('request', (request) => {
      if (/\/api\/vault\/uploads\/[^/]+\/parts\/\d+$/.test(request.url())) partRequests++
    })
    await registerOwner(page, { email: uniqueEmail('large'), password: 'a sound password 1', passphrase: PASSPHRASE })
    await addBeneficiaryThroughUi(page, { fullName: 'Large Heir', relationship: 'Son' })
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vault' }).click()
    await page.getByRole('button', { name: 'Upload First Item' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add Item' })
    await dialog.getByTestId('file-input').setInputFiles(path)
    await dialog.getByRole('checkbox', { name: /Large Heir/ }).check()
    await dialog.getByRole('button', { name: /^Encrypt & Upload/ }).click()
    await dialog.getByRole('progressbar', { name: 'Upload progress for archive.pdf' }).waitFor()
    await dialog.waitFor({ state: 'detached', timeout: 120_000 })
    expect(partRequests).toBe(8)

    // A reload drops the key: unlock, then download and compare.
    await page.reload()
    const unlock = page.getByRole('dialog', { name: 'Unlock Your Vault' })
    await unlock.getByLabel('Vault passphrase').fill(PASSPHRASE)
    await unlock.getByRole('button', { name: 'Unlock Vault' }).click()
    await unlock.waitFor({ state: 'detached' })
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 120_000 }),
      page.getByRole('button', { name: 'Download archive.pdf' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('archive.pdf')
    const saved = readFileSync((await download.path())!)
    expect(saved.length).toBe(SIZE)
    expect(createHash('sha256').update(saved).digest('hex')).toBe(digest)
    await context.close()
  }, 240_000)
})
