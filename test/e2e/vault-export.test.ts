import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync } from 'node:fs'
import type { Browser, Download, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH_TOKEN_STORAGE_KEY } from '../../contract/constants'
import { RELEASE_MESSAGES } from '../../contract/releases'
import { EXPORT_MESSAGES, type ExportManifest } from '../../contract/vault-export'
import { seriousViolations } from './axe'
import { firstLink, launch, newPage, registerOwner, safeRoute, toastText, uniqueEmail, waitForMail } from './browser'
import { addHeirWithKit, diagnoseOnFailure, ESTATE_PASSPHRASE as PASSPHRASE, nav, releaseNow, SHOTS } from './estate'
import { readZip, type ZipEntry } from '../web/zip-reader'

// Taking the vault out (0.3 · 5 of 7): the owner's "Download my vault" on /settings and the heir's
// "Download all" on the portal. Each streams one ZIP through the download worker; the saved ZIP
// passes `unzip -t`, and every file in it is byte for byte what was uploaded, the password entry a
// text file, with a manifest of names, types, sizes, dates and tags. The owner's export enters the
// audit chain; the heir's counts one download per item, as single downloads do.

const MiB = 1024 * 1024
const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000 })

function file(name: string, mimeType: string, buffer: Buffer) {
  return { name, mimeType, buffer }
}
// Two encrypted chunks, a name beyond ASCII, a small image.
const LETTER = file('letter for Ada.pdf', 'application/pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(9 * MiB)]))
const NOTES = file('Notizen für Ada – 日本.txt', 'text/plain', Buffer.from('The deeds are with the notary on Elm Street.\n'.repeat(30)))
const PHOTO = file('harbour.png', 'image/png', Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), randomBytes(3000)]))
const FILES = [LETTER, NOTES, PHOTO]
const ENTRY = { site: 'credit-union.example', username: 'grace.owner.77', password: 'Tr0ub4dor&3-Velvet', notes: 'PIN hint: Rex' }
const TAGS = ['family', 'papers']

let browser: Browser
let owner: Page
let heirEmail: string
let kitPath: string
beforeAll(async () => {
  browser = await launch()
  mkdirSync(SHOTS, { recursive: true })
})
afterAll(async () => {
  await browser?.close()
})

async function api<T>(page: Page, path: string): Promise<T> {
  const answer = await page.evaluate(
    async ({ path, key }) => {
      const res = await fetch(path, { headers: { authorization: `Bearer ${localStorage.getItem(key)}` } })
      return { status: res.status, text: await res.text() }
    },
    { path, key: AUTH_TOKEN_STORAGE_KEY },
  )
  if (answer.status >= 300) throw new Error(`GET ${path}: ${answer.status} ${answer.text}`)
  return JSON.parse(answer.text) as T
}

/** The saved ZIP: streamed through the download worker, whole by `unzip -t`, and read. */
async function savedZip(download: Download, namePrefix: string): Promise<{ entries: ZipEntry[]; manifest: ExportManifest; listing: string }> {
  expect(new URL(download.url()).pathname).toMatch(/^\/downloads\/[A-Za-z0-9_-]{22}$/)
  expect(download.suggestedFilename()).toMatch(new RegExp(`^${namePrefix}-\\d{4}-\\d{2}-\\d{2}\\.zip$`))
  const path = (await download.path())!
  const listing = execFileSync('unzip', ['-t', path], { encoding: 'utf8' })
  expect(listing).toContain('No errors detected')
  const entries = readZip(new Uint8Array(readFileSync(path)))
  const manifest = JSON.parse(new TextDecoder().decode(entries.find((e) => e.name === 'manifest.json')!.bytes)) as ExportManifest
  return { entries, manifest, listing }
}

const bytesOf = (entries: ZipEntry[], name: string) => Buffer.from(entries.find((e) => e.name === name)?.bytes ?? [])

