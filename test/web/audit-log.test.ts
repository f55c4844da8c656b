import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { AUDIT_PAGE_MAX, canonicalEntry, canonicalJson, GENESIS_HASH, hashInput, UNLOCK_AUDIT_ACTIONS, verifyChain, type AuditEntry } from '../../contract/audit'
import { sha256Hex } from '@/crypto'
import { chainState, localCheck, readChain } from '@/features/audit/chain'
import { AUDIT_VECTORS, FIRST_HASH_INPUT, HASHED_FIELDS, tampered } from '../fixtures/audit-vectors'
import { AUDIT_HASH_ALGORITHM, auditCsv, auditJsonExport, canonicalDetails, CSV_COLUMNS, csvField, exportFileName, type AuditJsonExport } from '@/features/audit/export'
import { describeDetails, detailLabel, filterEntries, GROUP_OPTIONS, humaniseAction, isFiltered, NO_FILTERS } from '@/features/audit/format'

// The Audit Log page's logic: the browser's own check of the chain (SHA-256 over the chain as
// GET /api/audit returns it), the two export files, and search and filters.

type Spec = Pick<AuditEntry, 'action' | 'actor'> & { details?: AuditEntry['details'] }

/** A valid chain, oldest first, hashed exactly as the worker does (contract/audit.ts). */
async function buildChain(specs: readonly Spec[], start = Date.UTC(2025, 0, 1)): Promise<AuditEntry[]> {
  const out: AuditEntry[] = []
  let prevHash = GENESIS_HASH
  for (const [i, spec] of specs.entries()) {
    const body = {
      id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
      seq: i + 1,
      action: spec.action,
      actor: spec.actor,
      details: spec.details ?? {},
      createdAt: new Date(start + i * 60_000).toISOString(),
    }
    const hash = await sha256Hex(hashInput(prevHash, body))
    out.push({ ...body, prevHash, hash })
    prevHash = hash
  }
  return out
}

const SAMPLE: Spec[] = [
  { action: 'account.created', actor: 'user', details: { plan: 'basic' } },
  { action: 'vault.item_uploaded', actor: 'user', details: { itemId: 'item-1', type: 'doc', sizeBytes: 2048 } },
  { action: 'circle.beneficiary_added', actor: 'user', details: { beneficiaryId: 'ben-7', secrecyMode: false } },
  { action: 'checkin.ping', actor: 'system', details: { frequencyDays: 7 } },
  { action: 'release.completed', actor: 'system', details: { reason: 'Owner said "go", then left, twice\nnew line', approvals: 2, note: null } },
  { action: 'release.approved', actor: 'approver', details: { releaseId: 'rel-1' } },
  { action: 'asset.downloaded', actor: 'beneficiary', details: { assetId: 'asset-9' } },
]

describe('sha256Hex', () => {
  it('is SHA-256 over UTF-8, as lower-case hex', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    const text = `${GENESIS_HASH}\n{"a":"é ✓ 🔐"}`
    expect(await sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'))
  })

  it('is synchronous and agrees with node:crypto on inputs of every length, short and long, after a long one', () => {
    // Its encoding buffer is reused and grows: a long input, then shorter ones, must not leak bytes.
    const lengths = [0, 1, 55, 56, 63, 64, 65, 1023, 1024, 1025, 5000, 3, 341, 342]
    for (const n of lengths) {
      const text = `${'ab✓🔐'.repeat(n)}`.slice(0, n)
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'))
    }
    // Lone surrogates are encoded as U+FFFD, as TextEncoder and Node do.
    expect(sha256Hex('\ud800x')).toBe(createHash('sha256').update('\ud800x', 'utf8').digest('hex'))
  })

  it('the hand-sorted canonical entry is the sorted canonical JSON of the entry', () => {
    const entry = { id: 'e-1', seq: 7, action: 'vault.item_added', actor: 'user' as const, details: { z: 1, a: 'x', m: null, b: true }, createdAt: '2026-01-01T00:00:00.000Z' }
    expect(canonicalEntry(entry)).toBe(canonicalJson({ ...entry }))
    // Whatever the details hold (unsorted, escapes, integer-like keys, nesting, undefined, NaN), the same text.
    const odd: Array<Record<string, unknown>> = [{}, { b: 1, a: 'x"\n\u2028', c: null, d: true, e: -0, f: 1e21, g: 0.1 }, { '1': 2, a: 1, '10': 3 }, { a: { z: 1, b: 2 } }, { a: [3, { y: 1, x: 2 }] }, { a: undefined, b: 1 }, { a: Number.NaN }]
    for (const details of odd) {
      const e = { ...entry, details: details as AuditEntry['details'] }
      expect(canonicalEntry(e)).toBe(canonicalJson({ id: e.id, seq: e.seq, action: e.action, actor: e.actor, details: e.details, createdAt: e.createdAt }))
    }
    expect(canonicalEntry(entry)).toBe('{"action":"vault.item_added","actor":"user","createdAt":"2026-01-01T00:00:00.000Z","details":{"a":"x","b":true,"m":null,"z":1},"id":"e-1","seq":7}')
  })
})

