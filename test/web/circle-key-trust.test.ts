import { describe, expect, it } from 'vitest'
import { keyTrustShown, restatementsDue } from '@/features/circle/key-trust-rules'
import type { StatementVerdict } from '@/features/circle/statements'

// What the beneficiary list says of each key, and which rows are restated as v2.

describe('a beneficiary’s key in the list', () => {
  it('shows Key signed for a statement of this vault’s (v1 too), the red badge for a changed one, and Confirm for a key never signed', () => {
    expect(keyTrustShown(true, 'signed')).toBe('signed')
    expect(keyTrustShown(true, 'restate')).toBe('signed')
    expect(keyTrustShown(true, 'changed')).toBe('changed')
    expect(keyTrustShown(true, 'unconfirmed')).toBe('confirm')
  })

  it('shows nothing while the vault is locked or the key is not judged yet', () => {
    expect(keyTrustShown(false, 'changed')).toBeNull()
    expect(keyTrustShown(false, 'unconfirmed')).toBeNull()
    expect(keyTrustShown(true, undefined)).toBeNull()
  })
})

describe('restating v1 statements', () => {
  it('restates only rows on a v1 statement, each once per visit and signature', () => {
    const list = [
      { id: 'a', keySignature: 'sig-a' },
      { id: 'b', keySignature: 'sig-b' },
      { id: 'c', keySignature: 'sig-c' },
    ]
    const verdicts = new Map<string, StatementVerdict>([
      ['a', 'restate'],
      ['b', 'signed'],
      ['c', 'unconfirmed'],
    ])
    const tried = new Set<string>()
    expect([...restatementsDue(list, verdicts, tried).keys()]).toEqual(['a'])
    // The same row, same signature: not again this visit.
    expect(restatementsDue(list, verdicts, tried).size).toBe(0)
    // Its signature changed meanwhile (still v1): once more.
    expect([...restatementsDue([{ id: 'a', keySignature: 'sig-a2' }], verdicts, tried).keys()]).toEqual(['a'])
  })
})
