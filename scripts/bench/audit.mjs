// Audit chain verification: verifyChain (contract/audit.ts) over 100 000 entries in Node, per
// entry, against the bare SHA-256 digests it must compute; and, with a server, GET
// /api/audit/verify for an owner whose chain the bench grows with check-ins (the owner's Durable
// Object re-hashes its whole chain), and the Audit Log in Chromium reading and verifying a chain
// of 5 000 entries (seeded in the object's SQL) from the genesis hash, against the same number of
// bare SHA-256 digests in the same page.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { root } from '../lib/local-env.mjs'
import { launch, newPage, registerThroughUi, uniqueEmail } from './browser.mjs'
import { client } from './http.mjs'
import { median, pool, timeRuns } from './stats.mjs'

const ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES ?? 100_000)
const SERVER_ENTRIES = Number(process.env.BENCH_AUDIT_SERVER_ENTRIES ?? 1000)
const BROWSER_ENTRIES = Number(process.env.BENCH_AUDIT_BROWSER_ENTRIES ?? 5000)

function runChain() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/audit-chain.ts', String(ENTRIES)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1))) : reject(new Error(`audit-chain.ts exited with ${code}: ${err}`))))
  })
}

export async function measureAudit({ origin, log, context }) {
  const chain = await runChain()
  if (!chain.valid || chain.checked !== ENTRIES || chain.tamperedFoundAt !== (ENTRIES >> 1) + 1) throw new Error(`audit chain check failed: ${JSON.stringify(chain)}`)
  log(`audit: ${ENTRIES.toLocaleString('en-US')} entries verified in ${chain.workerMs.toFixed(0)} ms`)
  const perEntry = (ms, n) => (ms * 1000) / n
  const bare = perEntry(chain.bareMs, ENTRIES)
  const rows = [
    { id: 'audit.node', measurement: `Audit chain verification, ${ENTRIES.toLocaleString('en-US')} entries, Node (the contract's verifyChain)`, value: perEntry(chain.contractMs, ENTRIES), unit: 'µs/entry', detail: `${(chain.contractMs / 1000).toFixed(2)} s in all; goal ≤ 5 µs/entry`, reference: { label: 'bare WebCrypto digests awaited one by one (as 0.1 verified)', value: bare } },
    { id: 'audit.node.worker', measurement: `Audit chain verification, ${ENTRIES.toLocaleString('en-US')} entries, Node (node:crypto's SHA-256, as the owner's object)`, value: perEntry(chain.workerMs, ENTRIES), unit: 'µs/entry', detail: `${(chain.workerMs / 1000).toFixed(2)} s in all`, reference: { label: "the contract's verifyChain", value: perEntry(chain.contractMs, ENTRIES) } },
  ]
  if (origin) {
    const api = client(origin)
    // The owner with the longest chain the other measurements left (check-ins under load, a
    // fan-out's uploads and releases), or a new one whose chain grows here by check-ins.
    let owner = null
    let verify = null
    for (const token of context?.auditOwners ?? []) {
      const v = await api.json('GET', '/api/audit/verify', { token })
      if (!verify || v.checked > verify.checked) [owner, verify] = [{ token }, v]
    }
    if (!verify || verify.checked < SERVER_ENTRIES) {
      owner = await api.registerOwner('audit')
      await pool(SERVER_ENTRIES, 8, () => api.json('POST', '/api/inactivity/ping', { token: owner.token }))
      verify = await api.json('GET', '/api/audit/verify', { token: owner.token })
    }
    if (!verify.valid) throw new Error(`server audit verify: ${JSON.stringify(verify)}`)
    const samples = await timeRuns(() => api.json('GET', '/api/audit/verify', { token: owner.token }), 3)
    const ms = median(samples)
    log(`audit: server verify of ${verify.checked} entries ${ms.toFixed(0)} ms`)
    rows.push({
      id: 'audit.server',
      measurement: `GET /api/audit/verify, ${verify.checked.toLocaleString('en-US')} entries (owner's Durable Object)`,
      value: perEntry(ms, verify.checked),
      unit: 'µs/entry',
      detail: `${ms.toFixed(0)} ms per call`,
      reference: { label: 'verifyChain in Node (node:crypto)', value: perEntry(chain.workerMs, ENTRIES) },
    })
  }
  if (origin) rows.push(...(await measureBrowserChain(origin, log)))
  return { rows, raw: chain }
}

/**
 * contract/audit.ts (with its SHA-256) bundled as it is in the app and run in the page over the
 * owner's whole chain read from the API: the verifier alone, without the transfer, against the
 * same inputs digested by WebCrypto and awaited one at a time.
 */
