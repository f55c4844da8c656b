import { Eye, EyeOff } from 'lucide-react'
import { useId, useState, type ComponentProps, type ReactNode } from 'react'
import { cn } from '@/lib/utils'
import { Input } from './input'
import { Label } from './label'

interface FieldProps {
  label: ReactNode
  error?: string
  hint?: ReactNode
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode
  className?: string
}

/** A label, a control and its error message, wired for screen readers. */
export function Field({ label, error, hint, children, className }: FieldProps) {
  const id = useId()
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined
  return (
    <div className={cn('grid gap-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, describedBy, invalid: !!error })}
      {hint && (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  )
}

/** A password input with a show/hide toggle. */
export function PasswordInput({ className, ...props }: Omit<ComponentProps<'input'>, 'type'>) {
  const [visible, setVisible] = useState(false)
  return (
    <div className="relative">
      <Input type={visible ? 'text' : 'password'} className={cn('pr-10', className)} {...props} />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-slate-500 hover:text-slate-800"
        aria-label={visible ? 'Hide password' : 'Show password'}
        aria-pressed={visible}
      >
        {visible ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
      </button>
    </div>
  )
}

/** The look of a native select, to match `Input`. */
export const selectClass =
  'h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-base text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 disabled:opacity-50 aria-invalid:border-red-500 sm:text-sm'

/** A labelled text input with its error, for react-hook-form's `register(...)` props. */
export function InputField({
  label,
  error,
  hint,
  className,
  ...inputProps
}: Omit<ComponentProps<'input'>, 'id'> & { label: ReactNode; error?: string; hint?: ReactNode }) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {({ id, describedBy, invalid }) => <Input id={id} aria-describedby={describedBy} aria-invalid={invalid} {...inputProps} />}
    </Field>
  )
}

/** A labelled password input (with its show/hide toggle) and its error, for react-hook-form's `register(...)` props. */
export function PasswordField({
  label,
  error,
  hint,
  className,
  ...inputProps
}: Omit<ComponentProps<'input'>, 'id' | 'type'> & { label: ReactNode; error?: string; hint?: ReactNode }) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {({ id, describedBy, invalid }) => <PasswordInput id={id} aria-describedby={describedBy} aria-invalid={invalid} {...inputProps} />}
    </Field>
  )
}

/** A whole-number input: register it with `{ valueAsNumber: true }`. */
export function NumberField(props: Omit<ComponentProps<typeof InputField>, 'type' | 'inputMode' | 'step'>) {
  return <InputField type="number" inputMode="numeric" step={1} {...props} />
}

/**
 * A labelled native select with its error, for react-hook-form's `register(...)` props or a
 * controlled value; the options are its children.
 */
export function SelectField({
  label,
  error,
  hint,
  className,
  selectClassName,
  ...selectProps
}: Omit<ComponentProps<'select'>, 'id'> & { label: ReactNode; error?: string; hint?: ReactNode; selectClassName?: string }) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {({ id, describedBy, invalid }) => (
        <select id={id} aria-describedby={describedBy} aria-invalid={invalid} className={cn(selectClass, selectClassName)} {...selectProps} />
      )}
    </Field>
  )
}
