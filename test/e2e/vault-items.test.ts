import { mkdirSync, readFileSync } from 'node:fs'
import { crc32, deflateSync } from 'node:zlib'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest'
import { AUTH_TOKEN_STORAGE_KEY } from '../../contract/constants'
import { addBeneficiaryThroughUi, baseUrl, closeContext, launch, newPage, registerOwner, safeRoute, toastText, uniqueEmail } from './browser'

// Vault items in the browser: encrypted uploads of files and a password entry, the locked and
// unlocked list, search and filter, download, preview, view and delete, and proof that nothing
// the page sends carries a file's contents, its name, its tags or a password entry's fields.

const SHOTS = '/tmp/shots'
const PASSPHRASE = 'Granite-Orchard-42-Lantern'
let browser: Browser
beforeAll(async () => {
  browser = await launch()
  mkdirSync(SHOTS, { recursive: true })
})
afterAll(async () => {
  await browser?.close()
})

/** A real PNG (a colour gradient), so the preview has something to show. */
function gradientPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(typed))
    return Buffer.concat([length, typed, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8)
  const rows = Buffer.alloc((width * 3 + 1) * height)
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1)
    for (let x = 0; x < width; x++) rows.set([40 + (x * 180) / width, 90 + (y * 120) / height, 200 - (x * 100) / width], row + 1 + x * 3)
  }
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const PDF_MARKER = 'Grandmother-Deed-of-Trust-7731'
const TEXT_MARKER = 'the-key-to-the-safe-is-under-the-oak'
const FILES = {
  png: { name: 'family-reunion-1998.png', mimeType: 'image/png', buffer: gradientPng(320, 200) },
  pdf: {
    name: 'deed-of-trust-maple-st.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(
      `%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\n% ${PDF_MARKER}\ntrailer <</Root 1 0 R>>\n%%EOF\n`,
    ),
  },
  txt: { name: 'letter-to-my-children.txt', mimeType: 'text/plain', buffer: Buffer.from(`Dear all,\n${TEXT_MARKER}\nWith love.\n`.repeat(40)) },
}
const TAGS = ['heirloom-papers', 'maple-street']
const ENTRY = { site: 'credit-union-online.example', username: 'grace.owner.77', password: 'Tr0ub4dor&3-Velvet', notes: 'PIN-hint-birthday-of-rex' }

interface Sent {
  url: string
  text: string
}

/** Every request's URL and body (binary parts as latin1), to prove what never leaves the browser. */
function recordRequests(context: BrowserContext): Sent[] {
  const sent: Sent[] = []
  context.on('request', (request) => {
    const buffer = request.postDataBuffer()
    sent.push({ url: request.url(), text: `${request.method()} ${request.url()}\n${buffer ? buffer.toString('latin1') : ''}` })
  })
  return sent
}

/** expect.poll with room for a busy machine (its default is one second). */
const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 })
const items = (page: Page) => page.getByTestId('vault-item')
const itemNamed = (page: Page, name: string) => items(page).filter({ has: page.getByTestId('vault-item-name').getByText(name, { exact: true }) })
const itemNames = async (page: Page) => (await page.getByTestId('vault-item-name').allTextContents()).map((t) => t.trim())

