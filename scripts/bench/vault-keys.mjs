// Vault keys (vault format 2): changing the passphrase of a vault of 10 000 items, against the same
// change on a vault of 10 items in the same run (the change re-wraps the vault key only, so the
// ratio should stay near 1); and the move of a format-1 vault of 1 000 items to its vault key,
// start to commit, against the same move of a 10-item vault (what the 990 more items cost: each
// is unwrapped by the passphrase's key, re-wrapped by the vault key and staged, in pages of 500).
// The 10-item move is the reference rather than an unlock of the moved vault because both sides then
// run the same code path (start, pages, commit), so the ratio is the cost of the items alone; the
// unlock comparison has its own row (the first unlock, move included, against the next one), as
// has the POST of the change alone (the server's share, where PBKDF2 does not hide a growth).
//
// The crypto runs in Node, not Chromium: scripts/bench/vault-keys.ts imports the product's own
// browser modules under tsx (the vault session of web/features/vault/vault-session.ts, whose
// unlock calls moveToVaultKey of web/features/vault/key-move.ts, and whose changePassphrase is what
// the Settings card calls), with Node's WebCrypto (the same API; PBKDF2-SHA256 at the product's
// 600 000 iterations). The vaults' items are seeded in SQL (POST /api/dev/vault-fill); a format-1
// vault is then made with POST /api/dev/format-one-vault from real wraps: a data key per item and
// the signing key, each wrapped by the passphrase's key, as format 1 had them.
// One row checks Node against the browser: the same 1 000-item move made by the vault page's own
// unlock in Chromium (scripts/bench/browser.mjs), start to commit, against the Node figure.
import { spawn } from 'node:child_process'
import { root } from '../lib/local-env.mjs'
import { launch, newPage, registerThroughUi, uniqueEmail } from './browser.mjs'
import { median } from './stats.mjs'

function runHelper(...args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--no-warnings', '--import', 'tsx', 'scripts/bench/vault-keys.ts', ...args], {
      cwd: root,
      // The SPA's modules import '@/…', which only the web project's paths resolve.
      env: { ...process.env, TSX_TSCONFIG_PATH: 'tsconfig.web.json' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1))) : reject(new Error(`vault-keys.ts exited with ${code}: ${err.slice(-2000)}`))))
  })
}

// The helper's format-1 vaults open with this passphrase (PASSPHRASES[0] of vault-keys.ts).
const PASSPHRASE = 'Harbour Lantern 42 Orchard!'
const PASSWORD = 'a sound password 1'
const BROWSER_RUNS = Number(process.env.BENCH_VAULTKEYS_BROWSER_RUNS ?? 2)

/** Click → "Vault unlocked" on the vault page (the page reloaded first, which locks the vault). */
async function unlockThroughPage(page) {
  await page.goto('/vault')
  const dialog = page.getByRole('dialog', { name: 'Unlock Your Vault' })
  await dialog.getByLabel('Vault passphrase').fill(PASSPHRASE)
  const t0 = performance.now()
  await dialog.getByRole('button', { name: 'Unlock Vault' }).click()
  await page.getByTestId('vault-state').filter({ hasText: 'Vault unlocked' }).waitFor({ timeout: 120_000 })
  return performance.now() - t0
}

/**
 * The same move in Chromium, made by the vault page's own unlock (the SPA's bundle): an owner
 * registered through the UI (that sign-in is the commit's fresh proof), their vault made format 1
 * with `items` items by the helper, then unlocked on the page. Timed from the page's POST
 * /api/vault/key-move to the commit's answer, as the page's requests show them; the click → unlocked
 * time is kept too, with the next unlock's (both also hold the page rendering the list of items).
 */
