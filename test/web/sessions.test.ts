import { describe, expect, it } from 'vitest'
import { describeUserAgent, lastActiveText, SESSION_MESSAGES, signedInText } from '../../contract/sessions'
import { canSignOut, otherSessions } from '@/features/sessions/session-rules'

// The words of the signed-in devices list (contract/sessions.ts): which browser on what, and when.

const AGENTS: Array<[string, string]> = [
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome on Windows'],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86', 'Edge on Windows'],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Windows'],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15', 'Safari on macOS'],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome on macOS'],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on macOS'],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'Safari on iPhone'],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1', 'Chrome on iPhone'],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15', 'Firefox on iPhone'],
  ['Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1', 'Safari on iPad'],
  ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36', 'Chrome on Android'],
  ['Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36', 'Samsung Internet on Android'],
  ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 OPR/86.0.0.0', 'Opera on Android'],
  ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome on Linux'],
  ['Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Linux'],
  ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome on ChromeOS'],
  ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36', 'Chrome on Linux'],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Vivaldi/7.0', 'Vivaldi on Windows'],
  ['Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko', 'Internet Explorer on Windows'],
  // An app's web view on an iPhone names no browser.
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148', 'iPhone'],
  ['curl/8.5.0', 'curl'],
  ['python-requests/2.32.3', 'Python'],
  ['node', 'Node.js'],
]

describe('describeUserAgent', () => {
  it.each(AGENTS)('%s → %s', (agent, words) => {
    expect(describeUserAgent(agent)).toBe(words)
  })

  it('says "Unknown device" when there is nothing to go on', () => {
    for (const agent of [null, undefined, '', '   ', 'SomethingElse/1.0', '\u{1F5DD}'.repeat(1000)]) {
      expect(describeUserAgent(agent)).toBe(SESSION_MESSAGES.unknownDevice)
    }
  })
})

describe('lastActiveText and signedInText', () => {
  const now = Date.parse('2026-11-27T12:00:00Z')
  const ago = (ms: number) => new Date(now - ms).toISOString()

  it('says how long ago, in words', () => {
    expect(lastActiveText(ago(0), now)).toBe('Last active just now')
    expect(lastActiveText(ago(4 * 60_000), now)).toBe('Last active just now')
    expect(lastActiveText(ago(12 * 60_000), now)).toBe('Last active 12 minutes ago')
    expect(lastActiveText(ago(3 * 3_600_000), now)).toBe('Last active 3 hours ago')
    expect(lastActiveText(ago(26 * 3_600_000), now)).toBe('Last active yesterday')
    expect(lastActiveText(ago(3 * 86_400_000), now)).toBe('Last active 3 days ago')
    expect(lastActiveText(ago(15 * 86_400_000), now)).toBe('Last active 2 weeks ago')
    // A clock a little ahead of this one is still "just now".
    expect(lastActiveText(ago(-30_000), now)).toBe('Last active just now')
    expect(lastActiveText('not a date', now)).toBe('Last active: unknown')
  })

  it('gives the sign-in date', () => {
    expect(signedInText('2026-11-27T12:00:00Z', 'en-US')).toBe('Signed in Nov 27, 2026')
    expect(signedInText('garbage')).toBe('Signed in')
  })
})

describe('the signed-in devices card', () => {
  it('Sign out is offered on another device, never on the one in use; sign out all others takes every other one', () => {
    expect(canSignOut({ current: false })).toBe(true)
    expect(canSignOut({ current: true })).toBe(false)
    const here = { id: 'a', current: true }
    const phone = { id: 'b', current: false }
    const laptop = { id: 'c', current: false }
    expect(otherSessions([phone, here, laptop])).toEqual([phone, laptop])
    // Alone: nothing to sign out, so the button is not offered.
    expect(otherSessions([here])).toEqual([])
  })
})
