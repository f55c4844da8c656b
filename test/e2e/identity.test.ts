import { mkdirSync } from 'node:fs'
import { crc32, deflateSync } from 'node:zlib'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, firstLink, launch, newPage, registerOwner, uniqueEmail, waitForMail, addBeneficiaryThroughUi, toastText } from './browser'

/** Owners' vaults sign each beneficiary's key, so the owners here have one. */
const PASSPHRASE = 'Meadow-Copper-19-Lantern'

// Identity verification in the browser: the owner uploads a beneficiary's ID, each approver reviews
// it through the link e-mailed to them (never the owner "as the first approver"), and the owner
// follows the reviews until the document is verified.

const SHOTS = '/tmp/shots'
let browser: Browser
beforeAll(async () => {
  browser = await launch()
  mkdirSync(SHOTS, { recursive: true })
})
afterAll(async () => {
  await browser?.close()
})

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A real (decodable) PNG that looks vaguely like an ID card: starts 89 50 4E 47 0D 0A 1A 0A. */
function idCardPng(width = 240, height = 150): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // RGB
  const rows: Buffer[] = []
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3)
    for (let x = 0; x < width; x++) {
      const photo = x > 16 && x < 80 && y > 30 && y < 120
      const line = x > 96 && x < 220 && (y % 20 === 0 || y % 20 === 1) && y > 30 && y < 120
      const band = y < 20
      const [r, g, b] = photo ? [120, 140, 170] : line ? [60, 70, 90] : band ? [30, 80, 160] : [225, 235, 245]
      row.set([r, g, b], 1 + x * 3)
    }
    rows.push(row)
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const card = (page: Page, name: string) => page.getByTestId('beneficiary-card').filter({ hasText: name })

async function openBeneficiaries(page: Page) {
  await page.goto('/beneficiaries')
  await page.getByRole('heading', { name: 'Beneficiaries', level: 1 }).waitFor()
}

async function addBeneficiary(page: Page, b: { fullName: string; email: string; relationship: string }) {
  await addBeneficiaryThroughUi(page, b, PASSPHRASE)
  await card(page, b.fullName).waitFor()
}

