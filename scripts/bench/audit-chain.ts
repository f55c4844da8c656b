// Run by audit.mjs with tsx: builds a valid audit chain of N entries by the rules of
// contract/audit.ts (entries like the ones the app writes) and times verifyChain over it with the
// contract's synchronous SHA-256 (what the browser and an export check use) and with node:crypto's
// (what the owner's object uses), against the bare WebCrypto digests of the same inputs awaited
// one by one (how 0.1 verified). Prints one JSON line.
import { GENESIS_HASH, hashInput, verifyChain, type AuditEntry } from '../../contract/audit'
import { sha256Hex as workerSha256Hex } from '../../worker/lib/crypto'
import { sha256HexSync } from '../../worker/lib/sync-crypto'

const n = Number(process.argv[2] ?? 100_000)
const actions: Array<[string, AuditEntry['actor'], (i: number) => AuditEntry['details']]> = [
  ['vault.item_added', 'user', (i) => ({ itemId: crypto.randomUUID(), type: 'doc', protocol: 'VERIFIED_DEATH', cipherSize: 1000 + i, grants: 2, policies: 1 })],
  ['checkin.recorded', 'user', () => ({ via: 'app' })],
  ['account.login', 'user', () => ({ method: 'password' })],
  ['release.completed', 'system', (i) => ({ releaseId: crypto.randomUUID(), source: 'policy', assets: i % 50 })],
]

async function build(): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = []
  let prev = GENESIS_HASH
  const start = Date.parse('2026-01-01T00:00:00Z')
  for (let i = 0; i < n; i++) {
    const [action, actor, details] = actions[i % actions.length]!
    const body = { id: crypto.randomUUID(), seq: i + 1, action, actor, details: details(i), createdAt: new Date(start + i * 1000).toISOString() }
    const hash = await workerSha256Hex(hashInput(prev, body))
    entries.push({ ...body, hash, prevHash: prev })
    prev = hash
  }
  return entries
}

async function time<T>(fn: () => T | Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now()
  const value = await fn()
  return { ms: performance.now() - t0, value }
}

const entries = await build()
const inputs = entries.map((e) => new TextEncoder().encode(hashInput(e.prevHash, e)))
// Warm-up on a slice, then each measurement once over the whole chain.
verifyChain(entries.slice(0, 2000))
verifyChain(entries.slice(0, 2000), sha256HexSync)
const digests = () =>
  time(async () => {
    for (const input of inputs) await crypto.subtle.digest('SHA-256', input)
  })
// The bare digests before and after, the faster counting (the machine may be busy).
const bareBefore = await digests()
const contract = await time(() => verifyChain(entries))
const worker = await time(() => verifyChain(entries, sha256HexSync))
const bareAfter = await digests()
const bare = bareBefore.ms < bareAfter.ms ? bareBefore : bareAfter
// A broken chain must be found (one detail changed in the middle).
const tampered = entries.slice()
tampered[n >> 1] = { ...tampered[n >> 1]!, details: { ...tampered[n >> 1]!.details, assets: -1 } }
const broken = verifyChain(tampered)
console.log(
  JSON.stringify({
    n,
    valid: contract.value.valid && worker.value.valid,
    checked: Math.min(contract.value.checked, worker.value.checked),
    tamperedFoundAt: broken.brokenAt,
    contractMs: contract.ms,
    workerMs: worker.ms,
    bareMs: bare.ms,
  }),
)
