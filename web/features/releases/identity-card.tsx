import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation } from '@tanstack/react-query'
import { Clock, IdCard } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { IDENTITY_MESSAGES, PAGE_DOCUMENT_TYPES } from '../../../contract/identity'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { InputField } from '@/components/ui/form-field'
import { FIELD_COPY } from '@/features/identity/copy'
import { DocumentTypeSelect, IdFileField, optionalLabel } from '@/features/identity/form-parts'
import { documentFieldsSchema, EMPTY_DOCUMENT_FIELDS, type DocumentFieldsInput } from '@/features/identity/upload-form'
import { ApiRequestError } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { uploadIdentityDocument, type BeneficiaryLink } from './portal'

// Identity upload from the beneficiary portal (seeds 001 §2 'Access page', §5 'Identity upload
// (external access page)', §8). The file rules are the identity feature's: JPEG/PNG/PDF by their
// first bytes, at most 10 MB, refused with the spec's toasts as soon as they are chosen.

export const IDENTITY_UPLOAD_FAILED = 'Failed to upload identity document. Please try again.'

const schema = documentFieldsSchema(PAGE_DOCUMENT_TYPES)
type Output = z.output<typeof schema>

/** 'Identity Verification Pending' (seeds 001 §2). */
export function IdentityPendingCard() {
  return (
    <Card className="flex items-start gap-3 p-5 sm:p-6">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-amber-100 text-amber-700">
        <Clock className="size-5" aria-hidden />
      </span>
      <div className="grid gap-1">
        <h2 className="font-semibold text-slate-900">Identity Verification Pending</h2>
        <p className="text-sm text-slate-600">
          Your document was received. A designated approver reviews it, typically within 24-48 hours. Assets that wait on your identity
          become available once it is verified: come back through the link in your e-mail.
        </p>
      </div>
    </Card>
  )
}

export function IdentityUploadCard({ link, rejected, onUploaded }: { link: BeneficiaryLink; rejected: boolean; onUploaded: () => void }) {
  const upload = useMutation({ mutationFn: (values: Parameters<typeof uploadIdentityDocument>[1]) => uploadIdentityDocument(link, values) })
  const form = useForm<DocumentFieldsInput, unknown, Output>({ resolver: zodResolver(schema), defaultValues: EMPTY_DOCUMENT_FIELDS })
  const { errors } = form.formState
  const [front, setFront] = useState<File | null>(null)
  const [back, setBack] = useState<File | null>(null)
  const [frontMissing, setFrontMissing] = useState(false)
  const pending = upload.isPending

  const onSubmit = form.handleSubmit(
    (values) => {
      if (!front) {
        setFrontMissing(true)
        return
      }
      upload.mutate(
        { ...values, frontImage: front, backImage: back },
        {
          onSuccess: onUploaded,
          onError: (error) =>
            toast({
              title: IDENTITY_UPLOAD_FAILED,
              // A refused field is worth naming; anything else is the spec's sentence alone.
              description: error instanceof ApiRequestError && error.status === 400 ? error.detail : undefined,
              variant: 'destructive',
            }),
        },
      )
    },
    () => !front && setFrontMissing(true),
  )

  return (
    <Card className="grid gap-4 p-5 sm:p-6">
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-100 text-brand-700">
          <IdCard className="size-5" aria-hidden />
        </span>
        <div className="grid gap-1">
          <h2 className="font-semibold text-slate-900">Verify your identity</h2>
          <p className="text-sm text-slate-600">
            Some of what was left to you is released only once your identity is verified. Upload a government-issued photo ID; a
            designated approver reviews it, typically within 24-48 hours.
          </p>
        </div>
      </div>
      {rejected && (
        <Alert variant="warning">
          <AlertDescription>Your previous document was not accepted. Please upload a clear, current copy.</AlertDescription>
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <DocumentTypeSelect types={PAGE_DOCUMENT_TYPES} error={errors.documentType?.message} disabled={pending} {...form.register('documentType')} />
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField
            label={optionalLabel(FIELD_COPY.documentNumber)}
            error={errors.documentNumber?.message}
            autoComplete="off"
            disabled={pending}
            {...form.register('documentNumber')}
          />
          <InputField
            label={optionalLabel(FIELD_COPY.expirationDate)}
            error={errors.expirationDate?.message}
            type="date"
            disabled={pending}
            {...form.register('expirationDate')}
          />
        </div>
        <InputField
          label={optionalLabel(FIELD_COPY.issuingAuthority)}
          error={errors.issuingAuthority?.message}
          placeholder={FIELD_COPY.issuingAuthorityPlaceholder}
          autoComplete="off"
          disabled={pending}
          {...form.register('issuingAuthority')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <IdFileField
            label={FIELD_COPY.front}
            hint={FIELD_COPY.frontHint}
            error={frontMissing && !front ? IDENTITY_MESSAGES.frontRequired : undefined}
            disabled={pending}
            onFile={(file) => {
              setFront(file)
              if (file) setFrontMissing(false)
            }}
          />
          <IdFileField label={optionalLabel(FIELD_COPY.back)} hint={FIELD_COPY.backHint} disabled={pending} onFile={setBack} />
        </div>
        <Button type="submit" disabled={pending} className="sm:justify-self-end">
          {pending ? 'Uploading...' : 'Upload Document'}
        </Button>
      </form>
    </Card>
  )
}
