import { useRef, useState, type ComponentProps, type ReactNode } from 'react'
import type { FieldErrors, UseFormRegisterReturn } from 'react-hook-form'
import { DOCUMENT_TYPE_LABELS, IDENTITY_MESSAGES, type DocumentType } from '../../../contract/identity'
import { Field, InputField, SelectField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { toast } from '@/lib/toast-store'
import { cn } from '@/lib/utils'
import { FIELD_COPY } from './copy'
import { checkIdFile, ID_FILE_ACCEPT } from './file-rules'
import type { DocumentFieldsInput } from './upload-form'

// Pieces the identity upload forms share (the owner's two dialogs and the beneficiary portal's
// card): the document type list, the document's details, and checked file pickers.

/** A native select of document types, with an empty first choice so that a type must be picked. */
export function DocumentTypeSelect({
  types,
  error,
  ...props
}: Omit<ComponentProps<'select'>, 'id' | 'children' | 'className'> & { types: readonly DocumentType[]; error?: string }) {
  return (
    <SelectField label={FIELD_COPY.documentType} error={error} {...props}>
      <option value="">{FIELD_COPY.documentTypePlaceholder}</option>
      {types.map((type) => (
        <option key={type} value={type}>
          {DOCUMENT_TYPE_LABELS[type]}
        </option>
      ))}
    </SelectField>
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

type DetailName = 'documentNumber' | 'expirationDate' | 'issuingAuthority'

/** The document's optional details: number and expiry side by side, then the issuing authority. */
export function DocumentDetailsFields({
  register,
  errors,
  disabled,
}: {
  register: (name: DetailName) => UseFormRegisterReturn
  errors: FieldErrors<DocumentFieldsInput>
  disabled: boolean
}) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          label={optionalLabel(FIELD_COPY.documentNumber)}
          error={errors.documentNumber?.message}
          autoComplete="off"
          disabled={disabled}
          {...register('documentNumber')}
        />
        <InputField
          label={optionalLabel(FIELD_COPY.expirationDate)}
          error={errors.expirationDate?.message}
          type="date"
          disabled={disabled}
          {...register('expirationDate')}
        />
      </div>
      <InputField
        label={optionalLabel(FIELD_COPY.issuingAuthority)}
        error={errors.issuingAuthority?.message}
        placeholder={FIELD_COPY.issuingAuthorityPlaceholder}
        autoComplete="off"
        disabled={disabled}
        {...register('issuingAuthority')}
      />
    </>
  )
}

/** The chosen front (required) and back (optional) images of a document, and whether the form found the front missing. */
export function useIdImages() {
  const [front, setFront] = useState<File | null>(null)
  const [back, setBack] = useState<File | null>(null)
  const [frontMissing, setFrontMissing] = useState(false)
  return {
    front,
    back,
    frontMissing: frontMissing && !front,
    markFrontMissing: () => setFrontMissing(true),
    setFront: (file: File | null) => {
      setFront(file)
      if (file) setFrontMissing(false)
    },
    setBack,
  }
}

/** The front and back pickers, for the images `useIdImages` holds. */
export function IdImageFields({ images, disabled }: { images: ReturnType<typeof useIdImages>; disabled: boolean }) {
  return (
    <>
      <IdFileField
        label={FIELD_COPY.front}
        hint={FIELD_COPY.frontHint}
        error={images.frontMissing ? IDENTITY_MESSAGES.frontRequired : undefined}
        disabled={disabled}
        onFile={images.setFront}
      />
      <IdFileField label={optionalLabel(FIELD_COPY.back)} hint={FIELD_COPY.backHint} disabled={disabled} onFile={images.setBack} />
    </>
  )
}
