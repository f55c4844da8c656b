// Release fan-out: an owner with N items, each granted to 10 beneficiaries, released by the
// owner's manual release (POST /api/trigger-engine/manual/{id}, confirm RELEASE), timed from the
// trigger until every beneficiary's portal lists all N assets as available. Two shapes:
//  - policy: one access policy covering every item for all 10 (one release of N × 10 targets);
//  - items: every item's own protocol is MANUAL_RELEASE with direct grants (N releases of 10).
// The setup goes through the real upload protocol and is timed separately, not counted.
import { client, fakeWrappedKey, rsaOaepPublicKey } from './http.mjs'
import { pool, sleep } from './stats.mjs'

const ITEMS = Number(process.env.BENCH_FANOUT_ITEMS ?? 1000)
const HEIRS = 10
const WAIT_SECONDS = Number(process.env.BENCH_FANOUT_WAIT_SECONDS ?? 240)
const CRON = '*/5 * * * *'

/** Available assets per beneficiary, read from each one's portal (the link in their e-mail). */
async function portalCounts(api, heirs) {
  const mail = await api.json('GET', '/api/dev/outbox')
  return Promise.all(
    heirs.map(async (h) => {
      const message = mail.find((m) => m.to.toLowerCase() === h.email.toLowerCase() && /beneficiary-portal/.test(m.text))
      if (!message) return 0
      const url = new URL(message.text.match(/https?:\/\/\S+beneficiary-portal\?\S+/)[0])
      const assets = await api.json('GET', `/api/beneficiaries/${url.searchParams.get('id')}/assets?token=${encodeURIComponent(url.searchParams.get('token'))}`)
      return assets.filter((a) => a.status === 'available').length
    }),
  )
}

async function setUp(api, { items, shape, log }) {
  const owner = await api.registerOwner(`fanout-${shape}`, 'enterprise')
  const key = await rsaOaepPublicKey()
  const heirs = []
  for (let i = 0; i < HEIRS; i++) heirs.push(await api.addBeneficiary(owner.token, key))
  let policy = null
  if (shape === 'policy') {
    policy = await api.json('POST', '/api/policies', {
      token: owner.token,
      body: {
        name: 'Everything to everyone',
        description: 'Every item to all ten beneficiaries (bench).',
        ruleJson: { assign: heirs.map((h) => ({ beneficiaryId: h.id })), release: { on: ['verified_death'], delayHours: 0 } },
        encryptedSelectors: Buffer.from('sealed selectors').toString('base64'),
        wrappedKey: fakeWrappedKey(),
      },
    })
  }
  const started = performance.now()
  await pool(items, 6, async (i) => {
    await api.uploadItem(owner.token, {
      plainSize: 64,
      // Through the policy only (direct: false), or directly under the item's own protocol.
      policy: { protocol: shape === 'policy' ? 'INACTIVITY_365_DAYS' : 'MANUAL_RELEASE' },
      grants: heirs.map((h) => ({ beneficiaryId: h.id, wrappedKey: fakeWrappedKey(), direct: shape !== 'policy' })),
      policyIds: policy ? [policy.id] : [],
    })
    if ((i + 1) % 250 === 0) log(`  fanout ${shape}: ${i + 1} items stored`)
  })
  const setupSeconds = (performance.now() - started) / 1000
  const trigger = await api.json('POST', '/api/triggers', { token: owner.token, body: { type: 'verified_death', config: {}, status: 'active' } })
  return { owner, heirs, policy, trigger, setupSeconds }
}

async function run(api, { items, shape, log }) {
  const { owner, heirs, trigger, setupSeconds } = await setUp(api, { items, shape, log })
  const expected = items * HEIRS
  let t = performance.now()
  const dry = await api.call('POST', `/api/trigger-engine/dry-run/${trigger.id}`, { token: owner.token })
  const dryText = await dry.text()
  const dryMs = performance.now() - t
  if (dry.status !== 200) return { ok: false, items, shape, setupSeconds, dryMs, error: `dry run: HTTP ${dry.status} ${dryText.slice(0, 400)}` }
  const plan = JSON.parse(dryText)
  if (plan.itemCount !== items || plan.beneficiaryCount !== HEIRS) throw new Error(`dry run: ${plan.itemCount} items, ${plan.beneficiaryCount} beneficiaries`)

  t = performance.now()
  const res = await api.call('POST', `/api/trigger-engine/manual/${trigger.id}`, { token: owner.token, body: { reason: 'bench fan-out', confirm: 'RELEASE' } })
  const text = await res.text()
  const requestMs = performance.now() - t
  if (res.status !== 200) return { ok: false, items, shape, setupSeconds, dryMs, requestMs, error: `manual release: HTTP ${res.status} ${text.slice(0, 400)}` }
  const result = JSON.parse(text)
  let counts = await portalCounts(api, heirs)
  let released = counts.reduce((a, b) => a + b, 0)
  const afterRequest = released
  let allMs = released === expected ? requestMs : null
  // What is left waits for the cron sweep (every 5 minutes); the bench fires it back to back
  // instead, so what is measured is the engine's work rather than the schedule.
  let sweeps = 0
  const deadline = performance.now() + WAIT_SECONDS * 1000
  while (released < expected && performance.now() < deadline) {
    await (await fetch(`${api.origin}/cdn-cgi/local/scheduled?cron=${encodeURIComponent(CRON)}`)).arrayBuffer()
    sweeps++
    counts = await portalCounts(api, heirs)
    released = counts.reduce((a, b) => a + b, 0)
    if (released === expected) allMs = performance.now() - t
    else await sleep(200)
  }
  // The owner's own item list at this size (one request, nothing else running).
  t = performance.now()
  const list = await api.call('GET', '/api/vault/items', { token: owner.token })
  const listBody = await list.text()
  const listMs = performance.now() - t
  const listed = list.ok ? JSON.parse(listBody).length : null
  return { ok: released === expected, items, shape, setupSeconds, dryMs, requestMs, result, afterRequest, released, expected, allMs, sweeps, counts, list: { status: list.status, ms: listMs, listed }, ownerToken: owner.token }
}

