// The back office's users list at 100 000 accounts (seeded in SQL into the server's local D1, one
// statement): D1's rows read for one page (the server reports meta.rows_read locally, header
// x-d1-rows-read) for the first page, a deep page (50 000 accounts in, reached by walking the
// cursor), a search by the start of an e-mail and one by the start of a name. The reference, on the
// same table in the same run: what the list read before it was paged (every account, newest
// first, and the substring search), run by the local route GET /api/dev/users-before-paging.
import { spawn } from 'node:child_process'
import { root } from '../lib/local-env.mjs'
import { client } from './http.mjs'
import { median } from './stats.mjs'

const ACCOUNTS = Number(process.env.BENCH_ADMIN_USERS ?? 100_000)
const DEEP = Math.floor(ACCOUNTS / 2)
const PAGE = 50
const RUNS = 9

/** SQL into the server's local D1 (the same files the running server uses). */
function d1(state, sql) {
  return new Promise((resolve, reject) => {
    const child = spawn('wrangler', ['d1', 'execute', 'DB', '--local', '--persist-to', state, '--command', sql], {
      cwd: root,
      env: { ...process.env, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`wrangler d1 execute exited with ${code}: ${err.slice(-400)}`))))
  })
}

export async function measureAdminUsers({ origin, state, log }) {
  if (!state) throw new Error('the users list measurement needs the bench server’s state folder')
  const api = client(origin)
  const admin = await api.registerOwner('bench-admin')
  await d1(state, `update users set role = 'admin' where id = '${admin.user.id}'`)
  // The session already open judges by the owner's object's copy of the account: it gets the new role.
  await api.json('POST', '/api/dev/mirror-account', { body: { email: admin.email } })
  const now = Date.now()
  const t0 = performance.now()
  await d1(
    state,
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${ACCOUNTS})
     insert into users (id, email, password_hash, display_name, plan_tier, subscription_status, created_at, updated_at, vault_items, vault_bytes)
     select printf('%08x-0000-4000-8000-%012d', i, i), printf('bench-user-%06d@example.com', i), 'x', printf('Bench Person %06d', i),
       'basic', 'active', ${now} - i * 1000, ${now} - i * 1000, 3, 3250000 from n`,
  )
  log(`adminusers: ${ACCOUNTS.toLocaleString('en-US')} accounts seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

  async function page(query) {
    const params = new URLSearchParams({ limit: String(query.limit ?? PAGE), ...(query.q ? { q: query.q } : {}), ...(query.cursor ? { cursor: query.cursor } : {}) })
    const started = performance.now()
    const res = await api.call('GET', `/api/admin/users?${params}`, { token: admin.token })
    const body = await res.json()
    if (res.status !== 200) throw new Error(`GET /api/admin/users: ${res.status} ${JSON.stringify(body)}`)
    return { ms: performance.now() - started, rowsRead: Number(res.headers.get('x-d1-rows-read')), body }
  }
  async function sample(query, check) {
    const runs = []
    for (let i = 0; i <= RUNS; i++) runs.push(await page(query))
    check(runs[0].body)
    runs.shift() // the first warms up
    return { ms: median(runs.map((r) => r.ms)), rowsRead: median(runs.map((r) => r.rowsRead)) }
  }

  const first = await sample({}, (b) => {
    if (b.users.length !== PAGE || !b.nextCursor) throw new Error('the first page is not a full page with a next one')
  })
  // Walked, as an administrator would: 100 at a time up to 50 000 accounts in, then one page.
  let cursor = null
  for (let seen = 0; seen < DEEP; seen += 100) cursor = (await page({ limit: 100, cursor })).body.nextCursor
  const deep = await sample({ cursor }, (b) => {
    if (b.users.length !== PAGE || !b.nextCursor) throw new Error('the deep page is not a full page with a next one')
  })
  const emailQ = `bench-user-0${String(Math.floor(DEEP / 1000)).padStart(2, '0')}`
  const email = await sample({ q: emailQ }, (b) => {
    if (b.users.length !== PAGE || !b.users.every((u) => u.email.startsWith(emailQ))) throw new Error('the e-mail search page is not what matched')
  })
  const nameQ = `BENCH PERSON 0${String(Math.floor(DEEP / 1000)).padStart(2, '0')}`
  const name = await sample({ q: nameQ }, (b) => {
    if (b.users.length !== PAGE || !b.users.every((u) => u.displayName.toUpperCase().startsWith(nameQ))) throw new Error('the name search page is not what matched')
  })
  const health = []
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now()
    await api.json('GET', '/api/health')
    health.push(performance.now() - started)
  }

  // What the list read before (0.3 · 5 of 7): every account, newest first; the search a substring.
  const listBefore = await api.json('GET', '/api/dev/users-before-paging')
  const searchBefore = await api.json('GET', `/api/dev/users-before-paging?q=${encodeURIComponent(emailQ)}`)
  const total = listBefore.accounts
  const before = listBefore.rowsRead
  const beforeSearch = searchBefore.rowsRead
  log(
    `adminusers: rows read per page: first ${first.rowsRead}, deep ${deep.rowsRead}, e-mail search ${email.rowsRead}, name search ${name.rowsRead}; before: list ${before}, search ${beforeSearch} (${total} accounts)`,
  )
  const fewer = (value, reference) => `${Math.round(reference / value).toLocaleString('en-US')}× fewer`
  const label = `the whole list before paging (${total.toLocaleString('en-US')} accounts)`
  const rows = [
    { id: 'adminusers.first.rows', measurement: `GET /api/admin/users, ${ACCOUNTS.toLocaleString('en-US')} accounts: first page of ${PAGE}, D1 rows read`, value: first.rowsRead, unit: 'rows', detail: fewer(first.rowsRead, before), reference: { label, value: before } },
    { id: 'adminusers.deep.rows', measurement: `… a page ${DEEP.toLocaleString('en-US')} accounts in, D1 rows read`, value: deep.rowsRead, unit: 'rows', detail: fewer(deep.rowsRead, before), reference: { label, value: before } },
    { id: 'adminusers.email.rows', measurement: `… search by the start of an e-mail (“${emailQ}”, first page), D1 rows read`, value: email.rowsRead, unit: 'rows', detail: fewer(email.rowsRead, beforeSearch), reference: { label: 'the substring search before', value: beforeSearch } },
    { id: 'adminusers.name.rows', measurement: `… search by the start of a name (“${nameQ}”, first page), D1 rows read`, value: name.rowsRead, unit: 'rows', detail: fewer(name.rowsRead, beforeSearch), reference: { label: 'the substring search before', value: beforeSearch } },
    { id: 'adminusers.first.ms', measurement: `… first page of ${PAGE}: time (median)`, value: first.ms, unit: 'ms', reference: { label: 'GET /api/health', value: median(health) } },
    { id: 'adminusers.deep.ms', measurement: `… the deep page: time (median)`, value: deep.ms, unit: 'ms', reference: { label: 'GET /api/health', value: median(health) } },
    { id: 'adminusers.email.ms', measurement: `… the e-mail search: time (median)`, value: email.ms, unit: 'ms', reference: { label: 'GET /api/health', value: median(health) } },
  ]
  return { rows, raw: { accounts: total, first, deep, email, name, health, before, beforeSearch } }
}
