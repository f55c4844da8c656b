import type { ServingTrigger } from '../../../../contract/readiness'
import type { Trigger } from '../../../../contract/triggers'

/**
 * Whether the trigger the items wait for is there to release them. By hand: any trigger not yet
 * fired, paused or not, lets the owner release from the Monitor. Otherwise: an active trigger of
 * that type; `matching` counts those of the type, so a paused one is told apart from none.
 */
export function protocolTriggerState(kind: NonNullable<ServingTrigger>, triggers: readonly Pick<Trigger, 'type' | 'status'>[]): { active: boolean; matching: number } {
  const matching = triggers.filter((t) => (kind === 'manual' ? t.status !== 'triggered' : t.type === kind))
  const active = matching.some((t) => t.status === 'active' || (kind === 'manual' && t.status === 'paused'))
  return { active, matching: matching.length }
}
