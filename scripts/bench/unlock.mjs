// Unlocking the vault in Chromium: PBKDF2-HMAC-SHA256, 600 000 iterations, to a non-extractable
// AES-GCM-256 key with crypto.subtle (web/crypto/master-key.ts and params.ts), alone; and the
// whole unlock through the vault page (passphrase typed, Unlock Vault clicked, vault open).
import { launch, newPage, openVault, registerThroughUi, uniqueEmail } from './browser.mjs'
import { median } from './stats.mjs'

const PASSPHRASE = 'Harbour Lantern 42 Orchard!'
const RUNS = Number(process.env.BENCH_UNLOCK_RUNS ?? 5)

export async function measureUnlock({ origin, log }) {
  const { browser } = await launch()
  try {
    const { context, page } = await newPage(browser, origin)
    await registerThroughUi(page, { email: uniqueEmail('unlock'), password: 'a sound password 1', passphrase: PASSPHRASE })

    // The derivation alone, with the app's parameters; one warm-up run first.
    const derive = await page.evaluate(
      async ({ passphrase, runs }) => {
        const samples = []
        for (let i = 0; i <= runs; i++) {
          const salt = crypto.getRandomValues(new Uint8Array(32))
          const t0 = performance.now()
          const material = await crypto.subtle.importKey('raw', new TextEncoder().encode(passphrase.normalize('NFC')), 'PBKDF2', false, ['deriveKey'])
          await crypto.subtle.deriveKey(
            { name: 'PBKDF2', salt, iterations: 600_000, hash: 'SHA-256' },
            material,
            { name: 'AES-GCM', length: 256 },
            false,
            ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey'],
          )
          if (i > 0) samples.push(performance.now() - t0)
        }
        return samples
      },
      { passphrase: PASSPHRASE, runs: RUNS },
    )
    log(`unlock: PBKDF2 ${derive.map((s) => s.toFixed(0)).join(', ')} ms`)

    // Through the UI: a reload locks the vault (the key lives in the tab's memory only) and the
    // vault page asks for the passphrase; timed from the click to the page showing it unlocked.
    await openVault(page)
    const ui = []
    for (let i = 0; i < Math.max(3, Math.ceil(RUNS / 2)); i++) {
      await page.reload()
      const dialog = page.getByRole('dialog', { name: 'Unlock Your Vault' })
      await dialog.getByLabel('Vault passphrase').fill(PASSPHRASE)
      const t0 = performance.now()
      await dialog.getByRole('button', { name: 'Unlock Vault' }).click()
      await page.getByTestId('vault-state').filter({ hasText: 'Vault unlocked' }).waitFor()
      ui.push(performance.now() - t0)
    }
    log(`unlock: UI ${ui.map((s) => s.toFixed(0)).join(', ')} ms`)
    await context.close()
    const d = median(derive)
    return {
      rows: [
        { id: 'unlock.pbkdf2', measurement: 'Unlock: PBKDF2-SHA256 600 000 → AES-GCM-256 in Chromium (median)', value: d, unit: 'ms', detail: `${derive.length} runs, ${Math.min(...derive).toFixed(0)}–${Math.max(...derive).toFixed(0)}` },
        { id: 'unlock.ui', measurement: 'Unlock through the vault page (click → unlocked, median)', value: median(ui), unit: 'ms', detail: `${ui.length} runs`, reference: { label: 'PBKDF2 alone', value: d } },
      ],
      raw: { derive, ui },
    }
  } finally {
    await browser.close()
  }
}
