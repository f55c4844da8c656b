import { useId } from 'react'
import { PROFILE_MESSAGES } from '../../../contract/profile'
import type { SecurityKey } from '../../../contract/webauthn'
import { Checkbox } from '@/components/ui/checkbox'
import { InlineLoadState } from '@/components/ui/inline-load-state'
import { useSecurityKeys } from '@/features/security-keys/api'
import { keysToRemove, removesEveryKey } from './profile-form'

const added = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })

/**
 * The password form's optional list: the account's security keys, each with the date it was added
 * and a checkbox, and "Remove all". A key someone else added would still let them in after the
 * password changes, so the owner may remove keys in the same step. Nothing shows without keys.
 */
export function RemoveKeysField({
  selected,
  onChange,
  twoFactorEnabled,
  disabled,
}: {
  selected: ReadonlySet<string>
  onChange: (selected: Set<string>) => void
  twoFactorEnabled: boolean
  disabled?: boolean
}) {
  const keys = useSecurityKeys()
  const id = useId()
  const list: SecurityKey[] = keys.data?.keys ?? []
  // Only keys that are still there count (one may have been removed elsewhere meanwhile).
  const chosen = keysToRemove(list, selected)
  const all = removesEveryKey(list, selected)
  const toggle = (keyId: string, on: boolean) => {
    const next = new Set(chosen.map((key) => key.id))
    if (on) next.add(keyId)
    else next.delete(keyId)
    onChange(next)
  }

  if (keys.isSuccess && list.length === 0) return null
  return (
    <fieldset className="grid gap-3 rounded-lg border border-slate-200 p-4" disabled={disabled} aria-describedby={`${id}-body`}>
      <legend className="px-1 text-sm font-medium text-slate-900">{PROFILE_MESSAGES.removeKeysTitle}</legend>
      <p id={`${id}-body`} className="text-sm text-slate-600">
        {PROFILE_MESSAGES.removeKeysBody}
      </p>
      <InlineLoadState query={keys} loadingLabel={PROFILE_MESSAGES.removeKeysLoading} errorFallback={PROFILE_MESSAGES.removeKeysLoadFailed}>
        <div className="flex items-center gap-3">
          <Checkbox
            id={`${id}-all`}
            checked={all}
            onCheckedChange={(checked) => onChange(new Set(checked === true ? list.map((key) => key.id) : []))}
          />
          <label htmlFor={`${id}-all`} className="text-sm font-medium text-slate-800">
            {PROFILE_MESSAGES.removeAllKeys}
          </label>
        </div>
        <ul aria-label="Security keys to remove" className="grid gap-2 border-t border-slate-200 pt-3">
          {list.map((key) => (
            <li key={key.id} className="flex items-start gap-3">
              <Checkbox id={`${id}-${key.id}`} className="mt-0.5" checked={selected.has(key.id)} onCheckedChange={(checked) => toggle(key.id, checked === true)} />
              <label htmlFor={`${id}-${key.id}`} className="min-w-0 text-sm text-slate-700">
                <span className="break-words font-medium text-slate-900">Remove {key.name}</span>{' '}
                <span className="text-slate-600">(added {added(key.createdAt)})</span>
              </label>
            </li>
          ))}
        </ul>
        {all && twoFactorEnabled && (
          <p role="status" className="rounded-md bg-amber-50 p-2 text-sm text-amber-900">
            {PROFILE_MESSAGES.removeAllKeysTurnsOffTwoFactor}
          </p>
        )}
      </InlineLoadState>
    </fieldset>
  )
}
