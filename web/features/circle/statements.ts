import type { Beneficiary } from '../../../contract/circle'
import { ApiRequestError, apiJson } from '@/lib/api-client'
import { vaultSession, type SignedBeneficiaryKey } from '@/features/vault/vault-session'

// Beneficiary statements as this browser holds them to account (0.3 · 3 of 7). The server takes a
// statement only above every one it took before; this browser also remembers, per owner and in its
// own storage where the server cannot reach, the newest statement it verified for each beneficiary
// and overall, and refuses one older than that. So a statement the vault retired (a deleted person's
// key, an earlier address, a name before a rename) cannot be served back to it unnoticed.

/** What this browser makes of a beneficiary's statement. */
export type StatementVerdict =
  /** A v2 statement of this vault's, not older than any this browser verified. */
  | 'signed'
  /** A v1 statement of this vault's (key and address only): trusted, and restated as v2 at the next chance. */
  | 'restate'
  /** None yet: a key stored before signing keys, for the owner to confirm. */
  | 'unconfirmed'
  /** Signed by nothing of this vault's, or older than one this browser verified. */
  | 'changed'

interface Memory {
  /** The highest sequence verified in a complete list. */
  highest: number
  /** Per beneficiary id, the sequence last verified. */
  seen: Record<string, number>
  /** The highest sequence this browser signed (the next one goes above it). */
  signed: number
}

const MEMORY_PREFIX = 'legacy-vault:statements:'
const empty = (): Memory => ({ highest: 0, seen: {}, signed: 0 })

function load(ownerId: string): Memory {
  try {
    const raw = globalThis.localStorage?.getItem(MEMORY_PREFIX + ownerId)
    if (!raw) return empty()
    const parsed = JSON.parse(raw) as Partial<Memory>
    return {
      highest: Number.isSafeInteger(parsed.highest) ? parsed.highest! : 0,
      seen: parsed.seen && typeof parsed.seen === 'object' ? parsed.seen : {},
      signed: Number.isSafeInteger(parsed.signed) ? parsed.signed! : 0,
    }
  } catch {
    return empty()
  }
}

function save(ownerId: string, memory: Memory): void {
  globalThis.localStorage?.setItem(MEMORY_PREFIX + ownerId, JSON.stringify(memory))
}

/**
 * Judges each beneficiary's statement against this vault's key and this browser's memory: a v2
 * statement below the one remembered for that beneficiary, or, for one not seen before, not above
 * the highest seen, is 'changed'. All rows are judged against the memory as it was before this
 * call. Only a `complete` list (the whole circle, as the Beneficiaries page loads it) updates the
 * memory, and forgets the people no longer in it: a subset (the recipients of one item) cannot say
 * who left, nor vouch that no one older was left out. Needs the unlocked vault (VaultLockedError).
 */
export async function judgeStatements(list: readonly SignedBeneficiaryKey[], options: { complete: boolean }): Promise<Map<string, StatementVerdict>> {
  const checks = await Promise.all(list.map((b) => vaultSession.checkStatement(b)))
  const signer = vaultSession.signer()
  const memory = signer ? load(signer.ownerId) : empty()
  const verdicts = new Map<string, StatementVerdict>()
  list.forEach((b, i) => {
    const check = checks[i]
    if (b.keySignature === null) verdicts.set(b.id, 'unconfirmed')
    else if (check === null) verdicts.set(b.id, 'changed')
    else if (check === 'v1') verdicts.set(b.id, 'restate')
    else {
      const sequence = b.statementSequence!
      const known = memory.seen[b.id]
      verdicts.set(b.id, (known === undefined ? sequence > memory.highest : sequence >= known) ? 'signed' : 'changed')
    }
  })
  if (signer && options.complete) {
    const next: Memory = { highest: memory.highest, seen: {}, signed: memory.signed }
    for (const b of list) {
      if (verdicts.get(b.id) === 'signed') {
        next.seen[b.id] = b.statementSequence!
        next.highest = Math.max(next.highest, b.statementSequence!)
      } else if (memory.seen[b.id] !== undefined) {
        // Still in the list, not believed: what was verified for it stands.
        next.seen[b.id] = memory.seen[b.id]!
      }
    }
    save(signer.ownerId, next)
  }
  return verdicts
}

/** The sequence the server says is the newest it took, when it refused a statement as outdated. */
export function outdatedHighest(error: unknown): number | null {
  if (!(error instanceof ApiRequestError) || error.status !== 409) return null
  const highest = (error.body as { statementSequence?: unknown } | null)?.statementSequence
  return typeof highest === 'number' && Number.isSafeInteger(highest) ? highest : null
}

/** Claims a sequence above `floor` and everything this browser signed or saw before. */
function claimSequence(floor: number): number {
  const signer = vaultSession.signer()
  if (!signer) return floor + 1
  const memory = load(signer.ownerId)
  const next = Math.max(floor, memory.highest, memory.signed) + 1
  save(signer.ownerId, { ...memory, signed: next })
  return next
}

/**
 * Runs a write that carries a statement: `run` signs at the sequence it is given and sends. The
 * first is above everything this browser knows (`known`: the list as it has it); a refusal naming
 * the server's newest (another tab or device wrote meanwhile) is signed again above it, once.
 */
export async function withStatementSequence<T>(known: ReadonlyArray<{ statementSequence: number | null }>, run: (sequence: number) => Promise<T>): Promise<T> {
  const floor = Math.max(0, ...known.map((b) => b.statementSequence ?? 0))
  try {
    return await run(claimSequence(floor))
  } catch (error) {
    const highest = outdatedHighest(error)
    if (highest === null) throw error
    return run(claimSequence(highest))
  }
}

/** The statement fields of a beneficiary row as it is, or will be. */
export function statedFields(b: Pick<Beneficiary, 'id' | 'fullName' | 'relationship' | 'email' | 'keyVersion' | 'publicKey'>) {
  return { beneficiaryId: b.id, fullName: b.fullName, relationship: b.relationship, email: b.email, keyVersion: b.keyVersion, publicKey: b.publicKey }
}

/** Signs the row as it is (a v1 statement restated, or an unconfirmed key the owner confirmed) with the key-signature route. */
export function restate(b: Beneficiary, known: readonly Beneficiary[]): Promise<Beneficiary> {
  return withStatementSequence(known, async (statementSequence) => {
    const keySignature = await vaultSession.signBeneficiary({ ...statedFields(b), sequence: statementSequence })
    return apiJson<Beneficiary>('POST', `/api/beneficiaries/${encodeURIComponent(b.id)}/key-signature`, { keySignature, statementSequence })
  })
}

/**
 * Restates as v2 every row whose v1 statement holds (one request each), in order. Returns how many
 * were restated; one that fails is left for the next time (it stays trusted as v1 meanwhile).
 */
export async function restateV1Rows(list: readonly Beneficiary[], verdicts: ReadonlyMap<string, StatementVerdict>): Promise<number> {
  let restated = 0
  for (const b of list) {
    if (verdicts.get(b.id) !== 'restate') continue
    try {
      await restate(b, list)
      restated++
    } catch {
      // Left as it is: trusted as v1, tried again at the next unlock or visit.
    }
  }
  return restated
}