async function browserMoves(origin, items, log) {
  const { browser } = await launch()
  const moves = []
  const first = []
  const next = []
  try {
    for (let i = 0; i < BROWSER_RUNS; i++) {
      const { context, page } = await newPage(browser, origin)
      const email = uniqueEmail('vaultkeys-page')
      await registerThroughUi(page, { email, password: PASSWORD, passphrase: PASSPHRASE })
      const made = await runHelper(origin, 'format-one', email, PASSWORD, String(items))
      if (made.wraps !== items) throw new Error(`format-one-vault wrapped ${made.wraps} items, expected ${items}`)
      let started = null
      let committed = null
      const onRequest = (r) => {
        if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/vault/key-move' && started === null) started = performance.now()
      }
      const onResponse = (r) => {
        if (new URL(r.url()).pathname === '/api/vault/key-move/commit' && r.status() === 200) committed = performance.now()
      }
      page.on('request', onRequest)
      page.on('response', onResponse)
      first.push(await unlockThroughPage(page))
      page.off('request', onRequest)
      page.off('response', onResponse)
      // The page opens with the old key when the move fails: the stored vault key says it moved.
      const moved = await page.evaluate(async () => (await (await fetch('/api/auth/me', { headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}` } })).json()).user.vaultKey)
      if (!moved || started === null || committed === null) throw new Error('the vault page did not move the vault to its vault key')
      moves.push(committed - started)
      next.push(await unlockThroughPage(page))
      await context.close()
    }
  } finally {
    await browser.close()
  }
  log(`vaultkeys: Chromium move ${moves.map((s) => s.toFixed(0)).join(', ')} ms; click → unlocked ${first.map((s) => s.toFixed(0)).join(', ')} ms, next ${next.map((s) => s.toFixed(0)).join(', ')} ms`)
  return { moves, first, next }
}

const range = (samples) => `${Math.min(...samples).toFixed(0)}–${Math.max(...samples).toFixed(0)} ms`
const n = (count) => count.toLocaleString('en-US')

export async function measureVaultKeys({ origin, log }) {
  const r = await runHelper(origin)
  const page = await browserMoves(origin, r.moveItems, log)
  const pick = (list, key) => list.map((s) => s[key])
  const change = { large: pick(r.change.large, 'total'), small: pick(r.change.small, 'total'), largePost: pick(r.change.large, 'post'), smallPost: pick(r.change.small, 'post') }
  const move = {
    large: pick(r.move.large, 'move'),
    small: pick(r.move.small, 'move'),
    unlock: pick(r.move.large, 'unlock'),
    unlockAfter: pick(r.move.large, 'unlockAfter'),
  }
  log(`vaultkeys: passphrase change ${n(r.changeItems)} items ${median(change.large).toFixed(0)} ms (POST ${median(change.largePost).toFixed(0)} ms), ${r.smallItems} items ${median(change.small).toFixed(0)} ms`)
  log(`vaultkeys: move ${n(r.moveItems)} items ${median(move.large).toFixed(0)} ms, ${r.smallItems} items ${median(move.small).toFixed(0)} ms`)
  const pages = r.move.large[0].pages
  const pbkdf2 = `PBKDF2 alone here ${median(r.pbkdf2).toFixed(0)} ms`
  return {
    rows: [
      {
        id: 'vaultkeys.passphraseChange',
        measurement: `Passphrase change, vault of ${n(r.changeItems)} items: both passphrase keys derived, vault key re-wrapped, POST /api/vault/passphrase (median)`,
        value: median(change.large),
        unit: 'ms',
        detail: `${change.large.length} runs, ${range(change.large)}; Node WebCrypto, PBKDF2-SHA256 600 000 ×2 (${pbkdf2})`,
        reference: { label: `the same change, vault of ${r.smallItems} items`, value: median(change.small) },
      },
      {
        id: 'vaultkeys.passphraseChange.post',
        measurement: `Passphrase change, vault of ${n(r.changeItems)} items: the POST alone (median)`,
        value: median(change.largePost),
        unit: 'ms',
        detail: `${change.largePost.length} runs, ${range(change.largePost)}`,
        reference: { label: `the POST, vault of ${r.smallItems} items`, value: median(change.smallPost) },
      },
      {
        id: 'vaultkeys.migration',
        measurement: `Move of a format-1 vault of ${n(r.moveItems)} items to its vault key, start to commit (median)`,
        value: median(move.large),
        unit: 'ms',
        detail: `${move.large.length} runs, ${range(move.large)}; ${pages} pages; every data key unwrapped and re-wrapped in Node WebCrypto`,
        reference: { label: `the same move, vault of ${r.smallItems} items`, value: median(move.small) },
      },
      {
        id: 'vaultkeys.migration.unlock',
        measurement: `First unlock of a format-1 vault of ${n(r.moveItems)} items, the move included (median)`,
        value: median(move.unlock),
        unit: 'ms',
        detail: `${move.unlock.length} runs, ${range(move.unlock)}; PBKDF2 ×2 (the unlock's, the move's) and the move (${pbkdf2})`,
        reference: { label: 'the next unlock of the same vault, moved', value: median(move.unlockAfter) },
      },
      {
        id: 'vaultkeys.migration.chromium',
        measurement: `Move of a format-1 vault of ${n(r.moveItems)} items on the vault page in Chromium, start to commit (median)`,
        value: median(page.moves),
        unit: 'ms',
        detail: `${page.moves.length} runs, ${range(page.moves)}; click → unlocked ${median(page.first).toFixed(0)} ms, the next unlock ${median(page.next).toFixed(0)} ms (both with the page listing the items)`,
        reference: { label: 'the same move in Node (vaultkeys.migration)', value: median(move.large) },
      },
    ],
    raw: { ...r, page },
  }
}