async function addApprover(page: Page, a: { fullName: string; email: string; role: string }) {
  await page.getByRole('button', { name: 'Add Approver' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Full name').fill(a.fullName)
  await dialog.getByLabel('Email').fill(a.email)
  await dialog.getByLabel('Role').fill(a.role)
  await dialog.getByRole('button', { name: 'Add Approver' }).click()
  await dialog.waitFor({ state: 'detached' })
  await page.getByTestId('approver-row').filter({ hasText: a.fullName }).waitFor()
  // Review links go only to verified approvers: they confirm their address from the invitation.
  const invite = await waitForMail(a.email, /approver/)
  const token = new URL(firstLink(invite.text, '/verify-approver?token=')).searchParams.get('token')!
  const verified = await fetch(`${baseUrl()}/api/approvers/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) })
  expect(verified.status).toBe(200)
}

async function openUploadDialog(page: Page, beneficiaryName: string) {
  await page.getByRole('button', { name: `Actions for ${beneficiaryName}` }).click()
  await page.getByRole('menuitem', { name: 'Upload ID Document' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('heading', { name: 'Upload ID Document' }).waitFor()
  return dialog
}

describe('identity verification', () => {
  it('uploads an ID from the beneficiaries menu, and the approver verifies it through their own link', async () => {
    const { context, page } = await newPage(browser)
    const cspViolations: string[] = []
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text())
    })
    await registerOwner(page, { email: uniqueEmail('identity-owner'), password: 'a sound password 1', displayName: 'Grace Owner', passphrase: PASSPHRASE })
    await openBeneficiaries(page)
    await addBeneficiary(page, { fullName: 'Ada Lovelace', email: uniqueEmail('ada'), relationship: 'Daughter' })
    await card(page, 'Ada Lovelace').getByText('ID not verified').waitFor()

    // Without an approver there is no one to review: the server's 409 says so.
    let dialog = await openUploadDialog(page, 'Ada Lovelace')
    expect(await dialog.getByText('max 10MB, JPEG/PNG/PDF').isVisible()).toBe(true)
    await dialog.getByRole('button', { name: 'Upload Document' }).click()
    await expect.poll(() => toastText(page)).toContain('Missing information')
    await dialog.getByText('Choose the type of document').waitFor()
    await dialog.getByText('Choose the file to upload', { exact: true }).waitFor()

    // A text file renamed .png is refused before anything is sent.
    await dialog.getByLabel('Document file').setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') })
    await expect.poll(() => toastText(page)).toContain('Invalid File Type')
    expect(await toastText(page)).toContain('Please upload a JPG, PNG, or PDF file of your government-issued ID.')
    expect(await dialog.getByLabel('Document file').inputValue()).toBe('')
    await page.screenshot({ path: `${SHOTS}/identity-upload-id-dialog-1280.png` })

    await dialog.getByLabel('Document type').selectOption({ label: 'Passport' })
    await dialog.getByLabel('Document file').setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: idCardPng() })
    await dialog.getByLabel(/Document number/).fill('P1234567')
    await dialog.getByLabel(/Issuing authority/).fill('HM Passport Office')
    await dialog.getByLabel(/Expiration date/).fill('2031-05-17')
    await dialog.getByRole('button', { name: 'Upload Document' }).click()
    await expect.poll(() => toastText(page)).toContain('Failed to upload document')
    expect(await toastText(page)).toContain('Add at least one approver before uploading an identity document')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })

    const approverEmail = uniqueEmail('approver')
    await addApprover(page, { fullName: 'Sam Counsel', email: approverEmail, role: 'Lawyer' })

    dialog = await openUploadDialog(page, 'Ada Lovelace')
    await dialog.getByLabel('Document type').selectOption({ label: 'Passport' })
    await dialog.getByLabel('Document file').setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: idCardPng() })
    await dialog.getByLabel(/Document number/).fill('P1234567')
    await dialog.getByLabel(/Issuing authority/).fill('HM Passport Office')
    await dialog.getByLabel(/Expiration date/).fill('2031-05-17')
    await dialog.getByRole('button', { name: 'Upload Document' }).click()
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => toastText(page)).toContain('Document uploaded')
    await card(page, 'Ada Lovelace').getByText('ID under review').waitFor()

    // The owner sees it pending, with who has not reviewed yet; the owner cannot review it.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Identity' }).click()
    await page.getByRole('heading', { name: 'Identity Verification', level: 1 }).waitFor()
    const doc = page.getByTestId('identity-document')
    await doc.getByTestId('document-status').filter({ hasText: 'Pending' }).waitFor()
    expect(await doc.textContent()).toContain('P1234567')
    expect(await doc.textContent()).toContain('HM Passport Office')
    expect(await doc.textContent()).toContain('0 of 1')
    await doc.getByRole('list', { name: 'Not reviewed yet' }).getByText('Sam Counsel').waitFor()
    await page.getByText('No policy requires identity verification').waitFor()

    // View: the image, from a blob: URL.
    await doc.getByRole('button', { name: 'View Passport' }).click()
    const viewer = page.getByRole('dialog')
    const image = viewer.getByRole('img', { name: 'Front of Ada Lovelace’s passport' })
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240)
    expect(await image.getAttribute('src')).toMatch(/^blob:/)
    await page.keyboard.press('Escape')
    await viewer.waitFor({ state: 'detached' })
    await page.screenshot({ path: `${SHOTS}/identity-1280.png`, fullPage: true })

    await page.getByRole('tab', { name: 'Verification Review' }).click()
    await page.getByText('you cannot review documents yourself').waitFor()
    const waiting = page.getByTestId('pending-review')
    await waiting.getByText('Ada Lovelace: Passport').waitFor()
    await waiting.getByRole('list', { name: 'Not reviewed yet' }).getByText('Sam Counsel').waitFor()
    expect(await page.getByRole('button', { name: /Approve|Reject|Submit/ }).count()).toBe(0)
    await page.screenshot({ path: `${SHOTS}/identity-review-tab-1280.png`, fullPage: true })

    // The approver, in a browser of their own, opens the link from their e-mail.
    const mail = await waitForMail(approverEmail, /identity document/)
    const reviewUrl = firstLink(mail.text, '/review-identity?token=')
    const approver = await newPage(browser, { width: 375, height: 740 })
    approver.page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text())
    })
    await approver.page.goto(reviewUrl)
    await approver.page.getByRole('heading', { name: 'Review an identity document' }).waitFor()
    expect(await approver.page.getByText('Grace Owner named you as an approver').isVisible()).toBe(true)
    const reviewImage = approver.page.getByRole('img', { name: 'Front of Ada Lovelace’s passport' })
    await expect.poll(() => reviewImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240)
    expect(await approver.page.getByText('HM Passport Office').isVisible()).toBe(true)
    await approver.page.screenshot({ path: `${SHOTS}/review-identity-375.png`, fullPage: true })
    expect(await approver.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)

    await approver.page.getByRole('radio', { name: /Approve/ }).check()
    await approver.page.getByRole('button', { name: 'Submit Review' }).click()
    await approver.page.getByText('Verification notes are required').waitFor()
    await approver.page.getByLabel('Verification notes').fill('Photo and details match Ada, whom I have known for years.')
    await approver.page.getByLabel(/Signature/).fill('Sam Counsel')
    await approver.page.setViewportSize({ width: 1280, height: 800 })
    await approver.page.evaluate(() => window.scrollTo(0, 0))
    await approver.page.waitForTimeout(200)
    await approver.page.screenshot({ path: `${SHOTS}/review-identity-1280.png`, fullPage: true })
    await approver.page.getByRole('button', { name: 'Submit Review' }).click()
    await approver.page.getByRole('heading', { name: 'Thank you' }).waitFor()
    await approver.page.getByText('now verified').waitFor()
    await approver.page.screenshot({ path: `${SHOTS}/review-identity-done-1280.png`, fullPage: true })

    // The same link again: a clear "already reviewed", not a second form.
    await approver.page.reload()
    await approver.page.getByRole('heading', { name: 'Already reviewed' }).waitFor()
    expect(await approver.page.getByText('You have already reviewed this document.').isVisible()).toBe(true)
    await approver.context.close()

    // The owner's page shows the decision and who made it.
    await page.reload()
    await page.getByRole('heading', { name: 'Identity Verification', level: 1 }).waitFor()
    await doc.getByTestId('document-status').filter({ hasText: 'Verified' }).waitFor()
    expect(await doc.textContent()).toContain('1 of 1')
    expect(await doc.getByRole('list', { name: 'Reviews' }).textContent()).toContain('Sam Counsel')
    expect(await doc.getByRole('list', { name: 'Reviews' }).textContent()).toContain('Photo and details match Ada')
    await page.getByRole('tab', { name: 'Verification Review' }).click()
    await page.getByText('Nothing is waiting for review').waitFor()

    await openBeneficiaries(page)
    await card(page, 'Ada Lovelace').getByText('ID verified').waitFor()
    await page.getByRole('button', { name: 'Actions for Ada Lovelace' }).click()
    expect(await page.getByRole('menuitem', { name: 'Upload ID Document' }).count()).toBe(0)
    await page.keyboard.press('Escape')

    await page.goto('/identity-verification')
    await page.setViewportSize({ width: 375, height: 800 })
    await doc.getByTestId('document-status').filter({ hasText: 'Verified' }).waitFor()
    await page.screenshot({ path: `${SHOTS}/identity-375.png`, fullPage: true })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    expect(cspViolations).toEqual([])
    await context.close()
  })

  it('uploads front and back from the identity page, and a rejection shows its reason', async () => {
    const { context, page } = await newPage(browser, { width: 375, height: 740 })
    await registerOwner(page, { email: uniqueEmail('identity-page'), password: 'a sound password 1', displayName: 'Page Owner', passphrase: PASSPHRASE })
    await openBeneficiaries(page)
    await addBeneficiary(page, { fullName: 'Bo Park', email: uniqueEmail('bo'), relationship: 'Son' })
    const approverEmail = uniqueEmail('approver')
    await addApprover(page, { fullName: 'Ann Lee', email: approverEmail, role: 'Executor' })

    await page.goto('/identity-verification')
    await page.getByRole('heading', { name: 'No documents for Bo Park yet' }).waitFor()
    await page.getByRole('button', { name: 'Upload Document' }).first().click()
    const dialog = page.getByRole('dialog')
    expect(await dialog.getByLabel('Beneficiary').inputValue()).not.toBe('')
    await dialog.getByLabel('Document type').selectOption({ label: 'National ID' })
    await dialog.getByRole('button', { name: 'Upload Document' }).click()
    await expect.poll(() => toastText(page)).toContain('Front image required')
    await dialog.getByText('Front image required').waitFor()
    await page.screenshot({ path: `${SHOTS}/identity-upload-dialog-375.png` })
    await dialog.getByLabel('Front image').setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: idCardPng() })
    await dialog.getByLabel(/Back image/).setInputFiles({ name: 'back.png', mimeType: 'image/png', buffer: idCardPng(200, 120) })
    await dialog.getByRole('button', { name: 'Upload Document' }).click()
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => toastText(page)).toContain('Document uploaded')
    const doc = page.getByTestId('identity-document')
    await doc.getByTestId('document-status').filter({ hasText: 'Pending' }).waitFor()

    // The owner sees both sides.
    await doc.getByRole('button', { name: 'View National ID' }).click()
    const viewer = page.getByRole('dialog')
    await viewer.getByRole('tab', { name: 'Back' }).click()
    const back = viewer.getByRole('img', { name: 'Back of Bo Park’s national id' })
    await expect.poll(() => back.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(200)
    await page.keyboard.press('Escape')

    // The approver rejects it; the reason reaches the owner.
    const mail = await waitForMail(approverEmail, /identity document/)
    const approver = await newPage(browser)
    await approver.page.goto(firstLink(mail.text, '/review-identity?token='))
    await approver.page.getByRole('img', { name: 'Back of Bo Park’s national id' }).waitFor()
    await approver.page.getByRole('radio', { name: /Reject/ }).check()
    await approver.page.getByLabel('Verification notes').fill('The photo is too blurred to recognise anyone.')
    await approver.page.getByRole('button', { name: 'Submit Review' }).click()
    await approver.page.getByRole('heading', { name: 'Thank you' }).waitFor()
    await approver.page.getByText('now rejected').waitFor()
    await approver.context.close()

    await page.reload()
    await doc.getByTestId('document-status').filter({ hasText: 'Rejected' }).waitFor()
    expect(await doc.textContent()).toContain('The photo is too blurred to recognise anyone.')
    await context.close()
  })

  it('explains a review link without its token, or one the server refuses', async () => {
    const { context, page } = await newPage(browser, { width: 375, height: 740 })
    await page.goto('/review-identity')
    await page.getByRole('heading', { name: 'Invalid Link' }).waitFor()
    expect(await page.getByText('Invalid verification link. No token provided.').isVisible()).toBe(true)
    await page.goto('/review-identity?token=not-a-real-token-at-all-0000')
    await page.getByRole('heading', { name: 'Invalid Link' }).waitFor()
    await page.getByText('This link is invalid').waitFor()
    await context.close()
  })
})
