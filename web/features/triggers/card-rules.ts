import type { Trigger, TriggerType } from '../../../contract/triggers'

// The rules of the Triggers page's cards and its create dialog, apart from their React.

/** A trigger not yet fired offers its own extras: the death report's links to send again, the check-in schedule to edit. */
export function triggerExtras(trigger: Pick<Trigger, 'type' | 'status'>): { resendReportLinks: boolean; editSchedule: boolean } {
  const live = trigger.status !== 'triggered'
  return { resendReportLinks: live && trigger.type === 'verified_death', editSchedule: live && trigger.type === 'inactivity' }
}

/** One inactivity trigger per owner (one check-in clock): with one, it is not offered again. */
export function hasInactivityTrigger(triggers: readonly Pick<Trigger, 'type'>[] | undefined): boolean {
  return triggers?.some((t) => t.type === 'inactivity') ?? false
}

/** The type the create dialog opens on: the one asked for, except an inactivity trigger the owner already has. */
export function startingType(asked: TriggerType | undefined, taken: boolean): TriggerType | '' {
  return asked === 'inactivity' && taken ? '' : (asked ?? '')
}

/** A scheduled release's beneficiaries: their names, and how many were removed since; 'None' when there are neither. */
export function scheduledBeneficiariesText(ids: readonly string[], nameOf: (id: string) => string | undefined, namesLoaded: boolean): string {
  const names = ids.map(nameOf).filter((n): n is string => !!n)
  const missing = namesLoaded ? ids.length - names.length : 0
  return [names.join(', '), missing > 0 ? `${missing} removed` : ''].filter(Boolean).join(', ') || 'None'
}
