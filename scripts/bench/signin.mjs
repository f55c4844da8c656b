// Sign-in: POST /api/auth/login one at a time, for a right password (PBKDF2 100 000 on the
// server, a session, an audit entry), a wrong one for a known e-mail, and an unknown e-mail (a
// dummy hash, so that it costs the same: the ratio to the wrong password should stay near 1).
import { client } from './http.mjs'
import { median, quantile, timeRuns } from './stats.mjs'

const N = 30

export async function measureSignin({ origin }) {
  const api = client(origin)
  // Sign-in is limited to 10 a minute per account, and an account is held after 5 failed
  // passwords in a row: the logins rotate over five accounts, the wrong-password ones over ten
  // others (three failures each).
  const accounts = []
  for (let i = 0; i < 15; i++) accounts.push(await api.registerOwner(`signin-${i}`))
  const login = (body, expected) => async () => {
    const res = await api.call('POST', '/api/auth/login', { body })
    await res.arrayBuffer()
    if (res.status !== expected) throw new Error(`login: ${res.status}, expected ${expected}`)
  }
  for (let i = 0; i < 5; i++) await (await fetch(`${origin}/api/health`)).arrayBuffer()
  const health = await timeRuns(() => fetch(`${origin}/api/health`).then((r) => r.arrayBuffer()), 100)
  const right = await timeRuns((i) => login({ email: accounts[i % 5].email, password: accounts[i % 5].password }, 200)(), N)
  const wrong = await timeRuns((i) => login({ email: accounts[5 + (i % 10)].email, password: 'not the password 1' }, 401)(), N)
  const unknown = await timeRuns((i) => login({ email: `nobody-${i}-${Date.now()}@example.com`, password: 'not the password 1' }, 401)(), N)
  const h = median(health)
  const w = median(wrong)
  return {
    rows: [
      { id: 'signin.right', measurement: 'Sign-in, right password (one at a time, p50)', value: median(right), unit: 'ms', detail: `p95 ${quantile(right, 0.95).toFixed(0)} ms`, reference: { label: '/api/health p50', value: h } },
      { id: 'signin.wrong', measurement: 'Sign-in, known e-mail, wrong password (p50)', value: w, unit: 'ms', reference: { label: 'right password', value: median(right) } },
      { id: 'signin.unknown', measurement: 'Sign-in, unknown e-mail (dummy hash, p50)', value: median(unknown), unit: 'ms', reference: { label: 'wrong password', value: w } },
    ],
    raw: { health, right, wrong, unknown },
  }
}
