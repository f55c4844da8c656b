import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { servingTrigger } from '../../../../contract/readiness'
import { TRIGGER_TYPE_LABELS } from '../../../../contract/triggers'
import { DEFAULT_RELEASE_PROTOCOL, type ReleaseProtocol } from '../../../../contract/vault-items'
import { useSafetyWindowHours } from '@/features/policies/policy-earliest'
import { triggersQuery } from '@/features/triggers/api'
import { protocolEarliestSentence } from '@/features/triggers/earliest'
import { protocolTriggerState } from './protocol-rules'

/**
 * Under the Add Item dialog's protocol: which trigger the items will wait for, and, when the owner
 * has no active one of that kind, that they would never go, with the link that sets one up.
 */
export function ProtocolTriggerNote({ protocol }: { protocol: string }) {
  const triggers = useQuery(triggersQuery)
  const kind = servingTrigger(protocol)
  if (!kind || !triggers.data) return null
  const { active, matching } = protocolTriggerState(kind, triggers.data)
  if (kind === 'manual') {
    return (
      <p className="text-sm text-slate-600" data-testid="protocol-trigger-note">
        {active ? 'These items go only when you release them by hand from the Trigger Monitor.' : 'These items go only when you release them by hand, from a trigger you have not set up yet. '}
        {!active && (
          <Link to="/triggers" search={{ create: 'manual_release' }} className="font-medium text-brand-700 underline-offset-4 hover:underline">
            Set up a Manual Release trigger
          </Link>
        )}
      </p>
    )
  }
  const title = TRIGGER_TYPE_LABELS[kind].title
  const a = /^[aeiou]/i.test(title) ? 'an' : 'a'
  if (active) {
    return (
      <p className="text-sm text-slate-600" data-testid="protocol-trigger-note">
        These items wait for your {title} trigger.
      </p>
    )
  }
  return (
    <p className="text-sm text-red-700" data-testid="protocol-trigger-note">
      These items wait for {a} {title} trigger, and you have {matching ? 'only a paused one' : 'none'}: until you {matching ? 'activate it' : 'set one up'}, they would never be released.{' '}
      <Link to="/triggers" search={matching ? {} : { create: kind }} className="font-medium text-brand-700 underline-offset-4 hover:underline">
        {matching ? 'Open your triggers' : `Set up ${a} ${title} trigger`}
      </Link>
    </p>
  )
}

/** Under the protocol too: when these items would become available at the earliest ('': the default is sent). */
export function ProtocolEarliestNote({ protocol }: { protocol: ReleaseProtocol | '' }) {
  const windowHours = useSafetyWindowHours()
  return (
    <p className="text-sm text-slate-600" data-testid="protocol-earliest">
      {protocolEarliestSentence(protocol || DEFAULT_RELEASE_PROTOCOL, windowHours)}
    </p>
  )
}
