import { asc, desc, gte, lt, sql } from 'drizzle-orm'
import { AUDIT_PAGE_MAX, GENESIS_HASH, GENESIS_TIP, hashInput, verifyChainFrom, type AuditActor, type AuditEntry, type ChainVerification } from '../../contract/audit'
import { sha256HexSync } from '../lib/sync-crypto'
import { jsonSlices, type OwnerDb } from './db'
import { auditEntries } from './schema'

export interface AuditInput {
  actor: AuditActor
  action: string
  /** Ids, counts, types, statuses and reasons: never secrets, keys, addresses, names or file names. */
  details: Record<string, string | number | boolean | null>
}

interface AuditHead {
  seq: number
  hash: string
}

const HEAD_KEY = 'auditHead'

/**
 * Appends one entry to the owner's chain. Synchronous, so it runs inside the transaction of the act
 * it records: both commit or neither. The head is kept apart from the entries, so removing the
 * last entry shows too.
 */
export function appendAudit(storage: DurableObjectStorage, db: OwnerDb, input: AuditInput, at = Date.now()): AuditEntry {
  const head = storage.kv.get<AuditHead>(HEAD_KEY) ?? { seq: 0, hash: GENESIS_HASH }
  const body = { id: crypto.randomUUID(), seq: head.seq + 1, action: input.action, actor: input.actor, details: input.details, createdAt: new Date(at).toISOString() }
  const hash = sha256HexSync(hashInput(head.hash, body))
  db.insert(auditEntries)
    .values({ ...body, details: JSON.stringify(body.details), hash, prevHash: head.hash })
    .run()
  storage.kv.put(HEAD_KEY, { seq: body.seq, hash } satisfies AuditHead)
  return { ...body, hash, prevHash: head.hash }
}

/**
 * Appends entries in order, as appendAudit would one by one, in one statement: a firing that
 * completes a thousand releases records a thousand entries without a thousand inserts.
 */
export function appendAuditMany(storage: DurableObjectStorage, db: OwnerDb, inputs: readonly AuditInput[], at = Date.now()): void {
  if (inputs.length === 0) return
  let head = storage.kv.get<AuditHead>(HEAD_KEY) ?? { seq: 0, hash: GENESIS_HASH }
  const createdAt = new Date(at).toISOString()
  const rows = inputs.map((input) => {
    const body = { id: crypto.randomUUID(), seq: head.seq + 1, action: input.action, actor: input.actor, details: input.details, createdAt }
    const hash = sha256HexSync(hashInput(head.hash, body))
    const row = { ...body, details: JSON.stringify(body.details), hash, prevHash: head.hash }
    head = { seq: body.seq, hash }
    return row
  })
  // One bound parameter a statement (the object's SQLite allows 100), however many entries.
  for (const slice of jsonSlices(rows)) {
    db.run(sql`insert into audit (seq, id, action, actor, details, created_at, hash, prev_hash)
      select json_extract(e.value, '$.seq'), json_extract(e.value, '$.id'), json_extract(e.value, '$.action'), json_extract(e.value, '$.actor'), json_extract(e.value, '$.details'), json_extract(e.value, '$.createdAt'), json_extract(e.value, '$.hash'), json_extract(e.value, '$.prevHash')
      from json_each(${slice}) as e`)
  }
  storage.kv.put(HEAD_KEY, head)
}

function toEntry(row: typeof auditEntries.$inferSelect): AuditEntry {
  return {
    id: row.id,
    seq: row.seq,
    action: row.action,
    actor: row.actor as AuditActor,
    details: JSON.parse(row.details) as AuditEntry['details'],
    createdAt: row.createdAt,
    hash: row.hash,
    prevHash: row.prevHash,
  }
}

/** Newest first; `before` pages back from a seq. */
export function listAudit(db: OwnerDb, limit = 1000, before?: number): AuditEntry[] {
  return db
    .select()
    .from(auditEntries)
    .where(before === undefined ? undefined : lt(auditEntries.seq, before))
    .orderBy(desc(auditEntries.seq))
    .limit(limit)
    .all()
    .map(toEntry)
}

/** Oldest first, from seq `from` on: the pages GET /api/audit?from= and the export walk. */
export function listAuditFrom(db: OwnerDb, from: number, limit = AUDIT_PAGE_MAX): AuditEntry[] {
  return db.select().from(auditEntries).where(gte(auditEntries.seq, from)).orderBy(asc(auditEntries.seq)).limit(limit).all().map(toEntry)
}

export function auditCount(db: OwnerDb): number {
  return db.select({ n: sql<number>`count(*)` }).from(auditEntries).get()?.n ?? 0
}

/**
 * The whole chain re-hashed a page at a time (memory stays flat however long it is), and its end
 * compared with the head the object wrote last.
 */
export function verifyAudit(storage: DurableObjectStorage, db: OwnerDb): ChainVerification & { headMatches: boolean } {
  let tip = GENESIS_TIP
  let checked = 0
  let result: ChainVerification = { valid: true, checked: 0, brokenAt: null }
  for (;;) {
    const page = listAuditFrom(db, tip.seq + 1)
    // A gap (a deleted entry) shows as the next page starting past tip.seq + 1.
    const step = verifyChainFrom(page, tip, sha256HexSync)
    checked += step.checked
    if (!step.valid) {
      result = { valid: false, checked, brokenAt: step.brokenAt }
      break
    }
    tip = step.tip
    if (page.length < AUDIT_PAGE_MAX) {
      result = { valid: true, checked, brokenAt: null }
      break
    }
  }
  const head = storage.kv.get<AuditHead>(HEAD_KEY) ?? { seq: 0, hash: GENESIS_HASH }
  const last = db.select({ seq: auditEntries.seq, hash: auditEntries.hash }).from(auditEntries).orderBy(desc(auditEntries.seq)).limit(1).get()
  const headMatches = (last?.seq ?? 0) === head.seq && (last?.hash ?? GENESIS_HASH) === head.hash
  return headMatches ? { ...result, headMatches } : { ...result, valid: false, brokenAt: result.brokenAt ?? head.seq, headMatches }
}
