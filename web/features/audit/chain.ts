import { AUDIT_PAGE_MAX, GENESIS_TIP, verifyChainFrom, type AuditEntry, type AuditHasher, type ChainTip, type ChainVerification } from '../../../contract/audit'
import { sha256Hex } from '@/crypto'

/** GET /api/audit/verify: the server's own walk, which also knows the head it last wrote. */
export type ServerVerification = ChainVerification & { headMatches: boolean }

/** What the browser has read and checked of the chain so far, kept in memory between visits. */
export interface ReadChain {
  /** Oldest first: every entry read, the verified ones and, when broken, the page that broke. */
  entries: AuditEntry[]
  /** The end of the verified stretch: the next read starts after it. */
  tip: ChainTip
  /** seq of the first entry that does not fit, if any (nothing after its page is read). */
  brokenAt: number | null
  /** The hash failed (the contract's SHA-256 is plain JavaScript, so only a broken hasher does): read but not checked. */
  unverifiable: boolean
}

export const EMPTY_CHAIN: ReadChain = { entries: [], tip: GENESIS_TIP, brokenAt: null, unverifiable: false }

/**
 * Reads the chain on from what was already verified (`known`, or from seq 1), a page at a time in
 * ascending order, and checks each page against the tip of the one before: a chain of any length
 * is verified whole, and a second visit only reads and hashes what is new. A broken or unchecked
 * chain is read again from the start.
 */
export async function readChain(
  known: ReadChain | undefined,
  fetchPage: (from: number, limit: number) => Promise<AuditEntry[]>,
  hash: AuditHasher = sha256Hex,
): Promise<ReadChain> {
  const start = known && known.brokenAt === null && !known.unverifiable ? known : EMPTY_CHAIN
  const entries = [...start.entries]
  let tip = start.tip
  let unverifiable = false
  for (let cursor = tip.seq; ; ) {
    const page = await fetchPage(cursor + 1, AUDIT_PAGE_MAX)
    entries.push(...page)
    if (!unverifiable) {
      try {
        const step = verifyChainFrom(page, tip, hash)
        if (!step.valid) return { entries, tip: step.tip, brokenAt: step.brokenAt, unverifiable: false }
        tip = step.tip
      } catch {
        unverifiable = true
      }
    }
    const last = page.at(-1)?.seq ?? cursor
    // A short page is the end; so is a page that does not move on (only a broken server sends one).
    if (page.length < AUDIT_PAGE_MAX || last <= cursor) return { entries, tip, brokenAt: null, unverifiable }
    cursor = last
  }
}

/** The browser's verdict on what it read, in the form chainState takes. */
export function localCheck(chain: ReadChain): ChainVerification {
  if (chain.brokenAt !== null) return { valid: false, checked: chain.tip.seq, brokenAt: chain.brokenAt }
  return { valid: true, checked: chain.entries.length, brokenAt: null }
}

export type ChainState =
  | { status: 'checking' }
  /** serverConfirmed is false when the server's check could not be loaded. */
  | { status: 'verified'; checked: number; serverConfirmed: boolean }
  /** brokenAt: the lowest seq either check flagged; headRemoved: only the server can see a dropped newest entry. */
  | { status: 'compromised'; brokenAt: number | null; headRemoved: boolean }
  /** The browser could not run its own check (the chain could not be read) and nothing says it is broken. */
  | { status: 'unavailable' }

interface Check<T> {
  result: T | undefined
  failed: boolean
}

/** One verdict from the browser's and the server's checks: either failing makes it Compromised. */
export function chainState(local: Check<ChainVerification>, server: Check<ServerVerification>): ChainState {
  const localBroken = local.result && !local.result.valid
  const serverBroken = server.result && (!server.result.valid || !server.result.headMatches)
  if (localBroken || serverBroken) {
    const breaks = [local.result?.brokenAt, server.result?.valid === false ? server.result.brokenAt : null].filter(
      (n): n is number => typeof n === 'number',
    )
    return {
      status: 'compromised',
      brokenAt: breaks.length ? Math.min(...breaks) : null,
      headRemoved: !!server.result && server.result.valid && !server.result.headMatches,
    }
  }
  if (local.failed) return { status: 'unavailable' }
  if (!local.result || (!server.result && !server.failed)) return { status: 'checking' }
  return { status: 'verified', checked: local.result.checked, serverConfirmed: !!server.result }
}
