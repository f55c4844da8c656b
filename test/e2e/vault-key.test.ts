import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { VAULT_MESSAGES } from '../../contract/vault'
import { AUTH_TOKEN_STORAGE_KEY } from '../../contract/constants'
import { addBeneficiaryThroughUi, baseUrl, keepRecoveryKit, launch, newPage, registerOwner, toastText, uniqueEmail, waitForMail } from './browser'

// The vault key (vault format 2): the owner changes the passphrase from Settings, then the vault
// opens with the new one only.

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

async function unlockOnVaultPage(page: Page, passphrase: string): Promise<'unlocked' | 'refused'> {
  const dialog = page.getByRole('dialog', { name: 'Unlock Your Vault' })
  await dialog.waitFor()
  await dialog.getByLabel('Vault passphrase').fill(passphrase)
  await dialog.getByRole('button', { name: 'Unlock Vault' }).click()
  const refused = dialog.getByText(VAULT_MESSAGES.invalidPassphrase)
  const state = page.getByTestId('vault-state')
  await expect.poll(async () => ((await refused.isVisible()) ? 'refused' : await state.textContent())).toMatch(/refused|Vault unlocked/)
  return (await refused.isVisible()) ? 'refused' : 'unlocked'
}

async function openFromMenu(page: Page, item: string) {
  await page.getByRole('button', { name: 'Account menu' }).click()
  await page.getByRole('menuitem', { name: item }).click()
}

describe('the vault passphrase can change', () => {
  it('the owner changes it in Settings, locks, and only the new one unlocks; they are told by e-mail', async () => {
    const { context, page } = await newPage(browser)
    const email = uniqueEmail('vaultkey')
    const first = 'Lighthouse keeper owns nine kites!'
    const second = 'Marble otters debate quietly at noon 7'
    await registerOwner(page, { email, password: 'a sound password 1', passphrase: first })

    await page.goto('/vault')
    expect(await unlockOnVaultPage(page, first)).toBe('unlocked')
    await openFromMenu(page, 'Settings')
    const card = page.getByRole('form', { name: 'Change vault passphrase' })
    await card.waitFor()
    await card.getByLabel('Current vault passphrase').fill('not my passphrase at all 1!')
    await card.getByLabel('New vault passphrase').fill(second)
    await card.getByLabel('Confirm new passphrase').fill(second)
    await card.getByRole('button', { name: 'Change passphrase' }).click()
    await card.getByText(VAULT_MESSAGES.currentPassphraseWrong).waitFor()

    await card.getByLabel('Current vault passphrase').fill(first)
    await card.getByRole('button', { name: 'Change passphrase' }).click()
    await expect.poll(() => toastText(page)).toContain(VAULT_MESSAGES.passphraseChanged)
    await waitForMail(email, /Your vault passphrase was changed/)

    // Still unlocked in this tab; lock, then the old passphrase is refused and the new one opens.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vault' }).click()
    await expect.poll(() => page.getByTestId('vault-state').textContent()).toBe('Vault unlocked')
    await page.getByRole('button', { name: 'Lock Vault' }).click()
    await page.getByRole('button', { name: 'Unlock Vault' }).click()
    expect(await unlockOnVaultPage(page, first)).toBe('refused')
    expect(await unlockOnVaultPage(page, second)).toBe('unlocked')
    await context.close()
  })
})

// --- An older vault (format 1), made from a new one by re-wrapping its keys under the passphrase's
// key here in Node, with only what FORMAT.md says; then moved by the owner's next unlock.

const subtle = globalThis.crypto.subtle
const b64 = (bytes: ArrayBuffer | Uint8Array) => Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString('base64')
const unb64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'))

function aad(purpose: string, ...numbers: number[]): Uint8Array<ArrayBuffer> {
  const tag = Buffer.from(purpose, 'utf8')
  const parts = [Buffer.concat([Buffer.from([1, 0, 0, 0, 0]), tag])]
  parts[0]!.writeUInt32BE(tag.length, 1)
  for (const n of [1, ...numbers]) {
    const f = Buffer.alloc(5)
    f[0] = 2
    f.writeUInt32BE(n, 1)
    parts.push(f)
  }
  return new Uint8Array(Buffer.concat(parts))
}

function envelope(text: string) {
  const bytes = unb64(text)
  return { iv: bytes.slice(1, 13), body: bytes.slice(13) }
}

async function wrapUnder(format: 'raw' | 'pkcs8', key: CryptoKey, wrapping: CryptoKey, purpose: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const wrapped = new Uint8Array(await subtle.wrapKey(format, key, wrapping, { name: 'AES-GCM', iv, additionalData: aad(purpose) }))
  return b64(Buffer.concat([Buffer.from([1]), iv, wrapped]))
}

async function api<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate((key) => localStorage.getItem(key), AUTH_TOKEN_STORAGE_KEY)
  const res = await fetch(`${baseUrl()}${path}`, { headers: { Authorization: `Bearer ${token}` } })
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

