import { SAFETY_WINDOW_MESSAGES, safetyWindowBodySchema, type SafetyWindowBody } from '../../../contract/settings'

/**
 * The safety window field as typed: the body to send, or the message to show. An empty field is not
 * a whole number of hours, never 0.
 */
export function readSafetyWindow(value: string): { body: SafetyWindowBody } | { error: string } {
  const parsed = safetyWindowBodySchema.safeParse({ hours: value.trim() === '' ? Number.NaN : Number(value) })
  return parsed.success ? { body: parsed.data } : { error: parsed.error.issues[0]?.message ?? SAFETY_WINDOW_MESSAGES.whole }
}
