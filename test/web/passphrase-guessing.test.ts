import { describe, expect, it, vi } from 'vitest'
import { scorePassphrase, STRENGTH_MIN } from '../../web/features/vault/passphrase-strength'
import { checkGuessing, GUESSING_MESSAGES, judgeGuessing, loadEstimator, MIN_GUESSES } from '../../web/features/vault/passphrase-guessing'

// A new vault passphrase must resist offline guessing (the server keeps the passphrase check and the
// wrapped keys), judged by zxcvbn-ts beside the spec's character rules.

describe('passphrases that resist guessing', () => {
  it("refuses what the spec's rules accept but an attacker guesses at once, with the estimator's advice", async () => {
    const estimator = await loadEstimator()
    for (const weak of ['abcdefghijk1', 'Password123!']) {
      expect(scorePassphrase(weak).score).toBeGreaterThanOrEqual(STRENGTH_MIN)
      const verdict = judgeGuessing(estimator, weak)
      expect(verdict.ok).toBe(false)
      expect(verdict.advice.length).toBeGreaterThan(0)
    }
    expect(judgeGuessing(estimator, 'abcdefghijk1').advice).toContain('Common character sequences like "abc" are easy to guess.')
    expect(judgeGuessing(estimator, 'Password123!').advice).toContain('This is similar to a commonly used password.')
  })

  it('asks for 10^12 guesses, not the estimator’s top score alone, and says what to do when it has no advice', async () => {
    const estimator = await loadEstimator()
    // The estimator's best score (4) begins at 10^10 guesses: two weeks of one GPU against this vault's check.
    const result = estimator.check('MyDogRex2019!')
    expect(result.score).toBe(4)
    expect(result.guesses).toBeLessThan(MIN_GUESSES)
    expect(judgeGuessing(estimator, 'MyDogRex2019!')).toEqual({ ok: false, advice: [GUESSING_MESSAGES.longer] })
  })

  it('counts what is personal to the owner as easy to guess', async () => {
    const estimator = await loadEstimator()
    expect(judgeGuessing(estimator, 'Quillfeather-Marsh-2026').ok).toBe(true)
    expect(judgeGuessing(estimator, 'Quillfeather-Marsh-2026', ['marsh@example.com', 'Quillfeather Marsh']).ok).toBe(false)
  })

  it('accepts the passphrases people are told to choose (words that do not go together, a number)', async () => {
    for (const strong of ['Granite-Orchard-42-Lantern', 'Harbour-Quill-58-Meadow', 'correct horse battery staple', 'Correct horse battery staple, cafe ☕']) {
      expect(await checkGuessing(strong, ['grace@example.com', 'Grace Owner'])).toEqual({ ok: true, advice: [] })
    }
  })

  it('does not accept a passphrase as hard to guess when the guessing check cannot be loaded: it refuses and says why', async () => {
    // The estimator is a separate chunk of the app; here it fails to load, as on a dropped connection.
    vi.resetModules()
    vi.doMock('@zxcvbn-ts/core', () => {
      throw new Error('the chunk could not be loaded')
    })
    try {
      const offline = await import('../../web/features/vault/passphrase-guessing')
      expect(await offline.checkGuessing('Granite-Orchard-42-Lantern')).toEqual({ ok: false, advice: [GUESSING_MESSAGES.unavailable] })
    } finally {
      vi.doUnmock('@zxcvbn-ts/core')
      vi.resetModules()
    }
  })
})