/** On failure: a screenshot and what the page logged, to tell a slow server from a bug. */
function diagnoseOnFailure(page: Page, name: string) {
  const logs: string[] = []
  page.on('console', (msg) => logs.push(`${msg.type()}: ${msg.text()}`))
  page.on('requestfailed', (request) => logs.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`))
  onTestFailed(async () => {
    await page.screenshot({ path: `${SHOTS}/vault-items-failure-${name}.png` }).catch(() => undefined)
    console.error(`page log (${name}):\n${logs.join('\n')}`)
  })
}


/** Client-side navigation keeps the vault key (a reload would lock it). */
async function openVault(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vault' }).click()
  await page.getByRole('heading', { name: 'Secure Vault' }).waitFor()
}

/** The phone's navigation menu (client-side, so the vault stays unlocked). */
async function phoneNav(page: Page, label: string) {
  await page.getByRole('button', { name: 'Open navigation' }).click()
  await page.getByRole('menuitem', { name: label }).click()
}

async function unlock(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Unlock Your Vault' })
  await dialog.waitFor()
  await dialog.getByLabel('Vault passphrase').fill(PASSPHRASE)
  await dialog.getByRole('button', { name: 'Unlock Vault' }).click()
  await dialog.waitFor({ state: 'detached' })
  await poll(() => page.getByTestId('vault-state').textContent()).toBe('Vault unlocked')
}

describe('vault items', () => {
  it('uploads encrypted files and a password entry, lists them locked and unlocked, searches, downloads, previews, views and deletes', async () => {
    const { context, page } = await newPage(browser)
    const sent = recordRequests(context)
    diagnoseOnFailure(page, 'desktop')
    await registerOwner(page, { email: uniqueEmail('vault-items'), password: 'a sound password 1', passphrase: PASSPHRASE })
    await addBeneficiaryThroughUi(page, { fullName: 'Ada Heir' })
    await openVault(page)
    await poll(() => page.getByTestId('vault-state').textContent()).toBe('Vault unlocked')
    await page.getByRole('heading', { name: 'No vault items yet' }).waitFor()
    await page.getByRole('button', { name: 'Upload First Item' }).click()

    const dialog = page.getByRole('dialog', { name: 'Add Item' })
    await dialog.waitFor()
    for (const category of ['Documents', 'Photos', 'Videos', 'Passwords']) {
      expect(await dialog.getByRole('group', { name: 'Categories' }).getByRole('button', { name: new RegExp(category) }).count()).toBe(1)
    }
    expect(await dialog.getByTestId('dropzone').getAttribute('data-state')).toBe('idle')
    // The form's own messages first.
    await dialog.getByRole('button', { name: /^Encrypt & Upload/ }).click()
    await dialog.getByText('No files selected').waitFor()
    await dialog.getByText('Beneficiaries required').waitFor()

    await page.screenshot({ path: `${SHOTS}/vault-add-item-empty-1280.png` })

    // Dragging: any type is taken (a .zip too); only too many files turn the zone red before the drop.
    const dropzone = dialog.getByTestId('dropzone')
    const zip = await page.evaluateHandle(() => {
      const data = new DataTransfer()
      data.items.add(new File(['PK'], 'photos.zip', { type: 'application/zip' }))
      return data
    })
    await dropzone.dispatchEvent('dragenter', { dataTransfer: zip })
    await poll(() => dropzone.getAttribute('data-state')).toBe('accept')
    await dropzone.dispatchEvent('dragleave', { dataTransfer: zip })
    await poll(() => dropzone.getAttribute('data-state')).toBe('idle')
    const tooMany = await page.evaluateHandle(() => {
      const data = new DataTransfer()
      for (let i = 0; i < 11; i++) data.items.add(new File(['x'], `many-${i}.txt`, { type: 'text/plain' }))
      return data
    })
    await dropzone.dispatchEvent('dragenter', { dataTransfer: tooMany })
    await dropzone.getByText('Too many files').waitFor()
    await poll(() => dropzone.getAttribute('data-state')).toBe('reject')
    await page.screenshot({ path: `${SHOTS}/vault-drag-reject-1280.png` })
    await dropzone.dispatchEvent('dragleave', { dataTransfer: tooMany })
    await poll(() => dropzone.getAttribute('data-state')).toBe('idle')
    const note = await page.evaluateHandle(() => {
      const data = new DataTransfer()
      data.items.add(new File(['a dropped note'], 'dropped-note.md', { type: 'text/markdown' }))
      return data
    })
    await dropzone.dispatchEvent('dragenter', { dataTransfer: note })
    await poll(() => dropzone.getAttribute('data-state')).toBe('accept')
    await dropzone.dispatchEvent('drop', { dataTransfer: note })
    await dialog.getByTestId('selected-files').getByText('dropped-note.md').waitFor()
    await poll(() => dropzone.getAttribute('data-state')).toBe('idle')
    await dialog.getByRole('button', { name: 'Remove dropped-note.md' }).click()
    await dialog.getByTestId('selected-files').waitFor({ state: 'detached' })

    await dialog.getByTestId('file-input').setInputFiles([FILES.png, FILES.pdf, FILES.txt])
    expect(await dialog.getByTestId('selected-files').getByRole('listitem').count()).toBe(3)
    expect(await dialog.getByText('No files selected').count()).toBe(0)

    await dialog.getByLabel('Tags').fill(` ${TAGS[0]}, , ${TAGS[1]} `)
    const protocols = await dialog.getByLabel('Release condition').locator('option').allTextContents()
    expect(protocols).toHaveLength(10)
    expect(await dialog.getByLabel('Release condition').inputValue()).toBe('VERIFIED_DEATH')
    // When the items would become available at the earliest: the owner's 72-hour safety window.
    await poll(() => dialog.getByTestId('protocol-earliest').textContent()).toContain(
      '72 hours after an approver confirms a death (your safety window), if you do not cancel',
    )
    await dialog.getByLabel('Release condition').selectOption('INACTIVITY_90_DAYS')
    await poll(() => dialog.getByTestId('protocol-earliest').textContent()).toContain(
      'after 90 days without a check-in, and not before 72 hours after your Inactivity trigger fires',
    )
    await dialog.getByRole('checkbox', { name: /Ada Heir/ }).check()
    await dialog.getByRole('switch', { name: 'Requires approver' }).click()
    await dialog.getByRole('button', { name: 'Encrypt & Upload 3 Files' }).click()
    await dialog.getByText('Approver contact required').waitFor()
    await dialog.getByLabel('Approver contact').fill('counsel@example.com')
    await page.screenshot({ path: `${SHOTS}/vault-add-item-1280.png` })
    await dialog.getByRole('button', { name: 'Encrypt & Upload 3 Files' }).click()

    // One progress bar per file; the dialog closes once all are stored.
    await dialog.getByRole('progressbar', { name: `Upload progress for ${FILES.txt.name}` }).waitFor()
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    await poll(() => toastText(page)).toContain('Upload complete')
    await poll(() => items(page).count()).toBe(3)
    await poll(() => itemNames(page)).toEqual(expect.arrayContaining([FILES.png.name, FILES.pdf.name, FILES.txt.name]))
    const pdfRow = itemNamed(page, FILES.pdf.name)
    expect(await pdfRow.textContent()).toContain('Inactivity (90 days)')
    expect(await pdfRow.textContent()).toContain('Requires Approval')
    expect(await pdfRow.textContent()).toContain(TAGS[0])
    // Sizes in the unit that reads well (a 169-byte file is not "0.00 MB").
    expect(await pdfRow.textContent()).toContain(`${FILES.pdf.buffer.length} bytes`)
    expect(await itemNamed(page, FILES.png.name).textContent()).toContain('Photo')

    // A password entry, through the Passwords category.
    await page.getByRole('button', { name: 'Add Item' }).click()
    await dialog.getByRole('group', { name: 'Categories' }).getByRole('button', { name: /Passwords/ }).click()
    await dialog.getByLabel('Site or service').fill(ENTRY.site)
    await dialog.getByLabel('Username').fill(ENTRY.username)
    await dialog.getByLabel('Password', { exact: true }).fill(ENTRY.password)
    await dialog.getByLabel('Notes').fill(ENTRY.notes)
    await dialog.getByLabel('Tags').fill('banking')
    await dialog.getByRole('checkbox', { name: /Ada Heir/ }).check()
    await dialog.getByRole('button', { name: 'Encrypt & Save' }).click()
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    await poll(() => items(page).count()).toBe(4)
    await itemNamed(page, ENTRY.site).waitFor()
    expect(await itemNamed(page, ENTRY.site).textContent()).toContain('Verified Death')

    // A reload locks the vault: the list shows only what the server knows.
    await page.reload()
    await page.getByRole('dialog', { name: 'Unlock Your Vault' }).waitFor()
    await poll(() => itemNames(page)).toEqual(['Locked item', 'Locked item', 'Locked item', 'Locked item'])
    await page.keyboard.press('Escape')
    await page.getByText('Unlock your vault to see, search and open your items.').waitFor()
    expect(await page.getByRole('searchbox').isDisabled()).toBe(true)
    await page.screenshot({ path: `${SHOTS}/vault-locked-1280.png`, fullPage: true })
    await page.getByRole('button', { name: 'Unlock Vault' }).first().click()
    await unlock(page)
    await poll(() => itemNames(page)).toEqual(expect.arrayContaining([FILES.png.name, FILES.pdf.name, FILES.txt.name, ENTRY.site]))

    // Search by name and by tag, case-insensitively; filter by type.
    const search = page.getByRole('searchbox')
    await search.fill('LETTER')
    await poll(() => itemNames(page)).toEqual([FILES.txt.name])
    await search.fill('maple')
    await poll(() => items(page).count()).toBe(3)
    await search.fill('nothing like this')
    await page.getByRole('heading', { name: 'No items found' }).waitFor()
    await search.fill('')
    const typeFilter = page.getByLabel('Filter by type')
    await typeFilter.selectOption('photo')
    await poll(() => itemNames(page)).toEqual([FILES.png.name])
    await typeFilter.selectOption('password')
    await poll(() => itemNames(page)).toEqual([ENTRY.site])
    await typeFilter.selectOption('all')
    await poll(() => items(page).count()).toBe(4)
    await page.screenshot({ path: `${SHOTS}/vault-1280.png`, fullPage: true })

    // Download: decrypted in the browser, byte for byte the original.
    for (const file of [FILES.pdf, FILES.png]) {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: `Download ${file.name}` }).click(),
      ])
      expect(download.suggestedFilename()).toBe(file.name)
      expect(readFileSync((await download.path())!).equals(file.buffer)).toBe(true)
    }

    // Preview a photo.
    await page.getByRole('button', { name: `Preview ${FILES.png.name}` }).click()
    const preview = page.getByRole('dialog', { name: FILES.png.name })
    const image = preview.getByRole('img', { name: FILES.png.name })
    await image.waitFor()
    await poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320)
    expect(await image.getAttribute('src')).toMatch(/^blob:/)
    await page.screenshot({ path: `${SHOTS}/vault-preview-1280.png` })
    await preview.getByRole('button', { name: 'Close' }).first().click()
    await preview.waitFor({ state: 'detached' })

    // View the password entry.
    await page.getByRole('button', { name: `View ${ENTRY.site}` }).click()
    const view = page.getByRole('dialog', { name: 'Password entry' })
    await view.getByTestId('entry-username').getByText(ENTRY.username).waitFor()
    expect(await view.getByTestId('entry-password').textContent()).not.toContain(ENTRY.password)
    await view.getByRole('button', { name: 'Show password' }).click()
    expect(await view.getByTestId('entry-password').textContent()).toBe(ENTRY.password)
    expect(await view.textContent()).toContain(ENTRY.notes)
    expect(await view.getByRole('button', { name: 'Copy password' }).isVisible()).toBe(true)
    await view.getByRole('button', { name: 'Close' }).first().click()
    await view.waitFor({ state: 'detached' })

    // Delete, after a confirmation.
    await page.getByRole('button', { name: `Delete ${FILES.txt.name}` }).click()
    const confirm = page.getByRole('alertdialog')
    expect(await confirm.textContent()).toContain('cannot be undone')
    expect(await confirm.textContent()).toContain(FILES.txt.name)
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await confirm.waitFor({ state: 'detached' })
    await poll(() => toastText(page)).toContain('Item deleted')
    await poll(() => items(page).count()).toBe(3)
    expect(await itemNames(page)).not.toContain(FILES.txt.name)

    await page.setViewportSize({ width: 375, height: 800 })
    await page.screenshot({ path: `${SHOTS}/vault-375.png`, fullPage: true })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)

    // Zero knowledge: the server saw none of it.
    const secrets = [
      PDF_MARKER,
      TEXT_MARKER,
      FILES.png.buffer.subarray(40, 90).toString('latin1'),
      ...Object.values(FILES).map((f) => f.name),
      'family-reunion',
      'deed-of-trust',
      'letter-to-my',
      ...TAGS,
      ENTRY.site,
      ENTRY.username,
      ENTRY.password,
      ENTRY.notes,
      'banking',
    ]
    const uploads = sent.filter((s) => s.url.includes('/api/vault/uploads'))
    expect(uploads.filter((s) => s.text.startsWith('PUT')).length).toBeGreaterThanOrEqual(4)
    for (const request of sent) {
      for (const secret of secrets) {
        if (request.text.includes(secret) || request.text.includes(encodeURIComponent(secret))) {
          throw new Error(`a request carried "${secret.slice(0, 30)}": ${request.text.slice(0, 200)}`)
        }
      }
    }
    await context.close()
  }, 180_000)

  it('keeps any file: a .zip, a .kdbx and a file with no extension go up and come back byte for byte, shown as documents', async () => {
    const { context, page } = await newPage(browser)
    diagnoseOnFailure(page, 'any-file')
    const email = uniqueEmail('any-file')
    await registerOwner(page, { email, password: 'a sound password 1', passphrase: PASSPHRASE })
    await addBeneficiaryThroughUi(page, { fullName: 'Ada Heir' })
    await openVault(page)
    await page.getByRole('button', { name: 'Upload First Item' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add Item' })
    const kept = [
      { name: 'family-photos.zip', mimeType: 'application/zip', buffer: Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) % 256))]) },
      { name: 'passwords.kdbx', mimeType: '', buffer: Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 101 + 7) % 256)) },
      { name: 'recovery-key', mimeType: '', buffer: Buffer.from('-----BEGIN RECOVERY KEY-----\nno extension at all\n') },
    ]
    await dialog.getByTestId('file-input').setInputFiles(kept)
    expect(await dialog.getByTestId('selected-files').getByRole('listitem').count()).toBe(3)
    expect(await dialog.getByTestId('rejected-files').count()).toBe(0)
    await dialog.getByRole('checkbox', { name: /Ada Heir/ }).check()
    await dialog.getByRole('button', { name: 'Encrypt & Upload 3 Files' }).click()
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    await poll(() => items(page).count()).toBe(3)
    for (const file of kept) {
      expect(await itemNamed(page, file.name).getByText('Document', { exact: true }).count()).toBe(1)
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: `Download ${file.name}` }).click()])
      expect(download.suggestedFilename()).toBe(file.name)
      expect(readFileSync((await download.path())!).equals(file.buffer)).toBe(true)
    }

    // Sealed by the vault at upload, so nothing is marked. Items as if stored before manifests are
    // marked "Not yet sealed" (locked or not), and the next unlock seals them in the background.
    expect(await page.getByTestId('vault-item-unsealed').count()).toBe(0)
    const made = await fetch(`${baseUrl()}/api/dev/unsealed-items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) })
    expect(made.status).toBe(200)
    await page.reload()
    await poll(() => page.getByTestId('vault-item-unsealed').count()).toBe(3)
    const mark = page.getByTestId('vault-item-unsealed').first()
    expect(await mark.textContent()).toContain('Not yet sealed')
    expect(await mark.getAttribute('title')).toContain('sealed the next time you unlock your vault')
    await page.screenshot({ path: `${SHOTS}/vault-not-yet-sealed-1280.png` })
    await unlock(page)
    await poll(() => page.getByTestId('vault-item-unsealed').count()).toBe(0)
    const token = await page.evaluate((key) => localStorage.getItem(key), AUTH_TOKEN_STORAGE_KEY)
    const listed = (await (await fetch(`${baseUrl()}/api/vault/items`, { headers: { Authorization: `Bearer ${token}` } })).json()) as Array<{ sealed: boolean }>
    expect(listed.map((i) => i.sealed)).toEqual([true, true, true])
    await context.close()
  })

  it('on a phone: explains a missing beneficiary, validates the schedule, refuses a locked vault, and retries a failed upload', async () => {
    const { context, page } = await newPage(browser, { width: 375, height: 740 })
    diagnoseOnFailure(page, 'phone')
    await registerOwner(page, { email: uniqueEmail('vault-phone'), password: 'a sound password 1', passphrase: PASSPHRASE })
    await phoneNav(page, 'Vault')
    await page.getByRole('heading', { name: 'Secure Vault' }).waitFor()
    await page.getByRole('button', { name: 'Add Item' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add Item' })
    await dialog.getByRole('link', { name: 'Add a beneficiary' }).waitFor()
    await page.screenshot({ path: `${SHOTS}/vault-add-item-top-375.png` })
    expect(await dialog.getByRole('link', { name: 'Add a beneficiary' }).getAttribute('href')).toBe('/beneficiaries')

    await dialog.getByLabel('Release condition').selectOption('SCHEDULED')
    const schedule = dialog.getByLabel('Release date and time')
    expect(await schedule.getAttribute('min')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/)
    await dialog.getByRole('button', { name: /^Encrypt & Upload/ }).click()
    await dialog.getByText('Schedule date required').waitFor()
    await schedule.fill('2001-05-04T10:00')
    await dialog.getByRole('button', { name: /^Encrypt & Upload/ }).click()
    await dialog.getByText('Schedule date must be in the future').waitFor()
    await page.screenshot({ path: `${SHOTS}/vault-add-item-375.png` })
    expect(await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })

    // With a beneficiary, one failed part makes the upload fail for good; Retry then stores it.
    await phoneNav(page, 'Beneficiaries')
    await page.getByRole('heading', { name: 'Beneficiaries', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Add Beneficiary' }).first().click()
    const add = page.getByRole('dialog')
    await add.getByLabel('Full name').fill('Ben Heir')
    await add.getByLabel('Email').fill(uniqueEmail('ben'))
    await add.getByLabel('Relationship').fill('Son')
    await add.getByRole('button', { name: 'Add Beneficiary' }).click()
    await add.getByLabel('I have saved the kit').check()
    await add.getByRole('button', { name: 'Done' }).click()
    await add.waitFor({ state: 'detached' })
    await phoneNav(page, 'Vault')
    await page.getByRole('heading', { name: 'Secure Vault' }).waitFor()

    let refuse = true
    await safeRoute(page, '**/api/vault/uploads/*/parts/*', (route) =>
      refuse
        ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ message: 'This part must be exactly 1 bytes.' }) })
        : route.continue(),
    )
    await page.getByRole('button', { name: 'Upload First Item' }).click()
    await dialog.getByTestId('file-input').setInputFiles([FILES.txt])
    await dialog.getByRole('checkbox', { name: /Ben Heir/ }).check()
    await dialog.getByRole('button', { name: 'Encrypt & Upload' }).click()
    await dialog.getByText(`Failed to upload ${FILES.txt.name}`).waitFor()
    await poll(() => toastText(page)).toContain('Upload failed')
    expect(await toastText(page)).toContain(`Failed to upload ${FILES.txt.name}`)
    await page.screenshot({ path: `${SHOTS}/vault-upload-failed-375.png` })
    expect(await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    refuse = false
    await dialog.getByRole('button', { name: `Retry ${FILES.txt.name}` }).click()
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    await poll(() => itemNames(page)).toEqual([FILES.txt.name])

    // Locked: the dialog says so and offers the unlock.
    await page.getByRole('button', { name: 'Lock Vault' }).click()
    await poll(() => itemNames(page)).toEqual(['Locked item'])
    await page.getByRole('button', { name: 'Add Item' }).click()
    await dialog.getByText('Vault is locked. Please unlock your vault first.').waitFor()
    await dialog.getByTestId('file-input').setInputFiles([FILES.pdf])
    await dialog.getByRole('button', { name: 'Encrypt & Upload' }).click()
    expect(await dialog.getByRole('alert').filter({ hasText: 'Vault is locked' }).count()).toBe(1)
    await dialog.getByRole('button', { name: 'Unlock Vault' }).click()
    await unlock(page)
    await dialog.getByRole('checkbox', { name: /Ben Heir/ }).check()
    await dialog.getByRole('button', { name: 'Encrypt & Upload' }).click()
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    await poll(() => items(page).count()).toBe(2)
    await closeContext(context)
  }, 180_000)
})
