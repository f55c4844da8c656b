// Audit chain verification: verifyChain (contract/audit.ts) over 100 000 entries in Node, per
// entry, against the bare SHA-256 digests it must compute; and, with a server, GET
// /api/audit/verify for an owner whose chain the bench grows with check-ins (the owner's Durable
// Object re-hashes its whole chain).
import { spawn } from 'node:child_process'
import { root } from '../lib/local-env.mjs'
import { client } from './http.mjs'
import { median, pool, timeRuns } from './stats.mjs'

const ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES ?? 100_000)
const SERVER_ENTRIES = Number(process.env.BENCH_AUDIT_SERVER_ENTRIES ?? 1000)

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
    { id: 'audit.node', measurement: `Audit chain verification, ${ENTRIES.toLocaleString('en-US')} entries, Node (worker's SHA-256)`, value: perEntry(chain.workerMs, ENTRIES), unit: 'µs/entry', detail: `${(chain.workerMs / 1000).toFixed(2)} s in all`, reference: { label: 'bare SHA-256 digests', value: bare } },
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
      reference: { label: 'verifyChain in Node', value: perEntry(chain.workerMs, ENTRIES) },
    })
  }
  return { rows, raw: chain }
}
