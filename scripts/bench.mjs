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

try {
  await waitUp()
  // Sign-in is limited to 10 a minute per account, so the logins rotate over five accounts.
  const accounts = []
  for (let i = 0; i < 5; i++) {
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
  const badLogin = await time(async (i) => {
    const res = await json('/api/auth/login', { email: `nobody-${i}@example.com`, password: 'whatever 1' })
    await res.arrayBuffer()
  }, 30)

  const rows = [
    ['GET /api/health (bare route, the floor)', health],
    ['POST /api/auth/login, right password', login],
    ['POST /api/auth/login, unknown e-mail (dummy hash)', badLogin],
  ]
  console.log(`\nLegacy Vault bench — ${new Date().toISOString().slice(0, 10)}, ${process.platform}, Node ${process.version}\n`)
  console.log('| what | p50 ms | p95 ms | n |')
  console.log('|---|---|---|---|')
  for (const [name, s] of rows) console.log(`| ${name} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.n} |`)
  console.log(
    `\nPBKDF2-SHA256 × 100 000 costs about ${(login.p50 - health.p50).toFixed(1)} ms per sign-in here ` +
      `(login p50 minus the bare route's p50); unknown and known e-mails differ by ${Math.abs(login.p50 - badLogin.p50).toFixed(1)} ms at p50.`,
  )
} finally {
  server.kill('SIGTERM')
  await new Promise((r) => setTimeout(r, 1500))
  rmSync(state, { recursive: true, force: true })
}
