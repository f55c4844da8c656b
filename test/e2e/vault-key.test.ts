import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { VAULT_MESSAGES } from '../../contract/vault'
import { launch, newPage, registerOwner, toastText, uniqueEmail, waitForMail } from './browser'

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
