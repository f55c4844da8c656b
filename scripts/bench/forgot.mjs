// Forgot password: POST /api/auth/forgot-password for an existing address and for an unknown one,
// 100 of each, alternating, one at a time. The answer must not tell whether the address has an
// account, by its words or by its time: the lookup, the token and the e-mail happen after it
// (worker/services/password-reset.ts), so the two medians should differ by less than TARGET_MS.
// Every call comes from its own client address (the per-address limit stays out of it), and the
// existing addresses rotate over ACCOUNTS owners so that no request is dropped by the per-account
// limit (5 a minute): each one does the whole work (a token and an e-mail), after its answer.
// Between requests the bench waits PAUSE_MS, longer than that work takes here: otherwise the work
// one request left behind lands on a later one, and which kind that is depends on the bench's own
// order (locally D1 is SQLite in the same process), not on the address asked about.
import { client } from './http.mjs'
import { median, quantile, sleep } from './stats.mjs'

const N = 100
const ACCOUNTS = 20
const TARGET_MS = 10
const PAUSE_MS = 150
const ANSWER = 'If an account exists for that address, a reset link is on its way.'
const RESET_SUBJECT = /^Reset your/

export async function measureForgot({ origin, log }) {
  const api = client(origin)
  const accounts = []
  for (let i = 0; i < ACCOUNTS; i++) accounts.push(await api.registerOwner(`forgot-${i}`))
  const run = Date.now().toString(36)
  const forgot = async (email) => {
    const start = performance.now()
    const res = await api.call('POST', '/api/auth/forgot-password', { body: { email } })
    const body = await res.text()
    const ms = performance.now() - start
    if (res.status !== 200 || JSON.parse(body).message !== ANSWER) throw new Error(`forgot-password: ${res.status} ${body.slice(0, 200)}`)
    return ms
  }
  // Warm both paths up (and the isolate), outside the figures.
  for (let i = 0; i < 5; i++) {
    await forgot(`warm-${i}-${run}@example.com`)
    await (await fetch(`${origin}/api/health`)).arrayBuffer()
  }
  const health = []
  for (let i = 0; i < N; i++) {
    const start = performance.now()
    await (await fetch(`${origin}/api/health`)).arrayBuffer()
    health.push(performance.now() - start)
  }
  const known = []
  const unknown = []
  for (let i = 0; i < 2 * N; i++) {
    const n = i >> 1
    if (i % 2 === 0) known.push(await forgot(accounts[n % ACCOUNTS].email))
    else unknown.push(await forgot(`nobody-${n}-${run}@example.com`))
    await sleep(PAUSE_MS)
  }
  // The e-mails went after the answers: wait for them, to show the work was done (not skipped).
  const addresses = new Set(accounts.map((a) => a.email.toLowerCase()))
  let mailed = 0
  for (let tries = 0; tries < 50; tries++) {
    const outbox = await api.json('GET', '/api/dev/outbox')
    mailed = outbox.filter((m) => addresses.has(m.to) && RESET_SUBJECT.test(m.subject)).length
    if (mailed >= N) break
    await sleep(200)
  }
  const k = median(known)
  const u = median(unknown)
  const gap = k - u
  log(`forgot: existing p50 ${k.toFixed(1)} ms, unknown p50 ${u.toFixed(1)} ms, difference ${gap.toFixed(1)} ms; ${mailed} of ${N} reset e-mails queued`)
  const findings = []
  if (Math.abs(gap) >= TARGET_MS) findings.push(`forgot-password: existing and unknown addresses answer ${gap.toFixed(1)} ms apart (p50), over the ${TARGET_MS} ms target`)
  if (mailed < N) findings.push(`forgot-password: only ${mailed} of ${N} reset e-mails for the existing addresses reached the outbox`)
  return {
    rows: [
      { id: 'forgot.known', measurement: `Forgot password, existing address (${N}, alternating, p50)`, value: k, unit: 'ms', detail: `p95 ${quantile(known, 0.95).toFixed(0)} ms; ${mailed} e-mails sent after the answers`, reference: { label: 'unknown address p50', value: u } },
      { id: 'forgot.unknown', measurement: `Forgot password, unknown address (${N}, alternating, p50)`, value: u, unit: 'ms', detail: `p95 ${quantile(unknown, 0.95).toFixed(0)} ms`, reference: { label: '/api/health p50', value: median(health) } },
      { id: 'forgot.gap', measurement: `Forgot password: existing − unknown p50 (target < ${TARGET_MS} ms)`, value: gap, unit: 'ms' },
    ],
    findings,
    raw: { health, known, unknown, mailed },
  }
}
