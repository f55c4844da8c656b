// Every date an e-mail shows, written in one place: in the recipient's time zone where we know it
// (the owner's setting, users.timezone) and in UTC where we do not (an heir, an approver), the zone
// always named. Seconds stay: a check-in's deadline is the engine's firing time to the second.

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** The zone as people read it: 'America/New_York' → 'America/New York time'; 'UTC' → 'UTC'. */
function zoneName(timeZone: string): string {
  return timeZone === 'UTC' ? 'UTC' : `${timeZone.replace(/_/g, ' ')} time`
}

/** A zone Intl knows, else UTC (a stored value from an older list, say). */
function knownZone(timeZone: string | null | undefined): string {
  if (!timeZone) return 'UTC'
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone })
    return timeZone
  } catch {
    return 'UTC'
  }
}

function partsOf(at: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  }).formatToParts(new Date(at))
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? ''
  return {
    weekday: get('weekday'),
    day: get('day'),
    month: get('month'),
    year: get('year'),
    time: `${get('hour')}:${get('minute')}:${get('second')}`,
    offset: get('timeZoneName'),
  }
}

/** 'Friday 27 November 2026, 14:35:07 (America/New York time, GMT-05:00)'. */
export function emailDate(at: number, timeZone?: string | null): string {
  const zone = knownZone(timeZone)
  const p = partsOf(at, zone)
  return `${p.weekday} ${p.day} ${p.month} ${p.year}, ${p.time} (${zone === 'UTC' ? 'UTC' : `${zoneName(zone)}, ${p.offset}`})`
}

/** A day alone: '27 November 2026 (America/New York time)'. */
export function emailDay(at: number, timeZone?: string | null): string {
  const zone = knownZone(timeZone)
  const p = partsOf(at, zone)
  return `${p.day} ${p.month} ${p.year} (${zoneName(zone)})`
}

/** The instant an emailDate() names, or NaN: the inverse, for reading an e-mail back. */
export function parseEmailDate(text: string): number {
  const m = /(\d{1,2}) ([A-Z][a-z]+) (\d{4}), (\d{2}):(\d{2}):(\d{2}) \((?:UTC|[^)]*?, GMT(?:([+-])(\d{2}):(\d{2}))?)\)/.exec(text)
  if (!m) return Number.NaN
  const month = MONTHS.indexOf(m[2]!)
  const local = Date.UTC(Number(m[3]), month, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]))
  const offset = m[7] ? (m[7] === '-' ? -1 : 1) * (Number(m[8]) * 60 + Number(m[9])) * 60_000 : 0
  return local - offset
}