describe('verifyChain in the browser (the contract\'s synchronous SHA-256)', () => {
  it('accepts an untouched chain given newest first', async () => {
    const chain = await buildChain(SAMPLE)
    expect(await verifyChain(chain, sha256Hex)).toEqual({ valid: true, checked: SAMPLE.length, brokenAt: null })
  })

  it('accepts an empty log', async () => {
    expect(await verifyChain([], sha256Hex)).toEqual({ valid: true, checked: 0, brokenAt: null })
  })

  it('flags an entry whose details were edited, at that seq', async () => {
    const chain = await buildChain(SAMPLE)
    chain[2] = { ...chain[2]!, details: { ...chain[2]!.details, secrecyMode: true } }
    expect(await verifyChain(chain, sha256Hex)).toEqual({ valid: false, checked: 2, brokenAt: 3 })
  })

  it('flags an edit even when the edited entry is re-hashed (its successor no longer links)', async () => {
    const chain = await buildChain(SAMPLE)
    const edited = { ...chain[1]!, details: { itemId: 'item-2', type: 'doc', sizeBytes: 1 } }
    edited.hash = await sha256Hex(hashInput(edited.prevHash, edited))
    chain[1] = edited
    expect((await verifyChain(chain, sha256Hex)).brokenAt).toBe(3)
  })

  it('flags a deleted middle entry at the one after the gap', async () => {
    const chain = await buildChain(SAMPLE)
    const withGap = chain.filter((e) => e.seq !== 4)
    expect(await verifyChain(withGap, sha256Hex)).toEqual({ valid: false, checked: 3, brokenAt: 5 })
  })

  it('flags a swapped pair', async () => {
    const chain = await buildChain(SAMPLE)
    ;[chain[3], chain[4]] = [chain[4]!, chain[3]!]
    expect((await verifyChain(chain, sha256Hex)).brokenAt).toBe(5)
  })

  it('flags a newest entry re-hashed with a skipped seq: the numbers must run on by one', async () => {
    const chain = await buildChain(SAMPLE)
    const last = chain.at(-1)!
    const skipped = { ...last, seq: last.seq + 2 }
    skipped.hash = await sha256Hex(hashInput(skipped.prevHash, skipped))
    chain[chain.length - 1] = skipped
    expect(await verifyChain(chain, sha256Hex)).toEqual({ valid: false, checked: SAMPLE.length - 1, brokenAt: last.seq + 2 })
  })

  it('cannot see a removed newest entry on its own: that is what the server check is for', async () => {
    const chain = await buildChain(SAMPLE)
    expect((await verifyChain(chain.slice(0, -1), sha256Hex)).valid).toBe(true)
  })
})