export async function measureFanout({ origin, log }) {
  const api = client(origin)
  const rows = []
  const findings = []
  const raw = {}
  const auditOwners = []
  for (const shape of ['policy', 'items']) {
    // The largest size that works, from ITEMS down, when the engine fails at scale.
    let r
    for (const items of [ITEMS, 300, 100, 30, 10].filter((n, i, all) => n <= ITEMS && all.indexOf(n) === i)) {
      log(`fanout ${shape}: ${items} items × ${HEIRS} beneficiaries`)
      r = await run(api, { items, shape, log })
      const { ownerToken, ...kept } = r
      raw[`${shape}-${items}`] = kept
      if (ownerToken) auditOwners.push(ownerToken)
      log(
        `  setup ${r.setupSeconds.toFixed(0)} s; dry run ${(r.dryMs / 1000).toFixed(2)} s; request ${((r.requestMs ?? Number.NaN) / 1000).toFixed(2)} s; ` +
          (r.error ?? `${r.afterRequest} of ${r.expected} available after the request, ${r.released} after ${r.sweeps} sweeps`),
      )
      if (r.error) findings.push(`fan-out (${shape}) of ${items} × ${HEIRS} failed: ${r.error}`)
      else if (r.afterRequest < r.expected) {
        findings.push(
          `fan-out (${shape}) of ${items} × ${HEIRS}: the manual release made ${r.afterRequest} of ${r.expected} assets available ` +
            `(${r.result.pendingReleases} releases left waiting); the rest needed ${r.sweeps} cron sweep(s)${r.ok ? '' : ` and was still incomplete (${r.released}) after ${WAIT_SECONDS} s`}`,
        )
      }
      if (!r.error) break
    }
    const label = shape === 'policy' ? 'one policy' : "items' own MANUAL_RELEASE"
    const size = `${r.items.toLocaleString('en-US')} items × ${HEIRS} beneficiaries`
    if (r.error) {
      rows.push({ id: `fanout.${shape}`, measurement: `Release fan-out, ${label}: FAILED at every size`, value: Number.NaN, unit: 's', detail: r.error.slice(0, 80) })
      continue
    }
    rows.push({
      id: `fanout.${shape}.all`,
      measurement: `Release fan-out ${size} (${label}): trigger → all released`,
      value: r.allMs === null ? Number.NaN : r.allMs / 1000,
      unit: 's',
      detail: r.sweeps ? `${r.afterRequest} by the request, then ${r.sweeps} sweeps fired back to back` : `${r.expected.toLocaleString('en-US')} assets`,
      reference: { label: 'dry run (plan only)', value: r.dryMs / 1000 },
    })
    rows.push({ id: `fanout.${shape}.per`, measurement: `Release fan-out ${size} (${label}): per asset`, value: r.allMs === null ? Number.NaN : (r.allMs * 1000) / r.expected, unit: 'µs' })
    if (shape === 'policy') {
      const ok = r.list.status === 200 && r.list.listed === r.items
      rows.push({ id: 'fanout.list', measurement: `GET /api/vault/items with ${r.items.toLocaleString('en-US')} items (one request)`, value: ok ? r.list.ms : Number.NaN, unit: 'ms', detail: ok ? `${r.items} items` : `HTTP ${r.list.status}` })
      if (!ok) findings.push(`GET /api/vault/items for an owner with ${r.items} items answered HTTP ${r.list.status}${r.list.listed === null ? '' : ` with ${r.list.listed} items`}`)
    }
    rows.push({
      id: `fanout.${shape}.setup`,
      measurement: `Fan-out setup (not counted): ${r.items.toLocaleString('en-US')} items stored through the upload API, 6 in flight`,
      value: r.items / r.setupSeconds,
      unit: 'items/s',
    })
  }
  return { rows, findings, raw, context: { auditOwners } }
}
