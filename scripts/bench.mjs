// `npm run bench`: figures measured side by side in one run on this machine. Started like
// `npm start` (fresh state, its own port); the server is stopped at the end.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { root } from './lib/local-env.mjs'

const port = Number(process.env.BENCH_PORT ?? 8798)
const origin = `http://localhost:${port}`
const state = mkdtempSync(join(tmpdir(), 'legacy-vault-bench-'))
const server = spawn(process.execPath, ['scripts/start.mjs'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), PERSIST_TO: state },
  stdio: 'ignore',
})

async function waitUp() {
  for (let i = 0; i < 360; i++) {
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error('server did not start')
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
  return { p50: at(0.5), p95: at(0.95), n: sorted.length }
}

async function time(fn, n) {
  const samples = []
  for (let i = 0; i < n; i++) {
    const start = performance.now()
    await fn(i)
    samples.push(performance.now() - start)
  }
  return stats(samples)
}

let ip = 0
const json = (path, body) =>
  fetch(`${origin}${path}`, {
    method: 'POST',
    // A distinct address per request keeps the rate limiter out of the measurement.
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': `10.9.${(++ip >> 8) & 255}.${ip & 255}` },
    body: JSON.stringify(body),
  })

/**
 * Encryption and upload throughput per chunk size, in Chromium: each size is encrypted 16 times
 * with AES-GCM, and sent as the single part of an upload of exactly that size (the last part may
 * be any size, so every candidate can be measured through the real endpoint).
 */
async function measureChunkSizes() {
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  try {
    const page = await browser.newPage()
    await page.goto(`${origin}/`)
    return await page.evaluate(async () => {
      const MiB = 1024 * 1024
      const reg = await fetch('/api/auth/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `chunks-${Date.now()}@example.com`, password: 'bench password 1', displayName: 'Bench' }),
      })
      const { token } = await reg.json()
      const auth = { authorization: `Bearer ${token}` }
      const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt'])
      const results = []
      for (const mib of [1, 2, 4, 8]) {
        const plain = new Uint8Array(mib * MiB)
        for (let i = 0; i < plain.length; i += 65536) crypto.getRandomValues(plain.subarray(i, Math.min(i + 65536, plain.length)))
        const rounds = 16
        let t = performance.now()
        for (let i = 0; i < rounds; i++) {
          await crypto.subtle.encrypt({ name: 'AES-GCM', iv: crypto.getRandomValues(new Uint8Array(12)) }, key, plain)
        }
        const encrypt = (rounds * mib) / ((performance.now() - t) / 1000)
        let putSeconds = 0
        const puts = 6
        for (let i = 0; i < puts; i++) {
          const start = await fetch('/api/vault/uploads', {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ type: 'doc', plainSize: mib * MiB }),
          }).then((r) => r.json())
          const body = new Uint8Array(mib * MiB + 29)
          t = performance.now()
          const res = await fetch(`/api/vault/uploads/${start.itemId}/parts/1`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/octet-stream' }, body })
          putSeconds += (performance.now() - t) / 1000
          if (!res.ok) throw new Error(`PUT ${mib} MiB: ${res.status}`)
          await fetch(`/api/vault/uploads/${start.itemId}`, { method: 'DELETE', headers: auth })
        }
        results.push({ mib, encrypt, put: (puts * mib) / putSeconds })
      }
      return results
    })
  } finally {
    await browser.close()
  }
}

/**
 * The release engine: a manual release of N items to two beneficiaries, timed end to end (plan,
 * the guarded batch, assets, notices), then the audit chain verified on the server.
 */