describe('readChain: the whole chain, a page at a time, verified incrementally', () => {
  /** GET /api/audit?from=&limit= over `chain`, counting what it serves. */
  function server(chain: AuditEntry[]) {
    const calls: number[] = []
    const fetchPage = async (from: number, limit: number) => {
      calls.push(from)
      return chain.filter((e) => e.seq >= from).slice(0, limit)
    }
    return { calls, fetchPage }
  }
  const specs = (n: number): Spec[] => Array.from({ length: n }, (_, i) => ({ action: 'checkin.recorded', actor: 'user', details: { n: i } }))

  it('verifies a chain longer than a page from the genesis hash (no false alarm past 1 000 entries)', async () => {
    const chain = await buildChain(specs(2_345))
    const api = server(chain)
    const read = await readChain(undefined, api.fetchPage)
    expect(api.calls).toEqual([1, 1 + AUDIT_PAGE_MAX, 1 + 2 * AUDIT_PAGE_MAX])
    expect(read).toMatchObject({ brokenAt: null, unverifiable: false, tip: { seq: 2_345, hash: chain.at(-1)!.hash } })
    expect(read.entries).toEqual(chain)
    expect(localCheck(read)).toEqual({ valid: true, checked: 2_345, brokenAt: null })
    // The spec's newest 1 000, checked on their own, is what used to say Compromised.
    expect((await verifyChain(chain.slice(-1_000), sha256Hex)).valid).toBe(false)
  })

  it('reads and hashes only what is new on the next visit, and sees what was appended', async () => {
    const chain = await buildChain(specs(1_500))
    const first = await readChain(undefined, server(chain.slice(0, 1_200)).fetchPage)
    let hashed = 0
    const counting = (input: string) => {
      hashed++
      return sha256Hex(input)
    }
    const api = server(chain)
    const second = await readChain(first, api.fetchPage, counting)
    expect(api.calls).toEqual([1_201])
    expect(hashed).toBe(300)
    expect(localCheck(second)).toEqual({ valid: true, checked: 1_500, brokenAt: null })
    expect(second.entries).toEqual(chain)
  })

  it('marks the first break, however deep, and reads a broken chain again from the start next time', async () => {
    const chain = await buildChain(specs(2_100))
    chain[1_733] = { ...chain[1_733]!, details: { n: -1 } }
    const api = server(chain)
    const read = await readChain(undefined, api.fetchPage)
    expect(read.brokenAt).toBe(1_734)
    expect(localCheck(read)).toEqual({ valid: false, checked: 1_733, brokenAt: 1_734 })
    // Nothing after the broken page is read; the broken page is kept to show the entry.
    expect(api.calls).toEqual([1, 1_001])
    expect(read.entries.map((e) => e.seq).at(-1)).toBe(2_000)
    const again = server(chain)
    await readChain(read, again.fetchPage)
    expect(again.calls[0]).toBe(1)
  })

  it('a gap at a page boundary is a break at the entry after it', async () => {
    const chain = (await buildChain(specs(1_010))).filter((e) => e.seq !== 1_001)
    expect((await readChain(undefined, server(chain).fetchPage)).brokenAt).toBe(1_002)
  })

  it('a hasher that fails reads everything and says it could not check', async () => {
    const chain = await buildChain(specs(1_050))
    const read = await readChain(undefined, server(chain).fetchPage, () => {
      throw new Error('no hash')
    })
    expect(read).toMatchObject({ unverifiable: true, brokenAt: null })
    expect(read.entries).toHaveLength(1_050)
  })
})

describe('chainState', () => {
  const ok = { valid: true, checked: 7, brokenAt: null }
  const okServer = { ...ok, headMatches: true }
  const none = { result: undefined, failed: false }

  it('is Verified only when the browser verified and the server agreed (or could not answer)', () => {
    expect(chainState({ result: ok, failed: false }, { result: okServer, failed: false })).toEqual({ status: 'verified', checked: 7, serverConfirmed: true })
    expect(chainState({ result: ok, failed: false }, { result: undefined, failed: true })).toEqual({ status: 'verified', checked: 7, serverConfirmed: false })
    expect(chainState({ result: ok, failed: false }, none)).toEqual({ status: 'checking' })
    expect(chainState(none, { result: okServer, failed: false })).toEqual({ status: 'checking' })
  })

  it('is Compromised when either check fails, at the first break either saw', () => {
    expect(chainState({ result: { valid: false, checked: 4, brokenAt: 5 }, failed: false }, { result: okServer, failed: false })).toEqual({
      status: 'compromised',
      brokenAt: 5,
      headRemoved: false,
    })
    expect(
      chainState({ result: { valid: false, checked: 4, brokenAt: 5 }, failed: false }, { result: { valid: false, checked: 2, brokenAt: 3, headMatches: true }, failed: false }),
    ).toMatchObject({ status: 'compromised', brokenAt: 3 })
    // A dropped newest entry: every link fine, but the server's head does not match.
    expect(chainState({ result: ok, failed: false }, { result: { ...ok, headMatches: false }, failed: false })).toEqual({
      status: 'compromised',
      brokenAt: null,
      headRemoved: true,
    })
    // The server's verdict alone is enough, even before the browser has finished.
    expect(chainState(none, { result: { ...ok, headMatches: false }, failed: false }).status).toBe('compromised')
  })

  it('is unavailable when the browser could not check and nothing says it is broken', () => {
    expect(chainState({ result: undefined, failed: true }, { result: okServer, failed: false })).toEqual({ status: 'unavailable' })
  })
})

