import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { randomBytes } from 'node:crypto'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest'
import { ESTATE_MESSAGES, ESTATE_PAGE_MESSAGES, type EstateItemFile } from '../../contract/estate-bundle'
import { seriousViolations } from './axe'
import { addBeneficiaryThroughUi, launch, newPage, registerOwner, uniqueEmail } from './browser'
import { readZip } from '../web/zip-reader'

// The estate bundle (0.3 · 5 of 7, item 4b): made on /settings, unzipped here, and one heir's
// folder opened by the bundle's own page from file:// with the network off: the kit's key opens
// the item left to them, byte for byte; the item left to someone else is not in their folder; an
// altered manifest is refused.

const SHOTS = '/tmp/shots'
const PASSPHRASE = 'Harbour-Quill-58-Meadow'
const LETTER = { name: 'letter for Ada.pdf', mimeType: 'application/pdf', buffer: Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(200_000)]) }
const OTHER = { name: 'for Ben only.txt', mimeType: 'text/plain', buffer: Buffer.from('Only Ben should have this.\n'.repeat(20)) }

let browser: Browser
let work: string
beforeAll(async () => {
  browser = await launch()
  mkdirSync(SHOTS, { recursive: true })
  work = mkdtempSync(join(tmpdir(), 'estate-e2e-'))
})
afterAll(async () => {
  await browser?.close()
  rmSync(work, { recursive: true, force: true })
})