interface Me {
  vaultSalt: string
  vaultKey: string | null
  vaultSigningKey: { wrapped: string }
}

/** The vault's signing key and every item's data key, re-wrapped by the passphrase's key as format 1 had them. */
async function makeFormatOne(page: Page, email: string, passphrase: string) {
  const me = (await api<{ user: Me }>(page, '/api/auth/me')).user
  const items = await api<Array<{ id: string; wrappedKey: string }>>(page, '/api/vault/items')
  const material = await subtle.importKey('raw', Buffer.from(passphrase.normalize('NFC'), 'utf8'), 'PBKDF2', false, ['deriveKey'])
  const passphraseKey = await subtle.deriveKey({ name: 'PBKDF2', salt: unb64(me.vaultSalt), iterations: 600_000, hash: 'SHA-256' }, material, { name: 'AES-GCM', length: 256 }, false, [
    'wrapKey',
    'unwrapKey',
  ])
  const vk = envelope(me.vaultKey!)
  const vaultKey = await subtle.unwrapKey('raw', vk.body, passphraseKey, { name: 'AES-GCM', iv: vk.iv, additionalData: aad('legacy-vault:vault-key-wrap', 2) }, { name: 'AES-GCM', length: 256 }, false, [
    'wrapKey',
    'unwrapKey',
  ])
  const sk = envelope(me.vaultSigningKey.wrapped)
  const signing = await subtle.unwrapKey('pkcs8', sk.body, vaultKey, { name: 'AES-GCM', iv: sk.iv, additionalData: aad('legacy-vault:signing-key-wrap') }, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign'])
  const wraps = []
  for (const item of items) {
    const e = envelope(item.wrappedKey)
    const dek = await subtle.unwrapKey('raw', e.body, vaultKey, { name: 'AES-GCM', iv: e.iv, additionalData: aad('legacy-vault:data-key-wrap') }, { name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt'])
    wraps.push({ kind: 'item', id: item.id, wrappedKey: await wrapUnder('raw', dek, passphraseKey, 'legacy-vault:data-key-wrap') })
  }
  const body = { email, wrappedSigningKey: await wrapUnder('pkcs8', signing, passphraseKey, 'legacy-vault:signing-key-wrap'), wraps }
  const res = await fetch(`${baseUrl()}/api/dev/format-one-vault`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (!res.ok) throw new Error(`format-one-vault: ${res.status} ${await res.text()}`)
  return items.length
}

describe('an older vault', () => {
  it('moves to a vault key at its next unlock, and its items still open', async () => {
    const { context, page } = await newPage(browser)
    const email = uniqueEmail('vaultkey-move')
    const passphrase = 'Lighthouse keeper owns nine kites!'
    await registerOwner(page, { email, password: 'a sound password 1', passphrase })
    await addBeneficiaryThroughUi(page, { fullName: 'Ada Heir' })
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vault' }).click()
    await page.getByRole('button', { name: 'Upload First Item' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add Item' })
    await dialog.getByTestId('file-input').setInputFiles([{ name: 'will.txt', mimeType: 'text/plain', buffer: Buffer.from('my last will') }])
    await dialog.getByRole('checkbox', { name: /Ada Heir/ }).check()
    await dialog.getByRole('button', { name: /^Encrypt & Upload/ }).click()
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })

    expect(await makeFormatOne(page, email, passphrase)).toBe(1)
    expect((await api<{ user: Me }>(page, '/api/auth/me')).user.vaultKey).toBeNull()

    // A reload locks; the unlock opens the older vault and moves it.
    await page.goto('/vault')
    expect(await unlockOnVaultPage(page, passphrase)).toBe('unlocked')
    await expect.poll(async () => (await api<{ user: Me }>(page, '/api/auth/me')).user.vaultKey, { timeout: 15_000 }).not.toBeNull()
    await page.getByText('will.txt').first().waitFor()

    // And as a vault of format 2 from then on.
    await page.goto('/vault')
    expect(await unlockOnVaultPage(page, 'not the passphrase at all')).toBe('refused')
    expect(await unlockOnVaultPage(page, passphrase)).toBe('unlocked')
    await page.getByText('will.txt').first().waitFor()

    // Made before recovery codes, it has none: the vault page says so and Settings makes one.
    await page.getByTestId('no-recovery-code').getByRole('link', { name: 'Make a recovery code in Settings' }).click()
    await expect.poll(() => page.getByTestId('recovery-status').textContent()).toBe('Your vault has no recovery code yet.')
    const make = page.getByRole('form', { name: 'Make a new recovery code' })
    await make.getByLabel('Current vault passphrase').fill(passphrase)
    await make.getByRole('button', { name: 'Make a recovery code' }).click()
    await keepRecoveryKit(page, 'Done')
    await expect.poll(() => page.getByTestId('recovery-status').textContent()).toMatch(/^Your current recovery code was made on /)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vault' }).click()
    await page.getByText('will.txt').first().waitFor()
    expect(await page.getByTestId('no-recovery-code').count()).toBe(0)
    await context.close()
  })
})
