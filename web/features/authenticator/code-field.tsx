import type { ComponentProps, ReactNode } from 'react'
import { Field } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'

/**
 * A labelled field for a code (the app's six digits, or a recovery code): large, spaced digits
 * that are easy to check against the phone, its error read out when it appears.
 */
export function CodeField({ label, error, ...inputProps }: Omit<ComponentProps<'input'>, 'id' | 'className'> & { label: ReactNode; error?: string }) {
  return (
    <Field label={label} error={error}>
      {({ id, describedBy, invalid }) => (
        <Input
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          className="h-12 font-mono text-lg tracking-[0.2em] sm:text-lg"
          {...inputProps}
        />
      )}
    </Field>
  )
}