async function verifierInPage(page, expected) {
  const { build } = await import('esbuild')
  const bundle = await build({ entryPoints: [join(root, 'contract/audit.ts')], bundle: true, write: false, format: 'iife', globalName: '__auditBench', target: 'es2022', minify: true })
  await page.evaluate(bundle.outputFiles[0].text)
  const result = await page.evaluate(async (expected) => {
    const { verifyChain, hashInput } = window.__auditBench
    const headers = { authorization: `Bearer ${localStorage.getItem('auth_token')}` }
    const entries = []
    for (let from = 1; ; ) {
      const page = await (await fetch(`/api/audit?from=${from}&limit=1000`, { headers })).json()
      const list = Array.isArray(page) ? page : page.entries
      entries.push(...list)
      if (list.length < 1000) break
      from = list.at(-1).seq + 1
    }
    if (entries.length < expected) throw new Error(`read ${entries.length} entries, expected ${expected}`)
    verifyChain(entries.slice(0, 500))
    const runs = []
    let verdict = null
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now()
      verdict = verifyChain(entries)
      runs.push(performance.now() - t0)
    }
    const inputs = entries.map((e) => new TextEncoder().encode(hashInput(e.prevHash, e)))
    const t0 = performance.now()
    for (const input of inputs) await crypto.subtle.digest('SHA-256', input)
    const bareMs = performance.now() - t0
    runs.sort((a, b) => a - b)
    return { n: entries.length, ms: runs[2], bareMs, valid: verdict.valid }
  }, expected)
  if (!result.valid) throw new Error('the chain did not verify in the page')
  return result
}

/** /audit opened afresh (page load, every page of the chain read, every entry hashed) until 'Chain Verified'. */
async function measureBrowserChain(origin, log) {
  const { browser } = await launch()
  try {
    const { context, page } = await newPage(browser, origin)
    const email = uniqueEmail('audit-browser')
    await registerThroughUi(page, { email, password: 'a sound password 1', passphrase: 'Harbour Lantern 42 Orchard!' })
    const fill = await fetch(`${origin}/api/dev/audit-fill`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, count: BROWSER_ENTRIES }),
    })
    if (!fill.ok) throw new Error(`audit fill: ${fill.status} ${await fill.text()}`)
    const runs = []
    let checked = 0
    for (let i = 0; i < 4; i++) {
      const t0 = performance.now()
      await page.goto('/audit')
      const banner = page.getByTestId('chain-banner').filter({ hasText: 'Chain Verified' })
      await banner.waitFor({ timeout: 120_000 })
      const took = performance.now() - t0
      checked = Number((/([\d,]+) entries checked/.exec((await banner.textContent()) ?? '')?.[1] ?? '0').replace(/,/g, ''))
      if (i > 0) runs.push(took)
    }
    if (checked < BROWSER_ENTRIES) throw new Error(`the Audit Log verified ${checked} entries, expected at least ${BROWSER_ENTRIES}`)
    // The floor: the same number of SHA-256 digests of entry-sized inputs, in the same page.
    const bare = await page.evaluate(async (n) => {
      const input = new TextEncoder().encode(`${'0'.repeat(64)}\n{"action":"dev.filled","actor":"system","createdAt":"2026-11-25T12:00:00.000Z","details":{"n":1234},"id":"00000000-0000-4000-8000-000000000000","seq":1234}`)
      const t0 = performance.now()
      for (let i = 0; i < n; i++) await crypto.subtle.digest('SHA-256', input)
      return performance.now() - t0
    }, checked)
    const verifier = await verifierInPage(page, checked)
    await context.close()
    const ms = median(runs)
    log(`audit: the Audit Log verified ${checked} entries in ${runs.map((r) => r.toFixed(0)).join(', ')} ms (bare digests ${bare.toFixed(0)} ms)`)
    return [
      {
        id: 'audit.browser',
        measurement: `Audit Log in Chromium: whole chain of ${checked.toLocaleString('en-US')} entries read and verified (page open → Chain Verified, median)`,
        value: ms,
        unit: 'ms',
        detail: `${runs.length} runs, ${((ms * 1000) / checked).toFixed(0)} µs/entry`,
        reference: { label: 'bare SHA-256 digests in the page', value: bare },
      },
      {
        id: 'audit.browser.verify',
        measurement: `Audit chain verification in Chromium, ${verifier.n.toLocaleString('en-US')} entries (the app's verifyChain, median of 5)`,
        value: (verifier.ms * 1000) / verifier.n,
        unit: 'µs/entry',
        detail: `${verifier.ms.toFixed(1)} ms in all; goal ≤ 5 µs/entry`,
        reference: { label: 'bare WebCrypto digests awaited one by one (as 0.1 verified)', value: (verifier.bareMs * 1000) / verifier.n },
      },
    ]
  } finally {
    await browser.close()
  }
}
