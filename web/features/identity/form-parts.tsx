import { useRef, useState, type ComponentProps, type ReactNode } from 'react'
import { DOCUMENT_TYPE_LABELS, type DocumentType } from '../../../contract/identity'
import { Field } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { toast } from '@/lib/toast-store'
import { cn } from '@/lib/utils'
import { FIELD_COPY } from './copy'
import { checkIdFile, ID_FILE_ACCEPT } from './file-rules'

// Pieces both upload dialogs share: the document type list and a checked file picker.

export const selectClass =
  'h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-base text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 disabled:opacity-50 aria-invalid:border-red-500 sm:text-sm'

/** A native select of document types, with an empty first choice so that a type must be picked. */
export function DocumentTypeSelect({
  types,
  error,
  ...props
}: Omit<ComponentProps<'select'>, 'id' | 'children'> & { types: readonly DocumentType[]; error?: string }) {
  return (
    <Field label={FIELD_COPY.documentType} error={error}>
      {({ id, describedBy, invalid }) => (
        <select id={id} aria-describedby={describedBy} aria-invalid={invalid} className={selectClass} {...props}>
          <option value="">{FIELD_COPY.documentTypePlaceholder}</option>
          {types.map((type) => (
            <option key={type} value={type}>
              {DOCUMENT_TYPE_LABELS[type]}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}

/**
 * A file picker for an identity document. A file of the wrong type or size is refused as soon as
 * it is chosen, with the spec's toast, and the picker is cleared; `onFile` only ever receives a
 * file that passed.
 */
export function IdFileField({
  label,
  hint,
  error,
  onFile,
  disabled,
}: {
  label: ReactNode
  hint: string
  /** A problem the form found (e.g. the file is required). */
  error?: string
  onFile: (file: File | null) => void
  disabled?: boolean
}) {
  const [problem, setProblem] = useState<string | null>(null)
  const input = useRef<HTMLInputElement>(null)
  return (
    <Field label={label} hint={hint} error={problem ?? error}>
      {({ id, describedBy, invalid }) => (
        <Input
          ref={input}
          id={id}
          type="file"
          accept={ID_FILE_ACCEPT}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          disabled={disabled}
          className={cn(
            'h-auto cursor-pointer px-2 py-1.5 file:mr-3 file:cursor-pointer file:rounded file:border-0 file:bg-brand-50 file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-brand-800 hover:file:bg-brand-100',
          )}
          onChange={async (event) => {
            const file = event.currentTarget.files?.[0] ?? null
            if (!file) {
              setProblem(null)
              onFile(null)
              return
            }
            const refused = await checkIdFile(file)
            if (refused) {
              toast({ title: refused.title, description: refused.description, variant: 'destructive' })
              setProblem(refused.description)
              if (input.current) input.current.value = ''
              onFile(null)
              return
            }
            setProblem(null)
            onFile(file)
          }}
        />
      )}
    </Field>
  )
}

/** A field label marked "(optional)", for number, issuing authority, expiry and the back image. */
export function optionalLabel(label: string) {
  return (
    <>
      {label} <span className="font-normal text-slate-500">({FIELD_COPY.optional.toLowerCase()})</span>
    </>
  )
}