describe('taking the vault out', () => {
  it('Download my vault: a confirmation, then one streamed ZIP with every item decrypted and a manifest, recorded in the audit chain', async () => {
    const { page } = await newPage(browser)
    owner = page
    diagnoseOnFailure(page, 'vault-export', 'owner')
    heirEmail = uniqueEmail('export-heir')
    await registerOwner(page, { email: uniqueEmail('export-owner'), password: 'a sound password 1', passphrase: PASSPHRASE })

    kitPath = await addHeirWithKit(page, { fullName: 'Ada Heir', email: heirEmail })

    await nav(page, 'Vault')
    await poll(() => page.getByTestId('vault-state').textContent()).toBe('Vault unlocked')
    await page.getByRole('button', { name: 'Upload First Item' }).click()
    const upload = page.getByRole('dialog', { name: 'Add Item' })
    await upload.getByTestId('file-input').setInputFiles(FILES)
    await upload.getByLabel('Tags').fill(TAGS.join(', '))
    await upload.getByLabel('Release condition').selectOption('MANUAL_RELEASE')
    await upload.getByRole('checkbox', { name: /Ada Heir/ }).check()
    await upload.getByRole('button', { name: /^Encrypt & Upload/ }).click()
    await upload.waitFor({ state: 'detached', timeout: 60_000 })

    await page.getByRole('button', { name: 'Add Item' }).click()
    await upload.getByRole('group', { name: 'Categories' }).getByRole('button', { name: /Passwords/ }).click()
    await upload.getByLabel('Site or service').fill(ENTRY.site)
    await upload.getByLabel('Username').fill(ENTRY.username)
    await upload.getByLabel('Password', { exact: true }).fill(ENTRY.password)
    await upload.getByLabel('Notes').fill(ENTRY.notes)
    await upload.getByLabel('Release condition').selectOption('MANUAL_RELEASE')
    await upload.getByRole('checkbox', { name: /Ada Heir/ }).check()
    await upload.getByRole('button', { name: 'Encrypt & Save' }).click()
    await upload.waitFor({ state: 'detached', timeout: 30_000 })

    // /settings, reached in the app so the vault stays unlocked.
    await page.getByRole('button', { name: 'Account menu' }).click()
    await page.getByRole('menuitem', { name: 'Settings' }).click()
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor()
    const card = page.getByRole('button', { name: EXPORT_MESSAGES.ownerTitle })
    await card.scrollIntoViewIfNeeded()
    expect(await seriousViolations(page, 'settings with the export card')).toEqual([])
    await card.click()
    const dialog = page.getByRole('dialog', { name: EXPORT_MESSAGES.confirmTitle })
    await dialog.getByText(EXPORT_MESSAGES.confirmBody).waitFor()
    await dialog.getByText(EXPORT_MESSAGES.willHold(4)).waitFor()
    expect(await seriousViolations(page, 'export confirmation')).toEqual([])
    await page.screenshot({ path: `${SHOTS}/vault-export-confirm-1280.png` })

    const sent: string[] = []
    page.context().on('request', (r) => sent.push(`${r.method()} ${r.url()}\n${r.postDataBuffer()?.toString('latin1') ?? ''}`))
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), dialog.getByRole('button', { name: 'Download', exact: true }).click()])
    const { entries, manifest, listing } = await savedZip(download, 'vault-export')
    await poll(() => toastText(page)).toContain(EXPORT_MESSAGES.doneTitle)
    await dialog.waitFor({ state: 'detached' })

    // Every file byte for byte, under its own name; the entry as text; both manifests.
    expect(entries.map((e) => e.name).sort()).toEqual(
      [...FILES.map((f) => `files/${f.name}`), `passwords/${ENTRY.site}.txt`, 'manifest.json', 'manifest.csv'].sort(),
    )
    for (const f of FILES) expect(bytesOf(entries, `files/${f.name}`).equals(f.buffer), f.name).toBe(true)
    const entryText = bytesOf(entries, `passwords/${ENTRY.site}.txt`).toString('utf8')
    for (const value of Object.values(ENTRY)) expect(entryText).toContain(value)
    expect(listing).toContain(`files/${NOTES.name}`)

    const items = await api<Array<{ id: string; type: string; plainSize: number; createdAt: string }>>(page, '/api/vault/items')
    expect(manifest).toMatchObject({ format: 'legacy-vault/export', version: 1, included: 4, leftOut: 0 })
    const byName = new Map(manifest.items.map((i) => [i.name, i]))
    for (const f of FILES) {
      expect(byName.get(f.name)).toMatchObject({ file: `files/${f.name}`, size: f.buffer.length, mimetype: f.mimeType, tags: TAGS })
      expect(items.map((i) => i.createdAt)).toContain(byName.get(f.name)!.createdAt)
    }
    expect(byName.get(PHOTO.name)!.type).toBe('photo')
    expect(byName.get(ENTRY.site)).toMatchObject({ type: 'password', file: `passwords/${ENTRY.site}.txt` })
    expect(manifest.items.map((i) => i.createdAt).sort()).toEqual(items.map((i) => i.createdAt).sort())

    // In the audit chain by counts; nothing the page sent carries a name or the plaintext.
    const chain = await api<Array<{ action: string; details: Record<string, unknown> }>>(page, '/api/audit/export')
    expect(chain.filter((e) => e.action === 'vault.exported').map((e) => e.details)).toEqual([{ included: 4, leftOut: 0 }])
    const body = sent.join('\n')
    for (const secret of [LETTER.name, NOTES.name, ENTRY.password, LETTER.buffer.subarray(5000, 5064).toString('latin1')]) expect(body).not.toContain(secret)

    // Cancelled while the second item is on its way: the progress says where it is, nothing is
    // saved as complete, and nothing more is recorded.
    let contentFetches = 0
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    await safeRoute(page, '**/api/vault/items/*/content', async (route) => {
      if (++contentFetches === 2) await held
      // The held request was aborted by the cancel meanwhile.
      await route.continue().catch(() => undefined)
    })
    await page.getByRole('button', { name: EXPORT_MESSAGES.ownerTitle }).click()
    const started = page.waitForEvent('download', { timeout: 5_000 }).catch(() => null)
    await dialog.getByRole('button', { name: 'Download', exact: true }).click()
    await poll(() => dialog.getByTestId('export-progress').textContent()).toBe(EXPORT_MESSAGES.progress(1, 4))
    // (No axe run here: it waits for the network to go quiet, and a request is held on purpose.)
    expect(await dialog.getByRole('progressbar', { name: 'Items saved' }).getAttribute('aria-valuenow')).toBe('1')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await poll(() => toastText(page)).toContain(EXPORT_MESSAGES.cancelled)
    await dialog.waitFor({ state: 'detached' })
    release()
    const cut = await started
    if (cut) expect(await cut.failure()).not.toBeNull()
    await page.unroute('**/api/vault/items/*/content')
    const after = await api<Array<{ action: string }>>(page, '/api/audit/export')
    expect(after.filter((e) => e.action === 'vault.exported')).toHaveLength(1)
  }, 180_000)

  it("the heir's Download all: every released item checked against its seal, one streamed ZIP, each counted once, and one at its download limit left out and said so", async () => {
    expect(owner, 'the owner test ran first').toBeDefined()
    const page = owner
    await releaseNow(page, 'The family asked for the papers', 4)

    const mail = await waitForMail(heirEmail, /left something for you/)
    const ada = await newPage(browser)
    diagnoseOnFailure(ada.page, 'vault-export', 'heir')
    await ada.page.goto(firstLink(mail.text, '/beneficiary-portal'))
    const cards = ada.page.getByTestId('released-asset')
    await cards.first().waitFor()
    const all = ada.page.getByTestId('download-all')
    await all.getByText(EXPORT_MESSAGES.heirNeedsKey).waitFor()
    await ada.page.locator('input[type=file]').setInputFiles(kitPath)
    await ada.page.getByTestId('released-asset').filter({ hasText: LETTER.name }).waitFor({ timeout: 30_000 })
    await all.getByText(EXPORT_MESSAGES.heirBody(4)).waitFor()

    // The notes downloaded on their own up to their limit (5): Download all says it cannot include them.
    const notesCard = cards.filter({ hasText: NOTES.name })
    for (let i = 1; i <= 5; i++) {
      const [single] = await Promise.all([ada.page.waitForEvent('download', { timeout: 30_000 }), notesCard.getByRole('button', { name: 'Download & Decrypt' }).click()])
      expect(readFileSync((await single.path())!).equals(NOTES.buffer)).toBe(true)
      await poll(() => notesCard.textContent()).toContain(`Downloads: ${i}/5`)
    }
    await all.getByText(EXPORT_MESSAGES.heirBody(3)).waitFor()
    await all.getByTestId('download-all-left-out').getByText(EXPORT_MESSAGES.heirSomeLeftOut(1)).waitFor()
    expect(await seriousViolations(ada.page, 'portal with Download all')).toEqual([])

    await all.getByRole('button', { name: EXPORT_MESSAGES.heirTitle }).click()
    const dialog = ada.page.getByRole('dialog', { name: EXPORT_MESSAGES.heirTitle })
    await dialog.getByText(EXPORT_MESSAGES.heirCounts).waitFor()
    await dialog.getByTestId('export-left-out').getByText(RELEASE_MESSAGES.downloadLimit).waitFor()
    expect(await seriousViolations(ada.page, 'Download all confirmation')).toEqual([])
    await ada.page.screenshot({ path: `${SHOTS}/heir-download-all-confirm-1280.png` })
    const [download] = await Promise.all([ada.page.waitForEvent('download', { timeout: 60_000 }), dialog.getByRole('button', { name: 'Download', exact: true }).click()])
    const { entries, manifest } = await savedZip(download, 'released-items')
    await poll(() => toastText(ada.page)).toContain(EXPORT_MESSAGES.doneTitle)

    expect(entries.map((e) => e.name).sort()).toEqual([`files/${LETTER.name}`, `files/${PHOTO.name}`, `passwords/${ENTRY.site}.txt`, 'manifest.json', 'manifest.csv'].sort())
    for (const f of [LETTER, PHOTO]) expect(bytesOf(entries, `files/${f.name}`).equals(f.buffer), f.name).toBe(true)
    expect(bytesOf(entries, `passwords/${ENTRY.site}.txt`).toString('utf8')).toContain(ENTRY.password)
    expect(manifest).toMatchObject({ included: 3, leftOut: 1 })
    expect(manifest.items.find((i) => i.name === NOTES.name)).toMatchObject({ file: null, problem: RELEASE_MESSAGES.downloadLimit })
    // One download counted per item included, as single downloads would; the notes stay at their limit.
    for (const f of [LETTER, PHOTO, { name: ENTRY.site }]) await poll(() => cards.filter({ hasText: f.name }).textContent()).toContain('Downloads: 1/5')
    expect(await notesCard.textContent()).toContain('Downloads: 5/5')
    await ada.context.close()
    await page.context().close()
  }, 180_000)
})