/** A strict RFC 4180 reader, to prove the CSV reads back as written. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++
      else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') row.push(field), (field = '')
    else if (c === '\r' && text[i + 1] === '\n') row.push(field), rows.push(row), (row = []), (field = ''), i++
    else field += c
  }
  if (field || row.length) row.push(field), rows.push(row)
  return rows
}

describe('exports', () => {
  const now = new Date('2025-03-04T05:06:07.000Z')

  it('JSON: a small header and every entry oldest first, which re-verifies on its own', async () => {
    const chain = await buildChain(SAMPLE)
    const doc = JSON.parse(auditJsonExport([...chain].reverse(), now)) as AuditJsonExport
    expect(Object.keys(doc)).toEqual(['exportedAt', 'algorithm', 'genesisHash', 'entries'])
    expect(doc.exportedAt).toBe('2025-03-04T05:06:07.000Z')
    expect(doc.algorithm).toBe(AUDIT_HASH_ALGORITHM)
    expect(doc.algorithm).toBe('SHA-256 over prevHash + "\\n" + canonical entry')
    expect(doc.genesisHash).toBe(GENESIS_HASH)
    expect(doc.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(doc.entries).toEqual(chain)
    expect(await verifyChain(doc.entries, sha256Hex)).toEqual({ valid: true, checked: 7, brokenAt: null })
  })

  it('JSON keeps a tampered log as it came, so the export shows the same break', async () => {
    const chain = await buildChain(SAMPLE)
    chain[3] = { ...chain[3]!, details: { frequencyDays: 30 } }
    const doc = JSON.parse(auditJsonExport([...chain].reverse(), now)) as AuditJsonExport
    expect((await verifyChain(doc.entries, sha256Hex)).brokenAt).toBe(4)
  })

  it('CSV quotes only what needs it, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain')
    expect(csvField(42)).toBe('42')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('two\nlines')).toBe('"two\nlines"')
    expect(csvField('cr\rhere')).toBe('"cr\rhere"')
    expect(csvField(' padded')).toBe('" padded"')
    expect(csvField('')).toBe('')
  })

  it('details are canonical JSON: keys sorted, no spaces, integer-like keys not hoisted', () => {
    expect(canonicalDetails({ b: 1, a: 'x', c: null, d: true })).toBe('{"a":"x","b":1,"c":null,"d":true}')
    expect(canonicalDetails({ b: 1, '10': 'x', '2': 'y' })).toBe('{"10":"x","2":"y","b":1}')
    expect(canonicalDetails({})).toBe('{}')
  })

  it('CSV: header, column order, oldest first, CRLF rows, and every field reads back', async () => {
    const chain = await buildChain(SAMPLE)
    const csv = auditCsv([...chain].reverse())
    expect(csv.startsWith('seq,id,createdAt,actor,action,details,prevHash,hash\r\n')).toBe(true)
    expect(csv.endsWith('\r\n')).toBe(true)
    const [header, ...rows] = parseCsv(csv)
    expect(header).toEqual([...CSV_COLUMNS])
    expect(rows).toHaveLength(chain.length)
    rows.forEach((row, i) => {
      const e = chain[i]!
      expect(row).toEqual([String(e.seq), e.id, e.createdAt, e.actor, e.action, canonicalDetails(e.details), e.prevHash, e.hash])
      expect(JSON.parse(row[5]!)).toEqual(e.details)
    })
    // The entry with commas, quotes and a newline in its details is quoted, not split.
    expect(csv).toContain('"{""approvals"":2,""note"":null,""reason"":""Owner said \\""go\\"", then left, twice\\nnew line""}"')
  })

  it('CSV rows re-verify: the columns hold everything the hash covers', async () => {
    const chain = await buildChain(SAMPLE)
    const [, ...rows] = parseCsv(auditCsv([...chain].reverse()))
    const entries: AuditEntry[] = rows.map(([seq, id, createdAt, actor, action, details, prevHash, hash]) => ({
      seq: Number(seq),
      id: id!,
      createdAt: createdAt!,
      actor: actor as AuditEntry['actor'],
      action: action!,
      details: JSON.parse(details!),
      prevHash: prevHash!,
      hash: hash!,
    }))
    expect((await verifyChain(entries, sha256Hex)).valid).toBe(true)
  })

  it('an empty log exports a header only', () => {
    expect(auditCsv([])).toBe('seq,id,createdAt,actor,action,details,prevHash,hash\r\n')
    expect((JSON.parse(auditJsonExport([], now)) as AuditJsonExport).entries).toEqual([])
  })

  it('file names carry the date', () => {
    expect(exportFileName('json', now)).toBe('audit-log-2025-03-04.json')
    expect(exportFileName('csv', now)).toBe('audit-log-2025-03-04.csv')
  })
})

describe('humaniseAction', () => {
  it('turns dotted and snake-case actions into a sentence', () => {
    expect(humaniseAction('release.completed')).toBe('Release completed')
    expect(humaniseAction('vault.item_uploaded')).toBe('Vault item uploaded')
    expect(humaniseAction('ACCOUNT.Login')).toBe('Account login')
    expect(humaniseAction('checkin.recorded')).toBe('Check-in recorded')
    expect(humaniseAction('')).toBe('')
  })

  it('names failed unlock attempts, their forgiving and the warning in words', () => {
    expect(humaniseAction(UNLOCK_AUDIT_ACTIONS.passphraseFailed)).toBe('Failed vault unlock (wrong passphrase)')
    expect(humaniseAction(UNLOCK_AUDIT_ACTIONS.keyFailed)).toBe('Failed security key answer')
    expect(humaniseAction(UNLOCK_AUDIT_ACTIONS.forgiven)).toBe('Failed unlock attempts forgiven by a successful unlock')
    expect(humaniseAction(UNLOCK_AUDIT_ACTIONS.warned)).toBe('E-mailed: someone tried to open your vault')
    // Only the table's own keys: nothing inherited.
    expect(humaniseAction('constructor')).toBe('Constructor')
  })
})

describe('filterEntries', () => {
  const ids = (entries: AuditEntry[]) => entries.map((e) => e.seq)

  it('no filters keep everything, in order', async () => {
    const chain = await buildChain(SAMPLE)
    expect(filterEntries(chain, NO_FILTERS)).toEqual(chain)
    expect(isFiltered(NO_FILTERS)).toBe(false)
    expect(isFiltered({ ...NO_FILTERS, search: '  ' })).toBe(false)
  })

  it('an actor or action-group choice alone counts as filtered (the page then says how many of all are shown)', () => {
    expect(isFiltered({ ...NO_FILTERS, actor: 'system' })).toBe(true)
    expect(isFiltered({ ...NO_FILTERS, group: 'other' })).toBe(true)
  })

  it('search matches action (raw or as shown), actor and detail values, case-insensitively', async () => {
    const chain = await buildChain(SAMPLE)
    expect(ids(filterEntries(chain, { ...NO_FILTERS, search: 'RELEASE.' }))).toEqual([5, 6])
    expect(ids(filterEntries(chain, { ...NO_FILTERS, search: 'item uploaded' }))).toEqual([2])
    expect(ids(filterEntries(chain, { ...NO_FILTERS, search: 'approver' }))).toEqual([6])
    expect(ids(filterEntries(chain, { ...NO_FILTERS, search: 'BEN-7' }))).toEqual([3])
    expect(ids(filterEntries(chain, { ...NO_FILTERS, search: '2048' }))).toEqual([2])
    expect(ids(filterEntries(chain, { ...NO_FILTERS, search: 'false' }))).toEqual([3])
    // Keys are not searched, only values; null values match nothing.
    expect(ids(filterEntries(chain, { ...NO_FILTERS, search: 'itemId' }))).toEqual([])
    expect(ids(filterEntries(chain, { ...NO_FILTERS, search: 'null' }))).toEqual([])
  })

  it('filters by actor', async () => {
    const chain = await buildChain(SAMPLE)
    expect(ids(filterEntries(chain, { ...NO_FILTERS, actor: 'system' }))).toEqual([4, 5])
    expect(ids(filterEntries(chain, { ...NO_FILTERS, actor: 'beneficiary' }))).toEqual([7])
  })

  it('filters by action group, with unknown prefixes under Other', async () => {
    const chain = await buildChain(SAMPLE)
    expect(ids(filterEntries(chain, { ...NO_FILTERS, group: 'release' }))).toEqual([5, 6])
    expect(ids(filterEntries(chain, { ...NO_FILTERS, group: 'checkin' }))).toEqual([4])
    expect(ids(filterEntries(chain, { ...NO_FILTERS, group: 'other' }))).toEqual([7])
    expect(GROUP_OPTIONS.map((o) => o.value)).toEqual(['all', 'account', 'vault', 'circle', 'policy', 'trigger', 'release', 'checkin', 'access', 'other'])
  })

  it('combines search, actor and group', async () => {
    const chain = await buildChain(SAMPLE)
    expect(ids(filterEntries(chain, { search: 'rel', actor: 'system', group: 'release' }))).toEqual([5])
    expect(isFiltered({ search: 'rel', actor: 'all', group: 'all' })).toBe(true)
  })
})

describe('describeDetails: words, never ids', () => {
  const names = new Map([['11111111-2222-4333-8444-555555555555', 'Ada Lovelace']])
  const name = (id: string) => names.get(id)

  it('names the people and things ids stand for, and leaves out ids with no name', () => {
    expect(
      describeDetails(
        {
          beneficiaryId: '11111111-2222-4333-8444-555555555555',
          releaseId: '99999999-2222-4333-8444-555555555555',
          firingId: 't:99999999-2222-4333-8444-555555555555:2',
          assetId: '0123456789abcdef0123456789abcdef',
          verificationEmailSent: true,
          items: 3,
          note: null,
        },
        name,
      ),
    ).toEqual([
      { label: 'Beneficiary', text: 'Ada Lovelace' },
      { label: 'Verification email sent', text: 'yes' },
      { label: 'Items', text: '3' },
      { label: 'Note', text: '—' },
    ])
    expect(detailLabel('approverIds')).toBe('Approver')
    expect(describeDetails({ type: 'verified_death', protocol: 'INACTIVITY_90_DAYS' }, name)).toEqual([
      { label: 'Type', text: 'Verified Death' },
      { label: 'Protocol', text: 'Inactivity (90 days)' },
    ])
    expect(describeDetails({ kind: 'vault_unlock', attemptsLeft: 2 }, name)).toEqual([
      { label: 'Kind', text: 'Vault passphrase' },
      { label: 'Attempts left', text: '2' },
    ])
    expect(describeDetails({ kind: 'passkey', reason: 'signature', attemptsLeft: null }, name)).toEqual([
      { label: 'Kind', text: 'Security key' },
      { label: 'Reason', text: 'signature' },
      { label: 'Attempts left', text: '—' },
    ])
    expect(describeDetails({ type: 'biometric_failure', kind: 'constructor' }, name)).toEqual([
      { label: 'Type', text: 'Failed unlock attempts' },
      { label: 'Kind', text: 'constructor' },
    ])
  })
})

describe('known-answer vectors (test/fixtures/audit-vectors.ts), the browser and the export', () => {
  it('hashes exactly the pinned bytes, and the frozen chain verifies', async () => {
    expect(hashInput(AUDIT_VECTORS[0]!.prevHash, AUDIT_VECTORS[0]!)).toBe(FIRST_HASH_INPUT)
    expect(await sha256Hex(FIRST_HASH_INPUT)).toBe(AUDIT_VECTORS[0]!.hash)
    expect(createHash('sha256').update(FIRST_HASH_INPUT, 'utf8').digest('hex')).toBe(AUDIT_VECTORS[0]!.hash)
    expect(await verifyChain(AUDIT_VECTORS, sha256Hex)).toEqual({ valid: true, checked: AUDIT_VECTORS.length, brokenAt: null })
    expect(await verifyChain(AUDIT_VECTORS, sha256Hex)).toMatchObject({ valid: true })
  })

  it('breaks at the entry whose any hashed field changed', async () => {
    for (const field of HASHED_FIELDS) {
      for (const at of [0, 2, 4]) {
        const chain = AUDIT_VECTORS.map((e, i) => (i === at ? tampered(e, field) : e))
        const result = await verifyChain(chain, sha256Hex)
        expect(result.valid, `${field} of entry ${at + 1}`).toBe(false)
        expect(result.brokenAt, `${field} of entry ${at + 1}`).toBe(field === 'seq' ? AUDIT_VECTORS[at]!.seq + 100 : at + 1)
      }
    }
  })

  it('the JSON export holds the chain as it verifies offline, and its CSV keeps every hashed field', async () => {
    const doc = JSON.parse(auditJsonExport([...AUDIT_VECTORS].reverse(), new Date('2026-03-01T00:00:00Z'))) as AuditJsonExport
    expect(doc.entries).toEqual(AUDIT_VECTORS)
    expect(await verifyChain(doc.entries, (input) => createHash('sha256').update(input, 'utf8').digest('hex'))).toMatchObject({ valid: true })
    const csv = auditCsv([...AUDIT_VECTORS].reverse())
    for (const e of AUDIT_VECTORS) expect(csv).toContain(e.hash)
  })
})
