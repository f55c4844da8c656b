// `npm run bench [-- api upload unlock chunks signin forgot fanout sweep audit readiness adminusers vaultkeys lighthouse capacity bundle start]`: figures
// measured side by side in one run on this machine, printed as one table with ratios where a
// reference exists (absolute times here are noisy; the ratios are what to compare between runs).
// The product is started like `npm start` on its own port with fresh state, and stopped at the end.
// The API and fan-out figures are also measured on the release before (BENCH_BASELINE, default
// 3e221e7 = 0.1; `none` skips it), served the same way, for before/after rows. Each measurement
// lives in scripts/bench/; no arguments runs them all.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { measureAdminUsers } from './bench/admin-users.mjs'
import { measureApi } from './bench/api.mjs'
import { measureAudit } from './bench/audit.mjs'
import { BASELINE, startBaseline } from './bench/baseline.mjs'
import { chromiumVersion } from './bench/browser.mjs'
import { measureBundle } from './bench/bundle.mjs'
import { measureCapacity } from './bench/capacity.mjs'
import { measureChunks } from './bench/chunks.mjs'
import { measureFanout } from './bench/fanout.mjs'
import { measureForgot } from './bench/forgot.mjs'
import { measureLighthouse } from './bench/lighthouse.mjs'
import { finishRows, jsonReport, table } from './bench/report.mjs'
import { startServer } from './bench/server.mjs'
import { measureSignin } from './bench/signin.mjs'
import { measureStart } from './bench/start.mjs'
import { measureSweep } from './bench/sweep.mjs'
import { measureReadiness } from './bench/readiness.mjs'
import { measureUnlock } from './bench/unlock.mjs'
import { measureUpload } from './bench/upload.mjs'
import { measureVaultKeys } from './bench/vault-keys.mjs'

// In this order: the server-side load first, the browser next, the long fan-out, then what runs
// without the server (the bundle builds after it has stopped).
const MEASUREMENTS = {
  api: { run: measureApi, server: true, title: 'API under load' },
  upload: { run: measureUpload, server: true, title: '100 MiB upload and download, and a 500 MiB download, in Chromium' },
  unlock: { run: measureUnlock, server: true, title: 'Vault unlock in Chromium' },
  chunks: { run: measureChunks, server: true, title: 'Upload chunk sizes' },
  signin: { run: measureSignin, server: true, title: 'Sign-in' },
  forgot: { run: measureForgot, server: true, title: 'Forgot password: existing vs unknown address' },
  fanout: { run: measureFanout, server: true, title: 'Release fan-out' },
  sweep: { run: measureSweep, server: true, title: 'Cron sweep with 100 and 10 000 idle owners' },
  audit: { run: measureAudit, server: true, title: 'Audit chain verification' },
  readiness: { run: measureReadiness, server: true, title: 'Release readiness on 1 000 items' },
  adminusers: { run: measureAdminUsers, server: true, title: 'The back office users list at 100 000 accounts: rows read per page' },
  vaultkeys: { run: measureVaultKeys, server: true, title: 'Passphrase change at 10 000 items, move to a vault key at 1 000 items' },
  lighthouse: { run: measureLighthouse, server: true, title: 'Lighthouse (mobile) on /, /login and /pricing' },
  capacity: { run: measureCapacity, server: false, title: 'Capacity: bytes per owner, 0.1 and 0.2' },
  bundle: { run: measureBundle, server: false, title: 'Bundle sizes' },
  start: { run: measureStart, server: false, title: '`npm start` on a fresh clone and again: time to first answer' },
}

// Measured on the release before too; their rows are compared one by one.
const COMPARED = ['api', 'fanout']
const COMPARED_ROWS = ['api.items.rps', 'api.items.p50', 'api.pingMany.rps', 'api.pingMany.p50', 'api.pingOne.rps', 'fanout.policy.all', 'fanout.items.all']

const args = process.argv.slice(2)
const unknown = args.filter((a) => !(a in MEASUREMENTS))
if (unknown.length) {
  console.error(`Unknown measurement(s): ${unknown.join(', ')}. Choose from: ${Object.keys(MEASUREMENTS).join(' ')}`)
  process.exit(2)
}
const selected = Object.keys(MEASUREMENTS).filter((name) => args.length === 0 || args.includes(name))
const needsServer = selected.some((name) => MEASUREMENTS[name].server === true)

const began = performance.now()
const out = mkdtempSync(join(tmpdir(), 'legacy-vault-bench-results-'))
const elapsed = () => `${((performance.now() - began) / 1000).toFixed(0)} s`
const log = (message) => console.log(`[${elapsed().padStart(5)}] ${message}`)

