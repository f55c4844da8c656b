import { mkdirSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { onTestFailed } from 'vitest'
import { baseUrl, firstLink, registerOwner, uniqueEmail, waitForMail } from './browser'

// The estate most release journeys start from, built through the owner's pages: an owner with a
// vault, an heir whose Access Kit is saved, an item for the heir, and a manual release. Each step
// is its own function so a test can do something of its own between two of them. Playwright's own
// waits only (no expect.poll), so the steps also run in hooks.

export const SHOTS = '/tmp/shots'
export const ESTATE_PASSPHRASE = 'Harbour-Quill-58-Meadow'

/** A file given to the upload dialog: a path on disk, or a name, type and bytes. */
export type UploadFile = string | { name: string; mimeType: string; buffer: Buffer }

/** The main navigation's link `name`. */
export async function nav(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click()
}

/** On a failure: a screenshot of `page` in SHOTS (named after the file and `name`) and its console. */
export function diagnoseOnFailure(page: Page, file: string, name: string): void {
  const logs: string[] = []
  page.on('console', (msg) => logs.push(`${msg.type()}: ${msg.text()}`))
  onTestFailed(async () => {
    mkdirSync(SHOTS, { recursive: true })
    await page.screenshot({ path: `${SHOTS}/${file}-failure-${name}.png`, fullPage: true }).catch(() => undefined)
    console.error(`page log (${name}):\n${logs.join('\n')}`)
  })
}

export interface Heir {
  fullName: string
  email: string
  relationship?: string
}

/**
 * Adds `heir` on the Beneficiaries page (the vault unlocked), downloads the Access Kit and closes
 * the dialog; answers where the kit was saved (Playwright's copy, there while the page's context is open).
 */
export async function addHeirWithKit(page: Page, heir: Heir): Promise<string> {
  await nav(page, 'Beneficiaries')
  await page.getByRole('heading', { name: 'Beneficiaries', level: 1 }).waitFor()
  await page.getByRole('button', { name: 'Add Beneficiary' }).first().click()
  const add = page.getByRole('dialog')
  await add.getByLabel('Full name').fill(heir.fullName)
  await add.getByLabel('Email').fill(heir.email)
  await add.getByLabel('Relationship').fill(heir.relationship ?? 'Daughter')
  await add.getByRole('button', { name: 'Add Beneficiary' }).click()
  await add.getByRole('heading', { name: 'Beneficiary Access Kit' }).waitFor()
  const [kit] = await Promise.all([page.waitForEvent('download'), add.getByRole('button', { name: 'Download Access Kit' }).click()])
  const kitPath = (await kit.path())!
  await add.getByRole('button', { name: 'Done' }).click()
  await add.waitFor({ state: 'detached' })
  return kitPath
}

/** The vault's first upload: `files` for the heir named `heirName`, under `condition` (Manual Release unless told). */
export async function uploadFirstItemFor(page: Page, files: UploadFile | UploadFile[], heirName: string, condition = 'MANUAL_RELEASE'): Promise<void> {
  await nav(page, 'Vault')
  await page.getByTestId('vault-state').filter({ hasText: /^Vault unlocked$/ }).waitFor()
  await page.getByRole('button', { name: 'Upload First Item' }).click()
  const upload = page.getByRole('dialog', { name: 'Add Item' })
  await upload.getByTestId('file-input').setInputFiles(files as Parameters<Page['setInputFiles']>[1])
  await upload.getByLabel('Release condition').selectOption(condition)
  await upload.getByRole('checkbox', { name: new RegExp(heirName) }).check()
  await upload.getByRole('button', { name: /^Encrypt & Upload/ }).click()
  await upload.waitFor({ state: 'detached', timeout: 60_000 })
}

/** A Verified Death trigger, then Release Now from the Trigger Monitor; waits for the toast that counts `items`. */
export async function releaseNow(page: Page, reason: string, items: number): Promise<void> {
  await nav(page, 'Triggers')
  await page.getByRole('button', { name: 'Set Up Verified Death trigger' }).click()
  const create = page.getByRole('dialog', { name: 'Create Trigger' })
  await create.getByRole('button', { name: 'Create Trigger' }).click()
  await create.waitFor({ state: 'detached' })
  await page.getByRole('link', { name: 'Open Trigger Monitor' }).click()
  await page.getByRole('heading', { name: 'Trigger Monitor' }).waitFor()
  await page.getByTestId('manual-trigger-select').selectOption({ index: 1 })
  await page.getByLabel('Reason').fill(reason)
  await page.getByRole('button', { name: 'Release Now' }).click()
  const confirm = page.getByRole('dialog', { name: 'Release now?' })
  await confirm.getByLabel('Type RELEASE to confirm').fill('RELEASE')
  await confirm.getByRole('button', { name: 'Release Now' }).click()
  await confirm.waitFor({ state: 'detached' })
  await page.getByTestId('toast').filter({ hasText: new RegExp(`\\b${items} items?\\b`) }).waitFor({ timeout: 15_000 })
}

/** The portal link of the heir's "left something for you" e-mail, absolute. */
export async function releasedPortalUrl(heirEmail: string): Promise<string> {
  const mail = await waitForMail(heirEmail, /left something for you/, 15_000)
  const link = firstLink(mail.text, '/beneficiary-portal')
  return link.startsWith('http') ? link : `${baseUrl()}${link}`
}

export interface ReleasedEstate {
  ownerEmail: string
  heirEmail: string
  kitPath: string
  portalUrl: string
}

/**
 * The whole estate on `page`: a registered owner (vault passphrase ESTATE_PASSPHRASE), `heir` with
 * their kit, `files` for them under Manual Release, released now with `reason`.
 */
export async function releasedEstate(
  page: Page,
  options: { files: UploadFile | UploadFile[]; heirName?: string; ownerName?: string; reason?: string },
): Promise<ReleasedEstate> {
  const ownerEmail = uniqueEmail('estate-owner')
  const heirEmail = uniqueEmail('estate-heir')
  const heirName = options.heirName ?? 'Ada Heir'
  await registerOwner(page, { email: ownerEmail, password: 'a sound password 1', passphrase: ESTATE_PASSPHRASE, displayName: options.ownerName ?? 'Grace Owner' })
  const kitPath = await addHeirWithKit(page, { fullName: heirName, email: heirEmail })
  await uploadFirstItemFor(page, options.files, heirName)
  await releaseNow(page, options.reason ?? 'The family asked for the letter', Array.isArray(options.files) ? options.files.length : 1)
  return { ownerEmail, heirEmail, kitPath, portalUrl: await releasedPortalUrl(heirEmail) }
}
