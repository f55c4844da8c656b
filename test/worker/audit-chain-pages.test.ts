import { runInDurableObject } from 'cloudflare:test'
import { createHash } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { AUDIT_PAGE_MAX, canonicalJson, GENESIS_TIP, hashInput, verifyChain, verifyChainFrom, type AuditEntry, type ChainTip } from '../../contract/audit'
import { auditSha256Hex } from '../../contract/audit-hash'
import type { OwnerVault } from '../../worker/host/vault-object'
import { call, env, register, uniqueEmail } from './helpers'
import { ownerExec, ownerRow, vaultOf } from './owner-helpers'
import { AUDIT_VECTORS, HASHED_FIELDS, tampered } from '../fixtures/audit-vectors'

// The whole chain, however long (issue 0.2 · 2 of 7, point 8): GET /api/audit keeps the spec's
// newest-first shape, ?from= pages it oldest first, /api/audit/export streams it whole, and the
// server's check walks it a page at a time. And no act without its entry, nor entry without its act.

const LONG = 5_000
const sha256 = (input: string) => createHash('sha256').update(input).digest('hex')

async function json<T>(res: Response, status = 200): Promise<T> {
  if (res.status !== status) throw new Error(`${res.url}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

async function messageOf(res: Response): Promise<string> {
  return ((await res.json()) as { message: string }).message
}

/** An owner whose chain holds their registration and then `count` more entries, written in one transaction. */
async function ownerWithChain(count: number) {
  const owner = await register()
  await vaultOf(owner.user.id).audit().appendAuditMany(
    Array.from({ length: count }, (_, i) => ({ actor: 'system' as const, action: 'checkin.reminder_sent', details: { n: i + 1 } })),
  )
  const total = (await ownerRow<{ n: number }>(owner.user.id, 'select count(*) as n from audit'))!.n
  return { ...owner, total }
}

describe('a chain of 5 000 entries', () => {
  let owner: Awaited<ReturnType<typeof ownerWithChain>>
  beforeAll(async () => {
    owner = await ownerWithChain(LONG)
  })

  it('GET /api/audit answers the newest 1 000, newest first', async () => {
    const newest = await json<AuditEntry[]>(await call('/api/audit', { token: owner.token }))
    expect(newest).toHaveLength(AUDIT_PAGE_MAX)
    expect(newest.map((e) => e.seq)).toEqual(Array.from({ length: AUDIT_PAGE_MAX }, (_, i) => owner.total - i))
    const five = await json<AuditEntry[]>(await call('/api/audit?limit=5', { token: owner.token }))
    expect(five).toEqual(newest.slice(0, 5))
  })

  it('?from= pages oldest first, and the pages verify from the genesis hash, one after another', async () => {
    let tip: ChainTip = GENESIS_TIP
    let pages = 0
    for (;;) {
      const page = await json<AuditEntry[]>(await call(`/api/audit?from=${tip.seq + 1}&limit=${AUDIT_PAGE_MAX}`, { token: owner.token }))
      pages++
      expect(page[0]?.seq ?? tip.seq + 1).toBe(tip.seq + 1)
      const step = await verifyChainFrom(page, tip, sha256)
      expect(step).toMatchObject({ valid: true, checked: page.length })
      tip = step.tip
      if (page.length < AUDIT_PAGE_MAX) break
    }
    expect(tip.seq).toBe(owner.total)
    expect(pages).toBe(Math.floor(owner.total / AUDIT_PAGE_MAX) + 1)
    const small = await json<AuditEntry[]>(await call('/api/audit?from=4990&limit=3', { token: owner.token }))
    expect(small.map((e) => e.seq)).toEqual([4990, 4991, 4992])
    expect(await json<AuditEntry[]>(await call(`/api/audit?from=${owner.total + 1}`, { token: owner.token }))).toEqual([])
  })

  it('refuses pages it does not serve with 400 and a message', async () => {
    const cases: Array<[string, string]> = [
      ['?from=1&limit=1001', 'limit: A page holds at most 1000 entries.'],
      ['?limit=0', 'limit: Ask for at least 1 entry.'],
      ['?from=0', 'from: Start from entry 1 or later.'],
      ['?from=2.5', 'from: Start from a whole entry number.'],
      ['?from=first', 'from: Invalid input: expected number, received NaN'],
    ]
    for (const [query, message] of cases) {
      const res = await call(`/api/audit${query}`, { token: owner.token })
      expect(res.status, query).toBe(400)
      expect(await messageOf(res), query).toBe(message)
    }
  })

  it('GET /api/audit/export streams every entry from seq 1, oldest first, verifiable offline', async () => {
    const res = await call('/api/audit/export', { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('content-disposition')).toContain('attachment')
    const entries = (await res.json()) as AuditEntry[]
    expect(entries).toHaveLength(owner.total)
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: owner.total }, (_, i) => i + 1))
    expect(await verifyChain(entries, sha256)).toEqual({ valid: true, checked: owner.total, brokenAt: null })
  })

  it("the server's check walks the whole chain and agrees", async () => {
    expect(await json(await call('/api/audit/verify', { token: owner.token }))).toEqual({
      valid: true,
      checked: owner.total,
      brokenAt: null,
      headMatches: true,
    })
  })

  it('an owner reads only their own chain, whole', async () => {
    const other = await register()
    const theirs = (await json<AuditEntry[]>(await call('/api/audit/export', { token: other.token })))
    expect(theirs.length).toBeLessThan(10)
    expect(theirs.map((e) => e.id)).not.toContain((await json<AuditEntry[]>(await call('/api/audit?limit=1', { token: owner.token })))[0]!.id)
    expect((await call('/api/audit/export')).status).toBe(401)
  })
})

describe('a tampered long chain', () => {
  it('is found by the server at the entry changed, deep in the chain, and at a removed one', async () => {
    const owner = await ownerWithChain(2_500)
    const original = (await ownerRow<{ details: string }>(owner.user.id, 'select details from audit where seq = 1800'))!.details
    await ownerExec(owner.user.id, [`update audit set details = '{"n":-1}' where seq = 1800`])
    expect(await json(await call('/api/audit/verify', { token: owner.token }))).toMatchObject({ valid: false, brokenAt: 1800, headMatches: true })
    await ownerExec(owner.user.id, [`update audit set details = ? where seq = 1800`, original], [`delete from audit where seq = 2200`])
    expect(await json(await call('/api/audit/verify', { token: owner.token }))).toMatchObject({ valid: false, brokenAt: 2201 })
    // The export shows the gap as it is: verifying it offline finds the same break.
    const exported = await json<AuditEntry[]>(await call('/api/audit/export', { token: owner.token }))
    expect(exported).toHaveLength(owner.total - 1)
    expect((await verifyChain(exported, sha256)).brokenAt).toBe(2201)
  })

  it('a rewritten newest entry, its hash recomputed so the chain itself still verifies, shows against the head the object wrote last', async () => {
    const owner = await ownerWithChain(3)
    const [newest] = await json<AuditEntry[]>(await call('/api/audit?limit=1', { token: owner.token }))
    const { hash: _hash, prevHash, ...rest } = newest!
    const forged = { ...rest, details: { n: 999 } }
    const forgedHash = auditSha256Hex(hashInput(prevHash, forged))
    await ownerExec(owner.user.id, ['update audit set details = ?, hash = ? where seq = ?', canonicalJson(forged.details), forgedHash, newest!.seq])
    // The chain alone cannot tell: every link holds.
    const exported = await json<AuditEntry[]>(await call('/api/audit/export', { token: owner.token }))
    expect(verifyChain(exported, sha256).valid).toBe(true)
    // The head the object wrote with its last append can.
    expect(await json(await call('/api/audit/verify', { token: owner.token }))).toMatchObject({ valid: false, headMatches: false, brokenAt: newest!.seq })
  })

  it('a dropped newest entry shows against the head the object wrote last', async () => {
    const owner = await ownerWithChain(1_200)
    await ownerExec(owner.user.id, [`delete from audit where seq = ?`, owner.total])
    expect(await json(await call('/api/audit/verify', { token: owner.token }))).toMatchObject({ valid: false, headMatches: false })
  })
})

describe('no act without its entry', () => {
  it('an audit append that fails undoes the act: no approver, no mail, the chain as it was', async () => {
    const owner = await register()
    const email = uniqueEmail('undone')
    const before = await json<AuditEntry[]>(await call('/api/audit', { token: owner.token }))
    await runInDurableObject(vaultOf(owner.user.id), async (_: OwnerVault, state) => {
      state.storage.sql.exec(`create trigger refuse_audit before insert on audit begin select raise(abort, 'the audit append fails'); end`)
    })
    const res = await call('/api/approvers', { token: owner.token, body: { fullName: 'Never Added', email, role: 'Notary' } })
    expect(res.status).toBe(500)
    expect(await ownerRow(owner.user.id, 'select id from approvers where email = ?', email)).toBeNull()
    expect(await env.DB.prepare('select id from email_outbox where to_address = ?').bind(email).first()).toBeNull()
    expect(await json<AuditEntry[]>(await call('/api/audit', { token: owner.token }))).toEqual(before)

    await ownerExec(owner.user.id, ['drop trigger refuse_audit'])
    expect((await call('/api/approvers', { token: owner.token, body: { fullName: 'Now Added', email, role: 'Notary' } })).status).toBe(201)
    const after = await json<AuditEntry[]>(await call('/api/audit', { token: owner.token }))
    expect(after[0]).toMatchObject({ action: 'circle.approver_added', seq: before[0]!.seq + 1 })
    expect(await json(await call('/api/audit/verify', { token: owner.token }))).toMatchObject({ valid: true, headMatches: true })
  })
})

describe("the worker's verifier on the known-answer vectors (test/fixtures/audit-vectors.ts)", () => {
  /** An owner whose chain is exactly the frozen vectors, with the head the object would have written. */
  async function ownerWithVectors(entries: AuditEntry[] = AUDIT_VECTORS) {
    const owner = await register()
    const rows: Array<[string, ...unknown[]]> = [['delete from audit']]
    for (const e of entries) {
      rows.push([
        'insert into audit (seq, id, action, actor, details, created_at, hash, prev_hash) values (?, ?, ?, ?, ?, ?, ?, ?)',
        e.seq,
        e.id,
        e.action,
        e.actor,
        JSON.stringify(e.details),
        e.createdAt,
        e.hash,
        e.prevHash,
      ])
    }
    await ownerExec(owner.user.id, ...rows)
    const last = entries.at(-1)!
    await runInDurableObject(vaultOf(owner.user.id), async (_: OwnerVault, state) => state.storage.kv.put('auditHead', { seq: last.seq, hash: last.hash }))
    return owner
  }

  it('verifies the frozen chain, serves it as it is, and a new act chains on from its last hash', async () => {
    const owner = await ownerWithVectors()
    expect(await json(await call('/api/audit/verify', { token: owner.token }))).toEqual({ valid: true, checked: AUDIT_VECTORS.length, brokenAt: null, headMatches: true })
    expect(await json<AuditEntry[]>(await call('/api/audit/export', { token: owner.token }))).toEqual(AUDIT_VECTORS)
    expect((await call('/api/approvers', { token: owner.token, body: { fullName: 'Next Entry', email: uniqueEmail('next'), role: 'Notary' } })).status).toBe(201)
    const [newest] = await json<AuditEntry[]>(await call('/api/audit?limit=1', { token: owner.token }))
    expect(newest).toMatchObject({ seq: AUDIT_VECTORS.length + 1, prevHash: AUDIT_VECTORS.at(-1)!.hash })
    expect(await json(await call('/api/audit/verify', { token: owner.token }))).toMatchObject({ valid: true, headMatches: true })
  })

  it('finds a change to any hashed field of a stored entry, at that entry', async () => {
    for (const field of HASHED_FIELDS) {
      const at = 2
      const owner = await ownerWithVectors(AUDIT_VECTORS.map((e, i) => (i === at ? tampered(e, field) : e)))
      const result = await json<{ valid: boolean; brokenAt: number | null }>(await call('/api/audit/verify', { token: owner.token }))
      expect(result.valid, field).toBe(false)
      // A changed seq leaves a gap where entry 3 was: read in seq order, entry 4 no longer follows 2.
      expect(result.brokenAt, field).toBe(field === 'seq' ? at + 2 : at + 1)
    }
  })
})
