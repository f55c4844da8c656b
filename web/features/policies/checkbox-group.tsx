import { Link } from '@tanstack/react-router'
import { useId, type ReactNode } from 'react'
import { Checkbox } from '@/components/ui/checkbox'
import { InlineLoadState } from '@/components/ui/inline-load-state'
import { Label } from '@/components/ui/label'
import type { useBeneficiaries } from '@/features/circle/api'
import { cn } from '@/lib/utils'

export interface CheckboxOption<T extends string> {
  value: T
  label: string
  hint?: string
}

/**
 * A set of checkboxes for one array field: a fieldset with its legend, an optional hint, and the
 * field's error announced and tied to the group.
 */
export function CheckboxGroup<T extends string>({
  legend,
  hint,
  options,
  value,
  onChange,
  error,
  columns = 2,
  disabled,
  children,
}: {
  legend: string
  hint?: ReactNode
  options: readonly CheckboxOption<T>[]
  value: readonly T[]
  onChange: (next: T[]) => void
  error?: string
  columns?: 1 | 2 | 4
  disabled?: boolean
  /** Shown instead of the options (loading, empty or failed lists). */
  children?: ReactNode
}) {
  const id = useId()
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined
  return (
    <fieldset className="grid min-w-0 gap-2" aria-describedby={describedBy}>
      <legend className="mb-2 text-sm font-medium text-slate-800">{legend}</legend>
      {hint && (
        <p id={`${id}-hint`} className="-mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {children ?? (
        <ul
          className={cn(
            'grid gap-1 rounded-lg border border-slate-200 p-1',
            columns === 2 && 'sm:grid-cols-2',
            columns === 4 && 'grid-cols-2 sm:grid-cols-4',
          )}
        >
          {options.map((option) => {
            const checkboxId = `${id}-${option.value}`
            const checked = value.includes(option.value)
            return (
              <li key={option.value} className="flex items-start gap-3 rounded-md px-2 py-1.5 hover:bg-slate-50">
                <Checkbox
                  id={checkboxId}
                  checked={checked}
                  disabled={disabled}
                  aria-invalid={!!error}
                  className="mt-0.5"
                  onCheckedChange={(next) =>
                    onChange(next === true ? [...value, option.value] : value.filter((v) => v !== option.value))
                  }
                />
                <Label htmlFor={checkboxId} className="grid min-w-0 cursor-pointer font-normal">
                  <span className="break-words font-medium text-slate-900">{option.label}</span>
                  {option.hint && <span className="break-words text-xs text-slate-500">{option.hint}</span>}
                </Label>
              </li>
            )
          })}
        </ul>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
    </fieldset>
  )
}

/**
 * The owner's beneficiaries to choose from (a policy's, a scheduled release's): while the list
 * loads, fails or is empty, that state instead, the empty one with `emptyText` and a link to add one.
 */
export function BeneficiaryCheckboxes({
  beneficiaries,
  emptyText,
  value,
  onChange,
  error,
  disabled,
}: {
  beneficiaries: ReturnType<typeof useBeneficiaries>
  emptyText: string
  value: readonly string[]
  onChange: (next: string[]) => void
  error?: string
  disabled?: boolean
}) {
  const list = beneficiaries.data ?? []
  return (
    <CheckboxGroup
      legend="Beneficiaries"
      options={list.map((b) => ({ value: b.id, label: b.fullName, hint: b.relationship }))}
      value={value}
      onChange={onChange}
      error={error}
      disabled={disabled}
    >
      {/* The group shows its checkboxes when it has no children of its own. */}
      {beneficiaries.isPending || beneficiaries.isError || list.length === 0 ? (
        <InlineLoadState query={beneficiaries} loadingLabel="Loading beneficiaries" errorFallback="Your beneficiaries could not be loaded.">
          <p className="rounded-lg border border-dashed border-slate-300 p-3 text-sm text-slate-600">
            {emptyText}{' '}
            <Link to="/beneficiaries" className="font-medium text-brand-700 underline-offset-4 hover:underline">
              Add a beneficiary
            </Link>
          </p>
        </InlineLoadState>
      ) : undefined}
    </CheckboxGroup>
  )
}
