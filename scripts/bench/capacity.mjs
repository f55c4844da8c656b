// The capacity model's bytes (docs/capacity.md): scripts/bench/capacity.ts seeds realistic owners
// in SQL into 0.1's schema and 0.2's (D1 and the owner's object) and measures them with SQLite's own
// page accounting. No server: the schemas are the migrations themselves.
import { spawn } from 'node:child_process'
import { root } from '../lib/local-env.mjs'

const OWNERS = Number(process.env.BENCH_CAPACITY_OWNERS ?? 400)

function runModel() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--no-warnings', '--import', 'tsx', 'scripts/bench/capacity.ts', String(OWNERS)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1))) : reject(new Error(`capacity.ts exited with ${code}: ${err}`))))
  })
}

const kb = (bytes) => bytes / 1024
const top = (usage, n = 4) =>
  Object.entries(usage.tables)
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .slice(0, n)
    .map(([t, u]) => `${t} ${u.bytes >= 1024 ? `${kb(u.bytes).toFixed(1)} KiB` : `${Math.round(u.bytes)} B`}`)
    .join(', ')

export async function measureCapacity({ log }) {
  const m = await runModel()
  log(`capacity: ${m.owners} owners a shape; D1 ${Math.round(m.d1.before.bytes)} → ${Math.round(m.d1.after.bytes)} B per owner`)
  const before = { label: '0.1', unit: 'B' }
  const rows = [
    {
      id: 'capacity.d1',
      measurement: 'D1 bytes per owner (100 items, 3 heirs, a year of use)',
      value: m.d1.after.bytes,
      unit: 'B',
      detail: top(m.d1.after, 6),
      reference: { ...before, value: m.d1.before.bytes },
    },
    { id: 'capacity.d1Owners', measurement: 'Owners one D1 database (10 GB) holds', value: m.d1Owners.after, unit: 'owners', reference: { label: '0.1', value: m.d1Owners.before } },
    {
      id: 'capacity.object',
      measurement: "Owner's Durable Object bytes (same owner)",
      value: m.object.after.bytes,
      unit: 'B',
      detail: top(m.object.after),
      reference: { ...before, value: m.object.before.bytes },
    },
  ]
  const units = {
    item: 'per item (100 KiB–45 MB files, 3 grants, 2 policy links)',
    beneficiary: 'per beneficiary (with a grant on each of 100 items)',
    release: 'per release (100 items to 3 heirs)',
    auditMonth: "per month of audit (owner's object)",
    d1Month: 'per month of use in D1 (mail, invoices, Stripe events)',
  }
  for (const [key, label] of Object.entries(units)) {
    const u = m.units[key]
    rows.push({ id: `capacity.${key}`, measurement: `Bytes ${label}`, value: u.after, unit: 'B', reference: { ...before, value: u.before } })
  }
  return { rows, raw: m }
}
