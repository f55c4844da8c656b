// The cron sweep as owners grow: idle owners are seeded in SQL into the server's local D1 (each
// with a directory row due in a week, as their objects would write it), a few real owners are made
// due (their alarm "lost"), and the sweep runs (POST /api/dev/sweep, local only). Its time and the
// directory rows it reads, with 100 and with 10 000 idle owners: both should stay flat.
import { spawn } from 'node:child_process'
import { root } from '../lib/local-env.mjs'
import { client } from './http.mjs'
import { median } from './stats.mjs'

const SIZES = (process.env.BENCH_SWEEP_OWNERS ?? '100,10000').split(',').map(Number)
const DUE = 5
const RUNS = 5

/** SQL into the server's local D1 (the same files the running server uses). */
function d1(state, sql) {
  return new Promise((resolve, reject) => {
    const child = spawn('wrangler', ['d1', 'execute', 'DB', '--local', '--persist-to', state, '--command', sql], {
      cwd: root,
      env: { ...process.env, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let err = ''
    child.stderr.on('data', (d) => (err += d))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`wrangler d1 execute exited with ${code}: ${err.slice(-400)}`))))
  })
}

/** Idle owners up to `total`, seeded in one statement: accounts with a directory row due in a week. */
function seedIdle(state, from, total) {
  const week = Date.now() + 7 * 86_400_000
  return d1(
    state,
    `with recursive n(i) as (select ${from + 1} union all select i + 1 from n where i < ${total})
     insert into users (id, email, password_hash, display_name, created_at, updated_at, next_due_at, vault_items, vault_bytes, vault_beneficiaries)
     select printf('00000000-0000-4000-8000-%012d', i), 'idle-' || i || '@example.com', 'x', 'Idle owner', ${Date.now()}, ${Date.now()}, ${week}, 100, 1000000000, 3 from n`,
  )
}

export async function measureSweep({ origin, state, log }) {
  if (!state) throw new Error('the sweep measurement needs the bench server’s state folder')
  const api = client(origin)
  const due = []
  for (let i = 0; i < DUE; i++) due.push(await api.registerOwner('sweep-due'))
  const results = []
  let seeded = 0
  for (const size of SIZES) {
    await seedIdle(state, seeded, size)
    seeded = size
    const samples = []
    for (let run = 0; run < RUNS; run++) {
      // The due owners' alarms are "lost": their directory rows say they were due ten minutes ago.
      await d1(state, `update users set next_due_at = ${Date.now() - 10 * 60_000} where id in (${due.map((o) => `'${o.user.id}'`).join(', ')})`)
      samples.push(await api.json('POST', '/api/dev/sweep'))
    }
    const woken = samples.map((s) => s.ownersWoken)
    if (woken.some((n) => n !== DUE)) throw new Error(`sweep with ${size} idle owners woke ${woken.join(', ')} owners, not ${DUE}`)
    const r = { owners: size, ms: median(samples.map((s) => s.ms)), rowsRead: median(samples.map((s) => s.directoryRowsRead)) }
    log(`sweep: ${size} idle owners + ${DUE} due: ${r.ms.toFixed(0)} ms, ${r.rowsRead} directory rows read`)
    results.push(r)
  }
  const [small] = results
  const rows = results.flatMap((r) => [
    {
      id: `sweep.${r.owners}.ms`,
      measurement: `Cron sweep, ${r.owners.toLocaleString('en-US')} idle owners + ${DUE} due: time`,
      value: r.ms,
      unit: 'ms',
      ...(r === small ? {} : { reference: { label: `${small.owners} idle owners`, value: small.ms } }),
    },
    {
      id: `sweep.${r.owners}.rows`,
      measurement: `Cron sweep, ${r.owners.toLocaleString('en-US')} idle owners + ${DUE} due: directory rows read`,
      value: r.rowsRead,
      unit: 'rows',
      ...(r === small ? {} : { reference: { label: `${small.owners} idle owners`, value: small.rowsRead } }),
    },
  ])
  return { rows, raw: results }
}
