import { verifyChain, type AuditEntry, type ChainVerification } from '../../../contract/audit'
import { sha256Hex } from '@/crypto'

/** GET /api/audit/verify: the server's own walk, which also knows the head it last wrote. */
export type ServerVerification = ChainVerification & { headMatches: boolean }

/** Verifies the list as GET /api/audit returns it (newest first) with the browser's SHA-256. */
export function verifyNewestFirst(entries: readonly AuditEntry[], hash: (input: string) => Promise<string> = sha256Hex): Promise<ChainVerification> {
  return verifyChain([...entries].reverse(), hash)
}

export type ChainState =
  | { status: 'checking' }
  /** serverConfirmed is false when the server's check could not be loaded. */
  | { status: 'verified'; checked: number; serverConfirmed: boolean }
  /** brokenAt: the lowest seq either check flagged; headRemoved: only the server can see a dropped newest entry. */
  | { status: 'compromised'; brokenAt: number | null; headRemoved: boolean }
  /** The browser could not run its own check (e.g. no WebCrypto) and nothing says it is broken. */
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
