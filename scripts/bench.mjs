// `npm run bench [-- api upload unlock fanout audit bundle signin chunks]`: figures measured side
// by side in one run on this machine, printed as one table with ratios where a reference exists
// (absolute times here are noisy; the ratios are what to compare between runs). The product is
// started like `npm start` on its own port with fresh state, and stopped at the end. Each
// measurement lives in scripts/bench/; no arguments runs them all.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { measureApi } from './bench/api.mjs'
import { measureAudit } from './bench/audit.mjs'
import { chromiumVersion } from './bench/browser.mjs'
import { measureBundle } from './bench/bundle.mjs'
import { measureChunks } from './bench/chunks.mjs'
import { measureFanout } from './bench/fanout.mjs'
import { finishRows, jsonReport, table } from './bench/report.mjs'
import { startServer } from './bench/server.mjs'
import { measureSignin } from './bench/signin.mjs'
import { measureUnlock } from './bench/unlock.mjs'
import { measureUpload } from './bench/upload.mjs'

// In this order: the server-side load first, the browser next, the long fan-out, then what runs
// without the server (the bundle builds after it has stopped).
const MEASUREMENTS = {
  api: { run: measureApi, server: true, title: 'API under load' },
  upload: { run: measureUpload, server: true, title: '100 MiB upload and download in Chromium' },
  unlock: { run: measureUnlock, server: true, title: 'Vault unlock in Chromium' },
  chunks: { run: measureChunks, server: true, title: 'Upload chunk sizes' },
  signin: { run: measureSignin, server: true, title: 'Sign-in' },
  fanout: { run: measureFanout, server: true, title: 'Release fan-out' },
  audit: { run: measureAudit, server: 'optional', title: 'Audit chain verification' },
  bundle: { run: measureBundle, server: false, title: 'Bundle sizes' },
}

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
    }
    log(`${name}: ${m.title}`)
    const t0 = performance.now()
    try {
      const result = await m.run({ origin: server?.origin ?? null, log, context })
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
} finally {
  await server?.stop()
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
