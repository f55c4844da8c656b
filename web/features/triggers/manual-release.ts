import { TRIGGER_MESSAGES } from '../../../contract/triggers'
import { TRIGGER_TOASTS } from './copy'

// The Manual Trigger Test card's rule (seeds 001 §5 'Manual trigger'): a selected trigger and a
// non-empty reason, else a 'Missing Information' toast; only then the typed RELEASE confirmation.

export const RELEASE_WORD = 'RELEASE'

export type ManualGuard = { ok: true; triggerId: string; reason: string } | { ok: false; title: string; description: string }

export function manualReleaseGuard(triggerId: string | null | undefined, reason: string): ManualGuard {
  const trimmed = reason.trim()
  if (!triggerId) return { ok: false, title: TRIGGER_MESSAGES.missingInformation, description: TRIGGER_TOASTS.selectTrigger }
  if (!trimmed) return { ok: false, title: TRIGGER_MESSAGES.missingInformation, description: TRIGGER_MESSAGES.reasonRequired }
  return { ok: true, triggerId, reason: trimmed }
}

/** The confirm button stays disabled until the owner has typed the word exactly. */
export const isReleaseConfirmed = (typed: string) => typed.trim() === RELEASE_WORD
