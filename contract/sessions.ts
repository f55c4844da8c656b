import { z } from 'zod'

// The owner's signed-in devices (issue "A stolen session is not the owner"): every live session of
// the account, which browser and roughly where, and a way to sign out one or all the others.
// Signing out is a safety act, never a grant of trust, so it needs no fresh proof.

export const SESSIONS_PATHS = {
  list: '/api/auth/sessions',
  one: (id: string) => `/api/auth/sessions/${encodeURIComponent(id)}`,
  signOutOthers: '/api/auth/sessions/sign-out-others',
} as const

export const SESSION_MESSAGES = {
  title: 'Signed-in devices',
  description:
    'Every browser signed in to your account. If you see one you do not know, sign it out, then change your password: a device that is signed out has to sign in again.',
  loading: 'Loading your signed-in devices',
  loadFailed: 'Unable to load your signed-in devices.',
  empty: 'No device is signed in.',
  onlyThisDevice: 'No other device is signed in.',
  thisDevice: 'This device',
  unknownDevice: 'Unknown device',
  unknownPlace: 'Unknown location',
  signOut: 'Sign out',
  signOutOthers: 'Sign out all other devices',
  signOutOneTitle: (device: string) => `Sign out ${device}?`,
  signOutOneBody: 'That browser will have to sign in again with your password or a security key before it can open your account.',
  signOutOthersTitle: 'Sign out all other devices?',
  signOutOthersBody: 'Every browser but this one will have to sign in again with your password or a security key. This one stays signed in.',
  signedOutTitle: 'Device signed out',
  signedOutBody: (device: string) => `${device} has been signed out.`,
  othersSignedOutTitle: 'Other devices signed out',
  othersSignedOutBody: (count: number) => (count === 0 ? 'No other device was signed in.' : `${count} ${count === 1 ? 'device has' : 'devices have'} been signed out.`),
  signOutFailed: 'Could not sign out the device',
  signingOut: 'Signing out...',
  // API answers.
  revoked: 'That device has been signed out.',
  revokedCurrent: 'Signed out.',
  othersRevoked: (count: number) => (count === 0 ? 'No other device was signed in.' : `${count} other ${count === 1 ? 'device has' : 'devices have'} been signed out.`),
  notFound: 'That device is not signed in to your account.',
  idInvalid: 'A session id is a number.',
} as const

/** A session id as the API names it: its number, in decimal (the token is never shown). */
export const SESSION_ID_PATTERN = /^(0|[1-9][0-9]{0,15})$/

export const sessionIdParamSchema = z.object({ id: z.string().regex(SESSION_ID_PATTERN, SESSION_MESSAGES.idInvalid) })

export const signedInSessionSchema = z.object({
  /** The session's number as a string: opaque to the app, scoped to the owner, never the token. */
  id: z.string(),
  /** "Chrome on Windows", "Safari on iPhone", "Unknown device" (describeUserAgent). */
  device: z.string(),
  /** "City, CC" as Cloudflare placed the sign-in, or null. */
  place: z.string().nullable(),
  /** When it signed in. */
  createdAt: z.string(),
  /** When it was last used (to within a few minutes). */
  lastSeenAt: z.string(),
  /** The session that is asking. */
  current: z.boolean(),
  /** The browser it was opened in is one the owner marked as trusted (contract/trusted-devices.ts). */
  trusted: z.boolean(),
  /** False for a session opened before browsers were remembered: there is no browser to mark. */
  canTrust: z.boolean(),
})
export type SignedInSession = z.infer<typeof signedInSessionSchema>

export const sessionListSchema = z.object({ sessions: z.array(signedInSessionSchema) })
export type SessionList = z.infer<typeof sessionListSchema>

export const revokeSessionResponseSchema = z.object({ message: z.string(), current: z.boolean() })
export type RevokeSessionResponse = z.infer<typeof revokeSessionResponseSchema>

export const signOutOthersResponseSchema = z.object({ message: z.string(), signedOut: z.number().int() })
export type SignOutOthersResponse = z.infer<typeof signOutOthersResponseSchema>

// --- Which browser, on what -----------------------------------------------------------------------

/** Browsers by the token their user agent carries; the first that matches wins (Edge says Chrome too). */
const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|OPiOS|OPT)\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\bYaBrowser\//, 'Yandex Browser'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(CriOS|Chrome|Chromium|HeadlessChrome)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\/|\bMobile\/\w+ Safari\//, 'Safari'],
  [/\bMSIE |\bTrident\//, 'Internet Explorer'],
]

/** Systems, the more particular first (an iPhone's agent says "like Mac OS X", Android's says Linux). */
const SYSTEMS: Array<[RegExp, string]> = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\biPod\b/, 'iPod'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows Phone\b/, 'Windows Phone'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMacintosh\b|\bMac OS X\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
]

/** Programs that are not browsers, by the product token they start with. */
const PROGRAMS: Array<[RegExp, string]> = [
  [/^curl\//i, 'curl'],
  [/^Wget\//i, 'Wget'],
  [/^(node|undici|node-fetch)\b/i, 'Node.js'],
  [/^python-requests\/|^Python-urllib\/|^aiohttp\//i, 'Python'],
  [/^PostmanRuntime\//i, 'Postman'],
  [/^okhttp\//i, 'OkHttp'],
  [/^Go-http-client\//i, 'Go'],
]

/**
 * A person's words for the browser a user agent names: "Chrome on Windows", "Safari on iPhone",
 * "curl", or "Unknown device". A guess from what the browser says of itself (which it may choose),
 * good enough to tell one's own devices apart, never proof of anything.
 */
export function describeUserAgent(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? '').trim().slice(0, 512)
  if (!ua) return SESSION_MESSAGES.unknownDevice
  const program = PROGRAMS.find(([pattern]) => pattern.test(ua))
  if (program) return program[1]
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1]
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1]
  if (browser && system) return `${browser} on ${system}`
  return browser ?? system ?? SESSION_MESSAGES.unknownDevice
}

// --- When -----------------------------------------------------------------------------------------

/** "Signed in Nov 27, 2026" (or "Signed in" alone for an unreadable date). */
export function signedInText(createdAt: string, locale?: string): string {
  const date = new Date(createdAt)
  if (Number.isNaN(date.getTime())) return 'Signed in'
  return `Signed in ${date.toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' })}`
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
]

/**
 * "Last active just now", "Last active 3 hours ago", "Last active yesterday". A session's last use
 * is written at most every five minutes, so anything within that is "just now".
 */
export function lastActiveText(lastSeenAt: string, now = Date.now(), locale = 'en'): string {
  const at = new Date(lastSeenAt).getTime()
  if (Number.isNaN(at)) return 'Last active: unknown'
  const ago = now - at
  if (ago < 5 * 60_000) return 'Last active just now'
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })
  for (const [unit, ms] of UNITS) {
    if (ago >= ms) return `Last active ${format.format(-Math.floor(ago / ms), unit)}`
  }
  return 'Last active just now'
}