const rows = []
const findings = []
const failures = []
const raw = {}
let server = null
let context = {}
let baselineMeasured = false
try {
  if (needsServer) {
    log(`starting the product (build, migrations, wrangler dev) on port ${process.env.BENCH_PORT ?? 8798}…`)
    server = await startServer({ port: Number(process.env.BENCH_PORT ?? 8798), logPath: join(out, 'server.log') })
    log(`up in ${server.startupSeconds.toFixed(0)} s`)
  }
  for (const name of selected) {
    const m = MEASUREMENTS[name]
    if (m.server === false && server) {
      await server.stop()
      server = null
      await measureBaseline()
    }
    log(`${name}: ${m.title}`)
    const t0 = performance.now()
    try {
      const result = await m.run({ origin: server?.origin ?? null, state: server?.state ?? null, log, context })
      rows.push(...result.rows)
      findings.push(...(result.findings ?? []))
      raw[name] = result.raw
      for (const [key, value] of Object.entries(result.context ?? {})) {
        context[key] = Array.isArray(value) ? [...(context[key] ?? []), ...value] : value
      }
      log(`${name}: done in ${((performance.now() - t0) / 1000).toFixed(0)} s`)
    } catch (error) {
      // One broken measurement does not lose the others.
      failures.push(`${name}: ${error.stack ?? error}`)
      log(`${name}: FAILED: ${error.message ?? error}`)
    }
  }
  await server?.stop()
  server = null
  await measureBaseline()
} finally {
  await server?.stop()
}

/**
 * The release before, on its own server once this one has stopped: the compared measurements run
 * against it, its rows that carry their own reference are listed (their ratios, then), and each
 * compared figure gets a row with the release before as its reference.
 */
async function measureBaseline() {
  const names = selected.filter((name) => COMPARED.includes(name))
  if (baselineMeasured || BASELINE === 'none' || names.length === 0) return
  baselineMeasured = true
  const port = Number(process.env.BENCH_PORT ?? 8798) + 1
  log(`baseline: starting ${BASELINE} (the release before) on port ${port}…`)
  let base = null
  const then = new Map()
  try {
    base = await startBaseline({ port, logPath: join(out, 'baseline-server.log') })
    for (const name of names) {
      const result = await MEASUREMENTS[name].run({ origin: base.origin, state: base.state, log: (m) => log(`[${BASELINE}] ${m}`), context: {} })
      raw[`baseline.${name}`] = result.raw
      for (const row of result.rows) then.set(row.id, row)
    }
  } catch (error) {
    failures.push(`baseline ${BASELINE}: ${error.stack ?? error}`)
    log(`baseline: FAILED: ${error.message ?? error}`)
  } finally {
    await base?.stop()
  }
  for (const row of then.values()) if (row.reference) rows.push({ ...row, id: `baseline.${row.id}`, measurement: `${BASELINE} · ${row.measurement}` })
  for (const id of COMPARED_ROWS) {
    const now = rows.find((r) => r.id === id)
    const before = then.get(id)
    if (now && before) rows.push({ id: `${id}.vs`, measurement: `${now.measurement}: this release vs ${BASELINE}`, value: now.value, unit: now.unit, reference: { label: BASELINE, value: before.value } })
  }
}

const finished = finishRows(rows)
const cpu = cpus()
const meta = {
  date: new Date().toISOString(),
  node: process.version,
  chromium: chromiumVersion(),
  cpu: `${cpu[0]?.model ?? 'unknown'} × ${cpu.length}`,
  loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
  durationSeconds: Math.round((performance.now() - began) / 1000),
  measurements: selected,
}
console.log(`\nLegacy Vault bench — ${meta.date.slice(0, 16).replace('T', ' ')} UTC`)
console.log(`Node ${meta.node}, ${meta.chromium}, ${meta.cpu}, load average ${meta.loadAverage.join(' ')}, ${meta.durationSeconds} s\n`)
console.log(table(finished))
console.log('\nRatio = figure ÷ reference, both measured in this run. Absolute times depend on the machine and what else it runs.')
if (findings.length) console.log(`\nFindings:\n${findings.map((f) => `- ${f}`).join('\n')}`)
if (failures.length) console.log(`\nFailed measurements:\n${failures.map((f) => `- ${f}`).join('\n')}`)
writeFileSync(join(out, 'bench-results.json'), `${JSON.stringify({ ...jsonReport(meta, finished), findings, failures, raw }, null, 2)}\n`)
console.log(`\nResults: ${join(out, 'bench-results.json')}${needsServer ? ` (server log: ${join(out, 'server.log')})` : ''}`)
process.exitCode = failures.length ? 1 : 0
