// Release readiness on a large vault: an owner with 3 beneficiaries and 1 000 items (seeded in the
// object's SQL through the local dev route), each granted to all three under the default protocol
// and no trigger to serve it, so every item is on the list. GET /api/release-readiness is timed
// against GET /api/health (the bare route) in the same run.
import { client, rsaOaepPublicKey } from './http.mjs'
import { median } from './stats.mjs'

const ITEMS = Number(process.env.BENCH_READINESS_ITEMS ?? 1000)
const RUNS = 15

async function timed(fn, runs) {
  const samples = []
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now()
    await fn()
    // The first run warms the object up.
    if (i > 0) samples.push(performance.now() - t0)
  }
  return samples
}

export async function measureReadiness({ origin, log }) {
  const api = client(origin)
  const owner = await api.registerOwner('readiness', 'premium')
  const key = await rsaOaepPublicKey()
  for (let i = 0; i < 3; i++) await api.addBeneficiary(owner.token, key)
  await api.json('POST', '/api/dev/vault-fill', { body: { email: owner.email, items: ITEMS } })
  const first = await api.json('GET', '/api/release-readiness', { token: owner.token })
  const stuck = first.problems.filter((p) => p.kind === 'item_trigger_missing').length
  if (stuck !== ITEMS) throw new Error(`readiness listed ${stuck} stuck items, expected ${ITEMS}`)
  const readiness = await timed(() => api.json('GET', '/api/release-readiness', { token: owner.token }), RUNS)
  const bare = await timed(() => api.json('GET', '/api/health'), RUNS)
  const ms = median(readiness)
  log(`readiness: ${ITEMS} items, ${first.problems.length} problems: ${ms.toFixed(1)} ms (bare route ${median(bare).toFixed(1)} ms)`)
  return {
    rows: [
      {
        id: 'readiness.items',
        measurement: `GET /api/release-readiness, ${ITEMS.toLocaleString('en-US')} items × 3 beneficiaries, every item listed (median)`,
        value: ms,
        unit: 'ms',
        detail: `${RUNS} runs, ${first.problems.length} problems, ${Math.min(...readiness).toFixed(1)}–${Math.max(...readiness).toFixed(1)} ms`,
        reference: { label: 'GET /api/health', value: median(bare) },
      },
    ],
    raw: { readiness, bare, problems: first.problems.length },
  }
}
