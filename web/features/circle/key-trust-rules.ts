import type { Beneficiary } from '../../../contract/circle'
import type { StatementVerdict } from './statements'

/**
 * What the beneficiary list shows of a key, with the vault unlocked: "Key signed" for a statement of
 * this vault's (a v1 one too, until restated), the red "changed" badge, or the button to confirm a
 * key never signed. Locked, or not judged yet: nothing.
 */
export function keyTrustShown(unlocked: boolean, verdict: StatementVerdict | undefined): 'signed' | 'changed' | 'confirm' | null {
  if (!unlocked || !verdict) return null
  if (verdict === 'signed' || verdict === 'restate') return 'signed'
  if (verdict === 'changed') return 'changed'
  return 'confirm'
}

/**
 * The rows to restate as v2 now: those on a v1 statement of this vault's, each once per visit and
 * signature (`tried` remembers them across calls).
 */
export function restatementsDue(list: readonly Pick<Beneficiary, 'id' | 'keySignature'>[], verdicts: ReadonlyMap<string, StatementVerdict>, tried: Set<string>): Map<string, StatementVerdict> {
  const due = new Map<string, StatementVerdict>()
  for (const b of list) {
    const key = `${b.id}:${b.keySignature}`
    if (verdicts.get(b.id) === 'restate' && !tried.has(key)) {
      tried.add(key)
      due.set(b.id, 'restate')
    }
  }
  return due
}
