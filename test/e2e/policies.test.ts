import { mkdirSync, readFileSync } from 'node:fs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest'
import type { Beneficiary } from '../../contract/circle'
import { AUTH_TOKEN_STORAGE_KEY } from '../../contract/constants'
import type { Policy } from '../../contract/policies'
import type { VaultItem } from '../../contract/vault-items'
import { baseUrl, launch, newPage, registerOwner, submitBeneficiaryDialog, uniqueEmail } from './browser'

// Access policies in the browser: a policy made for a tag gives the matching existing items to its
// beneficiary (grants made in this browser), applies again at upload time, is deactivated and
// deleted; then a lost Access Kit is replaced, with every grant re-wrapped and a new kit that the
// server never sees.

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

const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })
const toastText = (page: Page) => page.getByTestId('toast').textContent()
const nav = (page: Page, label: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click()

interface Sent {
  method: string
  url: string
  body: string
}

function recordRequests(context: BrowserContext): Sent[] {
  const sent: Sent[] = []
  context.on('request', (request) => sent.push({ method: request.method(), url: request.url(), body: request.postData() ?? '' }))
  return sent
}

function diagnoseOnFailure(page: Page, name: string) {
  const logs: string[] = []
  page.on('console', (msg) => logs.push(`${msg.type()}: ${msg.text()}`))
  onTestFailed(async () => {
    await page.screenshot({ path: `${SHOTS}/policies-failure-${name}.png` }).catch(() => undefined)
    console.error(`page log (${name}):\n${logs.join('\n')}`)
  })
}

/** The API as the page's session sees it (its token from localStorage). */
async function api<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate((key) => localStorage.getItem(key), AUTH_TOKEN_STORAGE_KEY)
  const res = await fetch(`${baseUrl()}${path}`, { headers: { Authorization: `Bearer ${token}` } })
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

async function addBeneficiary(page: Page, fullName: string, relationship: string) {
  await page.getByRole('button', { name: 'Add Beneficiary' }).first().click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Full name').fill(fullName)
  await dialog.getByLabel('Email').fill(uniqueEmail('policy-heir'))
  await dialog.getByLabel('Relationship').fill(relationship)
  await submitBeneficiaryDialog(page, dialog, PASSPHRASE)
  await dialog.getByRole('heading', { name: 'Beneficiary Access Kit' }).waitFor()
  await dialog.getByLabel('I have saved the kit').check()
  await dialog.getByRole('button', { name: 'Done' }).click()
  await dialog.waitFor({ state: 'detached' })
}

/** One document through the Add Item dialog; answers the new item's id. */
async function uploadDoc(page: Page, file: { name: string; text: string }, tags: string, beneficiaries: string[]): Promise<string> {
  const before = new Set((await api<VaultItem[]>(page, '/api/vault/items')).map((i) => i.id))
  await page.getByRole('button', { name: 'Add Item' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add Item' })
  await dialog.getByTestId('file-input').setInputFiles([{ name: file.name, mimeType: 'text/plain', buffer: Buffer.from(file.text) }])
  await dialog.getByLabel('Tags').fill(tags)
  for (const name of beneficiaries) await dialog.getByRole('checkbox', { name: new RegExp(name) }).check()
  await dialog.getByRole('button', { name: 'Encrypt & Upload' }).click()
  await dialog.waitFor({ state: 'detached', timeout: 30_000 })
  const after = await api<VaultItem[]>(page, '/api/vault/items')
  const added = after.filter((i) => !before.has(i.id))
  expect(added).toHaveLength(1)
  return added[0]!.id
}

const grantsOf = async (page: Page, itemId: string) =>
  ((await api<VaultItem[]>(page, '/api/vault/items')).find((i) => i.id === itemId)?.beneficiaryIds ?? []).slice().sort()

describe('access policies', () => {
  it('a tag policy assigns matching items, applies at upload, toggles and deletes; a lost kit is replaced', async () => {
    const { context, page } = await newPage(browser)
    const sent = recordRequests(context)
    diagnoseOnFailure(page, 'desktop')
    await registerOwner(page, { email: uniqueEmail('policies'), password: 'a sound password 1', passphrase: PASSPHRASE, displayName: 'Grace Owner' })

    // Two beneficiaries and an approver, through the UI (client-side navigation keeps the vault unlocked).
    await nav(page, 'Beneficiaries')
    await page.getByRole('heading', { name: 'Beneficiaries', level: 1 }).waitFor()
    await addBeneficiary(page, 'Ada Heir', 'Daughter')
    await addBeneficiary(page, 'Ben Heir', 'Accountant')
    await page.getByRole('button', { name: 'Add Approver' }).click()
    const approverDialog = page.getByRole('dialog')
    await approverDialog.getByLabel('Full name').fill('Sam Counsel')
    await approverDialog.getByLabel('Email').fill(uniqueEmail('policy-approver'))
    await approverDialog.getByLabel('Role').fill('Lawyer')
    await approverDialog.getByRole('button', { name: 'Add Approver' }).click()
    await approverDialog.waitFor({ state: 'detached' })
    const people = await api<Beneficiary[]>(page, '/api/beneficiaries')
    const ada = people.find((b) => b.fullName === 'Ada Heir')!
    const ben = people.find((b) => b.fullName === 'Ben Heir')!

    // Two documents for Ada: one tagged taxes, one tagged photos.
    await nav(page, 'Vault')
    await page.getByRole('heading', { name: 'Secure Vault' }).waitFor()
    await poll(() => page.getByTestId('vault-state').textContent()).toBe('Vault unlocked')
    const taxesItem = await uploadDoc(page, { name: 'tax-return-2024.txt', text: 'income and deductions' }, 'Taxes, 2024', ['Ada Heir'])
    const photosItem = await uploadDoc(page, { name: 'photo-index.txt', text: 'where the albums are' }, 'photos', ['Ada Heir'])
    expect(await grantsOf(page, taxesItem)).toEqual([ada.id])
    expect(await grantsOf(page, photosItem)).toEqual([ada.id])

    // The Access Policies page, empty at first.
    await nav(page, 'Policies')
    await page.getByRole('heading', { name: 'Access Policies', level: 1 }).waitFor()
    await page.getByRole('heading', { name: 'No access policies yet' }).waitFor()
    await page.getByRole('heading', { name: 'Policy guidelines' }).waitFor()
    await page.getByRole('button', { name: 'Create Policy' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Create Policy' })
    expect(await dialog.getByLabel('Delay (hours)').inputValue()).toBe('72')
    await dialog.getByText('24-72 hours is standard, 7+ days').waitFor()
    expect(await dialog.getByLabel('Minimum approvals').locator('option').allTextContents()).toEqual(['1', '2', '3'])

    // The contract's messages.
    await dialog.getByRole('button', { name: 'Create Policy' }).click()
    for (const message of [
      'Policy name must be at least 2 characters',
      'Description must be at least 10 characters',
      'Select at least one item type',
      'Select at least one beneficiary',
      'Select at least one trigger',
    ]) {
      await dialog.getByText(message).waitFor()
    }
    await dialog.getByLabel('Delay (hours)').fill('')
    await dialog.getByRole('switch', { name: 'Requires approver' }).click()
    await dialog.getByRole('button', { name: 'Create Policy' }).click()
    await dialog.getByText('Delay must be at least 0 hours').waitFor()
    await dialog.getByText('Approver contact is required when approver is needed').waitFor()
    expect(await dialog.getByLabel('Approver contact').getAttribute('type')).toBe('email')

    await dialog.getByLabel('Policy name').fill('Tax records')
    await dialog.getByLabel('Description').fill('Tax returns go to my accountant')
    await dialog.getByRole('checkbox', { name: 'Documents' }).check()
    await dialog.getByLabel('Tags').fill('taxes')
    await dialog.getByTestId('match-rule').getByText('at least one of them').waitFor()
    await dialog.getByRole('checkbox', { name: /Ben Heir/ }).check()
    await dialog.getByRole('checkbox', { name: /^Inactivity/ }).check()
    await dialog.getByRole('checkbox', { name: /^Verified death/ }).check()
    // Beside the delay, when the items would become available at the earliest, live: a death
    // report or inactivity never beats the 72-hour safety window; the owner's own hand does.
    const earliest = () => dialog.getByTestId('policy-earliest').textContent()
    await dialog.getByLabel('Delay (hours)').fill('0')
    await poll(earliest).toContain('If a death report starts it: 72 hours after (your safety window)')
    expect(await earliest()).toContain('If your check-in grace runs out: 72 hours after (your safety window)')
    expect(await earliest()).toContain('If you release it by hand: at once')
    await dialog.getByLabel('Delay (hours)').fill('100')
    await poll(earliest).toContain('If a death report starts it: 100 hours after')
    expect(await earliest()).toContain('If you release it by hand: 100 hours after')
    await dialog.getByLabel('Delay (hours)').fill('48')
    await dialog.getByLabel('Approver contact').fill('counsel@example.com')
    await dialog.getByRole('switch', { name: 'Requires identity verification' }).click()
    await dialog.getByRole('checkbox', { name: /Sam Counsel/ }).check()
    await dialog.getByRole('checkbox', { name: 'Passport' }).check()
    await dialog.getByLabel('Minimum approvals').selectOption('2')
    await page.screenshot({ path: `${SHOTS}/policies-create-1280.png` })
    await dialog.getByRole('button', { name: 'Create Policy' }).click()
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    await poll(() => toastText(page)).toContain('Policy created')
    expect(await toastText(page)).toContain('1 item now goes to Ben Heir')

    // Only the taxes item now lists Ben.
    expect(await grantsOf(page, taxesItem)).toEqual([ada.id, ben.id].sort())
    expect(await grantsOf(page, photosItem)).toEqual([ada.id])

    // The policy as the server keeps it: no selectors in clear.
    const [stored] = await api<Policy[]>(page, '/api/policies')
    expect(stored).toMatchObject({
      name: 'Tax records',
      status: 'active',
      ruleJson: { assign: [{ beneficiaryId: ben.id, access: 'read' }], release: { on: ['inactivity', 'verified_death'], delayHours: 48, requiresApprover: true } },
      requiresApprover: true,
      approverContact: 'counsel@example.com',
      requiresIdentityVerification: true,
      requiredDocumentTypes: ['passport'],
      minimumApprovals: 2,
    })
    expect(stored!.identityVerificationApprovers).toHaveLength(1)
    const create = sent.find((r) => r.method === 'POST' && r.url === `${baseUrl()}/api/policies`)!
    expect(create.body).not.toMatch(/taxes/i)
    expect(JSON.parse(create.body).ruleJson).not.toHaveProperty('selectors')

    const card = page.getByTestId('policy-card').filter({ hasText: 'Tax records' })
    expect(await card.getByTestId('policy-status').textContent()).toBe('Active')
    await poll(() => card.getByTestId('policy-covers').textContent()).toBe('Documents tagged taxes')
    expect(await card.getByTestId('policy-beneficiaries').textContent()).toBe('Ben Heir')
    // The real wait: the safety window for what fires by itself, the policy's delay by hand.
    await poll(() => card.getByTestId('policy-earliest').textContent()).toContain('If a death report starts it: 72 hours after (your safety window)')
    const cardText = await card.textContent()
    for (const text of [
      'Inactivity, Verified death',
      'If your check-in grace runs out: 72 hours after (your safety window)',
      'If you release it by hand: 48 hours after',
      'Requires Approver',
      'Identity Verification',
      'Tax returns go to my accountant',
    ]) {
      expect(cardText).toContain(text)
    }
    await page.screenshot({ path: `${SHOTS}/policies-1280.png`, fullPage: true })

    // At upload: a taxes document for Ada alone also goes to Ben; a photos one does not.
    await nav(page, 'Vault')
    await page.getByRole('heading', { name: 'Secure Vault' }).waitFor()
    const lateTaxes = await uploadDoc(page, { name: 'tax-letter.txt', text: 'a letter from the tax office' }, 'TAXES', ['Ada Heir'])
    await poll(() => toastText(page)).toContain('also gave matching items to Ben Heir')
    expect(await grantsOf(page, lateTaxes)).toEqual([ada.id, ben.id].sort())
    const latePhotos = await uploadDoc(page, { name: 'more-photos.txt', text: 'the attic box' }, 'photos', ['Ada Heir'])
    expect(await grantsOf(page, latePhotos)).toEqual([ada.id])

    // Add Item follows its own help text: a taxes document needs no beneficiary chosen, since the
    // policy already names one; the dialog says who receives it and when.
    const before = new Set((await api<VaultItem[]>(page, '/api/vault/items')).map((i) => i.id))
    await page.getByRole('button', { name: 'Add Item' }).click()
    const addItem = page.getByRole('dialog', { name: 'Add Item' })
    await addItem.getByTestId('file-input').setInputFiles([{ name: 'tax-return-2025.txt', mimeType: 'text/plain', buffer: Buffer.from('the 2025 return') }])
    await addItem.getByLabel('Tags').fill('taxes')
    await poll(() => addItem.getByTestId('policy-recipients').textContent()).toContain(
      'Ben Heir receives it through your policy “Tax records” when an Inactivity or Verified death trigger fires: 72 hours after (your safety window), or 48 hours after if you release it by hand.',
    )
    await addItem.getByRole('button', { name: 'Encrypt & Upload' }).click()
    await addItem.waitFor({ state: 'detached', timeout: 30_000 })
    const policyOnly = (await api<VaultItem[]>(page, '/api/vault/items')).filter((i) => !before.has(i.id))
    expect(policyOnly).toHaveLength(1)
    const policyOnlyItem = policyOnly[0]!.id
    expect(await grantsOf(page, policyOnlyItem)).toEqual([ben.id])

    // Locked (a reload): the policy still lists, without its selectors.
    await nav(page, 'Policies')
    await card.waitFor()
    await page.reload()
    await page.getByRole('heading', { name: 'Access Policies', level: 1 }).waitFor()
    await poll(() => card.getByTestId('policy-covers').textContent()).toContain('Unlock your vault to see which items')
    await page.getByTestId('policies-vault-state').waitFor()
    await page.screenshot({ path: `${SHOTS}/policies-locked-1280.png`, fullPage: true })
    await page.getByRole('button', { name: 'Unlock Vault' }).click()
    const unlock = page.getByRole('dialog', { name: 'Unlock Your Vault' })
    await unlock.getByLabel('Vault passphrase').fill(PASSPHRASE)
    await unlock.getByRole('button', { name: 'Unlock Vault' }).click()
    await unlock.waitFor({ state: 'detached' })
    await poll(() => card.getByTestId('policy-covers').textContent()).toBe('Documents tagged taxes')

    // Deactivate, activate, deactivate: the badge follows; then delete after a confirmation.
    await card.getByRole('button', { name: 'Deactivate' }).click()
    await poll(() => card.getByTestId('policy-status').textContent()).toBe('Inactive')
    await poll(() => toastText(page)).toContain('Policy deactivated')
    expect((await api<Policy[]>(page, '/api/policies'))[0]!.status).toBe('inactive')
    await card.getByRole('button', { name: 'Activate' }).click()
    await poll(() => card.getByTestId('policy-status').textContent()).toBe('Active')
    await card.getByRole('button', { name: 'Deactivate' }).click()
    await poll(() => card.getByTestId('policy-status').textContent()).toBe('Inactive')

    // On a phone the page and its dialog fit.
    await page.setViewportSize({ width: 375, height: 800 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await page.screenshot({ path: `${SHOTS}/policies-375.png`, fullPage: true })
    await page.getByRole('button', { name: 'Create Policy' }).first().click()
    const phoneDialog = page.getByRole('dialog', { name: 'Create Policy' })
    await phoneDialog.getByRole('switch', { name: 'Requires identity verification' }).click()
    expect(await phoneDialog.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    await page.screenshot({ path: `${SHOTS}/policies-create-375.png` })
    await page.keyboard.press('Escape')
    await phoneDialog.waitFor({ state: 'detached' })
    await page.setViewportSize({ width: 1280, height: 800 })

    await card.getByRole('button', { name: 'Delete Tax records' }).click()
    const confirm = page.getByRole('alertdialog')
    expect(await confirm.textContent()).toContain('cannot be undone')
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await card.waitFor({ state: 'detached' })
    await poll(() => toastText(page)).toContain('Policy deleted')
    await page.getByRole('heading', { name: 'No access policies yet' }).waitFor()
    expect(await api<Policy[]>(page, '/api/policies')).toEqual([])

    // A lost kit: replace Ben's key. Every item granted to him is re-wrapped; a new kit is shown.
    await nav(page, 'Beneficiaries')
    await page.getByRole('heading', { name: 'Beneficiaries', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Actions for Ben Heir' }).click()
    await page.getByRole('menuitem', { name: 'Replace key (lost kit)' }).click()
    const rotate = page.getByRole('dialog', { name: "Replace Ben Heir's key?" })
    await rotate.getByText('The old kit stops working for everything').waitFor()
    await rotate.getByText('(3 items)').waitFor()
    await page.screenshot({ path: `${SHOTS}/rotate-key-confirm-1280.png` })
    await rotate.getByRole('button', { name: 'Replace key' }).click()
    const kitDialog = page.getByRole('dialog', { name: 'New Access Kit' })
    await kitDialog.waitFor({ timeout: 30_000 })
    await poll(() => toastText(page)).toContain('Key replaced')
    const fingerprint = (await kitDialog.getByTestId('kit-fingerprint').textContent())!.trim()
    expect(fingerprint).toMatch(/^([0-9A-F]{4} ){15}[0-9A-F]{4}$/)
    expect(fingerprint).not.toBe(ben.publicKeyFingerprint)

    // Like adding a beneficiary: it cannot be closed before the kit is saved.
    expect(await kitDialog.getByRole('button', { name: 'Close' }).count()).toBe(0)
    const blocked = kitDialog.getByText('Download the kit or confirm that you have saved it')
    await poll(async () => {
      await page.keyboard.press('Escape')
      return blocked.isVisible()
    }).toBe(true)
    expect(await kitDialog.getByRole('button', { name: 'Done' }).isDisabled()).toBe(true)
    const [download] = await Promise.all([page.waitForEvent('download'), kitDialog.getByRole('button', { name: 'Download Access Kit' }).click()])
    expect(download.suggestedFilename()).toBe('access-kit-ben-heir.txt')
    const kit = readFileSync((await download.path())!, 'utf8')
    expect(kit).toContain(fingerprint)
    expect(kit).toContain('-----BEGIN PRIVATE KEY-----')
    await kitDialog.getByRole('button', { name: 'Done' }).click()
    await kitDialog.waitFor({ state: 'detached' })

    const after = (await api<Beneficiary[]>(page, '/api/beneficiaries')).find((b) => b.id === ben.id)!
    expect(after.publicKeyFingerprint).toBe(fingerprint)
    expect(after.keyVersion).toBe(ben.keyVersion + 1)
    await page.getByTestId('beneficiary-card').filter({ hasText: 'Ben Heir' }).getByText(fingerprint.split(' ').slice(0, 4).join(' ')).waitFor()

    // The rotation: started with the new public key signed by the vault, one grant per item Ben
    // holds sent in a page, one commit; and no private key anywhere.
    const base = `/api/beneficiaries/${ben.id}/rotations`
    const starts = sent.filter((r) => r.method === 'POST' && r.url.endsWith(base))
    expect(starts).toHaveLength(1)
    const body = JSON.parse(starts[0]!.body) as { publicKey: string; replacesKeyVersion: number }
    expect(Object.keys(body).sort()).toEqual(['keySignature', 'publicKey', 'replacesKeyVersion', 'statementSequence'])
    expect(body.replacesKeyVersion).toBe(ben.keyVersion)
    const pages = sent.filter((r) => r.method === 'PUT' && r.url.includes(`${base}/`) && r.url.endsWith('/grants'))
    const granted = pages.flatMap((p) => (JSON.parse(p.body) as { grants: Array<{ itemId: string }> }).grants.map((g) => g.itemId))
    expect(granted.sort()).toEqual([taxesItem, lateTaxes, policyOnlyItem].sort())
    const commits = sent.filter((r) => r.method === 'POST' && r.url.includes(`${base}/`) && r.url.endsWith('/commit'))
    expect(commits).toHaveLength(1)
    // The commit carries the vault's signature over the grant set it sent.
    expect(Object.keys(JSON.parse(commits[0]!.body) as object)).toEqual(['grantsSignature'])
    const keyBody = kit.split('-----BEGIN PRIVATE KEY-----')[1]!.split('-----END PRIVATE KEY-----')[0]!.replace(/\s+/g, '')
    const pieces = [keyBody, keyBody.slice(0, 64), keyBody.slice(400, 464), keyBody.slice(-64)]
    for (const request of sent) {
      expect(request.body).not.toContain('PRIVATE KEY')
      for (const piece of pieces) expect(request.body).not.toContain(piece)
    }
    await context.close()
  }, 240_000)
})