async function measureReleases() {
  const rows = []
  // The Basic plan holds 20 items.
  for (const n of [1, 10, 20]) {
    const email = `release-${n}-${Date.now()}@example.com`
    const reg = await json('/api/auth/register', { email, password: 'bench password 1', displayName: 'Bench' })
    const { token } = await reg.json()
    const call = (method, path, body) =>
      fetch(`${origin}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'cf-connecting-ip': `10.8.${(++ip >> 8) & 255}.${ip & 255}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    const heirs = []
    for (let b = 0; b < 2; b++) {
      const pair = await crypto.subtle.generateKey({ name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['encrypt', 'decrypt'])
      const publicKey = Buffer.from(await crypto.subtle.exportKey('spki', pair.publicKey)).toString('base64')
      const res = await call('POST', '/api/beneficiaries', { fullName: `Heir ${b}`, email: `heir-${b}-${n}-${Date.now()}@example.com`, relationship: 'Child', publicKey, sendVerificationEmail: false })
      if (res.status !== 201) throw new Error(`beneficiary: ${res.status} ${await res.text()}`)
      heirs.push((await res.json()).id)
    }
    await call('PUT', '/api/user/ping-settings', { pingFrequency: 30, gracePeriod: 3 })
    for (let i = 0; i < n; i++) {
      const start = await (await call('POST', '/api/vault/uploads', { type: 'doc', plainSize: 10 })).json()
      await fetch(`${origin}/api/vault/uploads/${start.itemId}/parts/1`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        body: new Uint8Array(10 + 29),
      })
      const done = await call('POST', `/api/vault/uploads/${start.itemId}/complete`, {
        encryptedMetadata: btoa('m'),
        wrappedKey: btoa('k'),
        policy: { protocol: 'MANUAL_RELEASE' },
        grants: heirs.map((beneficiaryId) => ({ beneficiaryId, wrappedKey: btoa(`g-${beneficiaryId}`) })),
      })
      if (done.status !== 201) throw new Error(`complete: ${done.status} ${await done.text()}`)
    }
    const trigger = await (await call('POST', '/api/triggers', { type: 'verified_death', config: {}, status: 'active' })).json()
    const dryStart = performance.now()
    const plan = await (await call('POST', `/api/trigger-engine/dry-run/${trigger.id}`)).json()
    const dry = performance.now() - dryStart
    const t = performance.now()
    const res = await call('POST', `/api/trigger-engine/manual/${trigger.id}`, { reason: 'bench', confirm: 'RELEASE' })
    const manual = performance.now() - t
    const result = await res.json()
    if (result.transferredItems !== n * 2 || plan.itemCount !== n) throw new Error(`release of ${n}: ${JSON.stringify(result)}`)
    const v = performance.now()
    const verified = await (await call('GET', '/api/audit/verify')).json()
    rows.push({ n, dry, manual, transferred: result.transferredItems, verify: performance.now() - v, entries: verified.checked })
  }
  return rows
}

try {
  await waitUp()
  // Sign-in is limited to 10 a minute per account, so the logins rotate over five accounts (and
  // the wrong-password ones over five others).
  const accounts = []
  for (let i = 0; i < 10; i++) {
    const account = { email: `bench-${i}@example.com`, password: 'bench password 1', displayName: 'Bench' }
    const reg = await json('/api/auth/register', account)
    if (reg.status !== 201) throw new Error(`register: ${reg.status}`)
    accounts.push(account)
  }
  for (let i = 0; i < 5; i++) await fetch(`${origin}/api/health`)

  const health = await time(() => fetch(`${origin}/api/health`).then((r) => r.arrayBuffer()), 100)
  const login = await time(async (i) => {
    const res = await json('/api/auth/login', accounts[i % accounts.length])
    if (res.status !== 200) throw new Error(`login: ${res.status}`)
    await res.arrayBuffer()
  }, 30)
  const wrongPassword = await time(async (i) => {
    const res = await json('/api/auth/login', { ...accounts[5 + (i % 5)], password: 'not the password 1' })
    if (res.status !== 401) throw new Error(`wrong password: ${res.status}`)
    await res.arrayBuffer()
  }, 30)
  const badLogin = await time(async (i) => {
    const res = await json('/api/auth/login', { email: `nobody-${i}@example.com`, password: 'whatever 1' })
    await res.arrayBuffer()
  }, 30)

  const chunkRows = await measureChunkSizes()
  const releaseRows = await measureReleases()

  const rows = [
    ['GET /api/health (bare route, the floor)', health],
    ['POST /api/auth/login, right password (session, audit entry)', login],
    ['POST /api/auth/login, known e-mail, wrong password', wrongPassword],
    ['POST /api/auth/login, unknown e-mail (dummy hash)', badLogin],
  ]
  console.log(`\nLegacy Vault bench — ${new Date().toISOString().slice(0, 10)}, ${process.platform}, Node ${process.version}\n`)
  console.log('| what | p50 ms | p95 ms | n |')
  console.log('|---|---|---|---|')
  for (const [name, s] of rows) console.log(`| ${name} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.n} |`)
  console.log(
    `\nPBKDF2-SHA256 × 100 000 costs about ${(wrongPassword.p50 - health.p50).toFixed(1)} ms per sign-in here ` +
      `(wrong-password p50 minus the bare route's p50); a wrong password for a known e-mail and an unknown e-mail differ by ${Math.abs(wrongPassword.p50 - badLogin.p50).toFixed(1)} ms at p50.`,
  )
  console.log('\nUpload chunk size (one chunk = one R2 multipart part), measured in Chromium against this server:\n')
  console.log('| chunk | AES-GCM encrypt MB/s | PUT part MB/s | parts for 100 MB |')
  console.log('|---|---|---|---|')
  for (const r of chunkRows) console.log(`| ${r.mib} MiB | ${r.encrypt.toFixed(0)} | ${r.put.toFixed(0)} | ${Math.ceil(100 / r.mib)} |`)
  console.log('\nR2 needs every part but the last to be at least 5 MiB and all the same size; the app uses 8 MiB.')
  console.log('\nRelease engine: manual release of N items to 2 beneficiaries (one run each), and the audit chain verified:\n')
  console.log('| items | dry run ms | manual release ms | assets made | audit verify ms (entries) |')
  console.log('|---|---|---|---|---|')
  for (const r of releaseRows) {
    console.log(`| ${r.n} | ${r.dry.toFixed(0)} | ${r.manual.toFixed(0)} | ${r.transferred} | ${r.verify.toFixed(0)} (${r.entries}) |`)
  }
} finally {
  server.kill('SIGTERM')
  await new Promise((r) => setTimeout(r, 1500))
  rmSync(state, { recursive: true, force: true })
}