function logOnFailure(page: Page, name: string) {
  const logs: string[] = []
  page.on('console', (msg) => logs.push(`${msg.type()}: ${msg.text()}`))
  page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`))
  onTestFailed(async () => {
    await page.screenshot({ path: `${SHOTS}/estate-failure-${name}.png`, fullPage: true }).catch(() => undefined)
    console.error(`page log (${name}):\n${logs.join('\n')}`)
  })
}

async function upload(page: Page, file: typeof LETTER, to: string) {
  const button = page.getByRole('button', { name: 'Upload First Item' }).or(page.getByRole('button', { name: 'Add Item' }))
  await button.first().click()
  const dialog = page.getByRole('dialog', { name: 'Add Item' })
  await dialog.getByTestId('file-input').setInputFiles([file])
  await dialog.getByLabel('Release condition').selectOption('MANUAL_RELEASE')
  await dialog.getByRole('checkbox', { name: new RegExp(to) }).check()
  await dialog.getByRole('button', { name: /^Encrypt & Upload/ }).click()
  await dialog.waitFor({ state: 'detached', timeout: 60_000 })
}

/** The offline page from a folder on disk, in a context with the network off and every non-file request aborted. */
async function openOffline(folder: string, kit: string) {
  const context = await browser.newContext({ acceptDownloads: true })
  const requests: string[] = []
  await context.route('**/*', (route) => {
    const url = route.request().url()
    if (url.startsWith('file:') || url.startsWith('blob:') || url.startsWith('data:')) return route.continue()
    requests.push(url)
    return route.abort()
  })
  await context.setOffline(true)
  const page = await context.newPage()
  logOnFailure(page, 'offline')
  await page.goto(pathToFileURL(join(folder, 'open-estate.html')).href)
  await page.getByRole('heading', { name: 'Open your estate bundle' }).waitFor()
  await page.getByLabel('Paste your Access Kit').fill(kit)
  await page.getByLabel('Or select all the files in it').setInputFiles(readdirSync(folder).map((f) => join(folder, f)))
  await page.getByRole('button', { name: 'Check and decrypt' }).click()
  await page.getByRole('list', { name: 'Your files' }).getByRole('listitem').first().waitFor()
  return { context, page, requests }
}

describe('the estate bundle', () => {
  it('is made on /settings and opens offline from its own page with the heir’s kit, refusing what was altered', async () => {
    const { page } = await newPage(browser)
    logOnFailure(page, 'owner')
    await registerOwner(page, { email: uniqueEmail('estate-owner'), password: 'a sound password 1', passphrase: PASSPHRASE })

    // Ada, whose kit is kept; Ben, who gets the other item.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Beneficiaries' }).click()
    await page.getByRole('heading', { name: 'Beneficiaries', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Add Beneficiary' }).first().click()
    const add = page.getByRole('dialog')
    await add.getByLabel('Full name').fill('Ada Heir')
    await add.getByLabel('Email').fill(uniqueEmail('estate-ada'))
    await add.getByLabel('Relationship').fill('Daughter')
    await add.getByRole('button', { name: 'Add Beneficiary' }).click()
    await add.getByRole('heading', { name: 'Beneficiary Access Kit' }).waitFor()
    const [kitDownload] = await Promise.all([page.waitForEvent('download'), add.getByRole('button', { name: 'Download Access Kit' }).click()])
    const kit = readFileSync((await kitDownload.path())!, 'utf8')
    await add.getByRole('button', { name: 'Done' }).click()
    await add.waitFor({ state: 'detached' })
    await addBeneficiaryThroughUi(page, { fullName: 'Ben Heir' }, PASSPHRASE)

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vault' }).click()
    await expect.poll(() => page.getByTestId('vault-state').textContent(), { timeout: 20_000 }).toBe('Vault unlocked')
    await upload(page, LETTER, 'Ada Heir')
    await upload(page, OTHER, 'Ben Heir')

    await page.getByRole('button', { name: 'Account menu' }).click()
    await page.getByRole('menuitem', { name: 'Settings' }).click()
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor()
    const make = page.getByRole('button', { name: ESTATE_MESSAGES.button })
    await make.scrollIntoViewIfNeeded()
    expect(await seriousViolations(page, 'settings with the estate card')).toEqual([])
    await make.click()
    const dialog = page.getByRole('dialog', { name: ESTATE_MESSAGES.confirmTitle })
    await dialog.getByText(ESTATE_MESSAGES.willHold(2, 2)).waitFor()
    expect(await seriousViolations(page, 'estate confirmation')).toEqual([])
    await page.screenshot({ path: `${SHOTS}/estate-confirm-1280.png` })
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), dialog.getByRole('button', { name: 'Download', exact: true }).click()])
    expect(download.suggestedFilename()).toMatch(/^estate-bundle-\d{4}-\d{2}-\d{2}\.zip$/)
    const entries = readZip(new Uint8Array(readFileSync((await download.path())!)))
    await dialog.waitFor({ state: 'detached' })

    // Unzipped; the letter is Ada's only item (Ben's is not in her folder); nothing in the bundle is plaintext.
    const root = join(work, 'bundle')
    for (const e of entries) {
      mkdirSync(dirname(join(root, e.name)), { recursive: true })
      writeFileSync(join(root, e.name), e.bytes)
    }
    const adaFolder = join(root, 'Ada Heir')
    const adaItems = readdirSync(adaFolder).filter((f) => f.endsWith('.bin'))
    expect(adaItems).toHaveLength(1)
    const benItems = readdirSync(join(root, 'Ben Heir')).filter((f) => f.endsWith('.bin'))
    expect(benItems).toHaveLength(1)
    expect(benItems).not.toContain(adaItems[0])
    const sample = LETTER.buffer.subarray(1000, 1064)
    for (const e of entries) expect(Buffer.from(e.bytes).includes(sample), e.name).toBe(false)

    // Offline: the letter decrypts to its bytes under its own name.
    const offline = await openOffline(adaFolder, kit)
    const link = offline.page.getByRole('link', { name: `Save ${LETTER.name}` })
    const [saved] = await Promise.all([offline.page.waitForEvent('download'), link.click()])
    expect(saved.suggestedFilename()).toBe(LETTER.name)
    expect(readFileSync((await saved.path())!).equals(LETTER.buffer)).toBe(true)
    expect(await seriousViolations(offline.page, 'offline page')).toEqual([])
    await offline.page.screenshot({ path: `${SHOTS}/estate-offline-1280.png`, fullPage: true })
    expect(offline.requests).toEqual([])
    await offline.context.close()

    // The same folder with its manifest altered: refused, nothing offered.
    const altered = join(work, 'altered')
    mkdirSync(altered)
    for (const f of readdirSync(adaFolder)) writeFileSync(join(altered, f), readFileSync(join(adaFolder, f)))
    const jsonName = adaItems[0]!.replace(/\.bin$/, '.json')
    const item = JSON.parse(readFileSync(join(altered, jsonName), 'utf8')) as EstateItemFile
    item.manifest = item.manifest!.replace(/^size \d+$/m, `size ${LETTER.buffer.length + 1}`)
    item.plainSize = LETTER.buffer.length + 1
    writeFileSync(join(altered, jsonName), JSON.stringify(item))
    const refused = await openOffline(altered, kit)
    await refused.page.getByText(ESTATE_PAGE_MESSAGES.notSealed).waitFor()
    expect(await refused.page.getByRole('link', { name: /^Save / }).count()).toBe(0)
    await refused.context.close()
  }, 180_000)
})
