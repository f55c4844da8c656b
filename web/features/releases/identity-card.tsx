import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation } from '@tanstack/react-query'
import { Clock, IdCard } from 'lucide-react'
import { useMemo } from 'react'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { acceptedDocumentsText, PAGE_DOCUMENT_TYPES, type DocumentType } from '../../../contract/identity'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { IconHeading } from '@/components/ui/icon-heading'
import { DocumentDetailsFields, DocumentTypeSelect, IdImageFields, useIdImages } from '@/features/identity/form-parts'
import { documentFieldsSchema, EMPTY_DOCUMENT_FIELDS, type DocumentFieldsInput } from '@/features/identity/upload-form'
import { ApiRequestError } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { uploadIdentityDocument, type BeneficiaryLink } from './portal'

// Identity upload from the beneficiary portal (seeds 001 §2 'Access page', §5 'Identity upload
// (external access page)', §8). The file rules are the identity feature's: JPEG/PNG/PDF by their
// first bytes, at most 10 MB, refused with the spec's toasts as soon as they are chosen.

export const IDENTITY_UPLOAD_FAILED = 'Failed to upload identity document. Please try again.'

type Output = z.output<ReturnType<typeof documentFieldsSchema>>

/**
 * The types offered (only those the owner's policies accept; the server refuses the others) and
 * what the heir is told of a rejected document: the approver's note and what to send instead.
 */
export function identityUploadChoices(accepted: DocumentType[] | null, rejected: boolean, reason: string | null) {
  const narrowed = accepted ? PAGE_DOCUMENT_TYPES.filter((t) => accepted.includes(t)) : []
  const types = (narrowed.length ? narrowed : [...PAGE_DOCUMENT_TYPES]) as [DocumentType, ...DocumentType[]]
  const acceptedText = accepted ? `Accepted: ${acceptedDocumentsText(types)}.` : null
  const rejection = rejected
    ? [
        'Your previous document was not accepted.',
        reason ? `The approver's note: "${reason}"` : null,
        accepted ? `Please upload a clear, current copy of one of these: ${acceptedDocumentsText(types)}.` : 'Please upload a clear, current copy.',
      ]
        .filter(Boolean)
        .join(' ')
    : null
  return { types, acceptedText, rejection }
}

/** 'Identity Verification Pending' (seeds 001 §2). */
export function IdentityPendingCard() {
  return (
    <Card className="p-5 sm:p-6">
      <IconHeading icon={Clock} tone="warning" size="card" title="Identity Verification Pending">
        Your document was received. A designated approver reviews it, typically within 24-48 hours. Assets that wait on your identity
        become available once it is verified: come back through the link in your e-mail.
      </IconHeading>
    </Card>
  )
}

export function IdentityUploadCard({
  link,
  rejected,
  accepted,
  rejectionReason,
  onUploaded,
}: {
  link: BeneficiaryLink
  rejected: boolean
  accepted: DocumentType[] | null
  rejectionReason: string | null
  onUploaded: () => void
}) {
  const choices = identityUploadChoices(accepted, rejected, rejectionReason)
  const schema = useMemo(() => documentFieldsSchema(choices.types), [choices.types.join()])
  const upload = useMutation({ mutationFn: (values: Parameters<typeof uploadIdentityDocument>[1]) => uploadIdentityDocument(link, values) })
  const form = useForm<DocumentFieldsInput, unknown, Output>({ resolver: zodResolver(schema), defaultValues: EMPTY_DOCUMENT_FIELDS })
  const { errors } = form.formState
  const images = useIdImages()
  const pending = upload.isPending

  const onSubmit = form.handleSubmit(
    (values) => {
      if (!images.front) return images.markFrontMissing()
      upload.mutate(
        { ...values, frontImage: images.front, backImage: images.back },
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
    () => !images.front && images.markFrontMissing(),
  )

  return (
    <Card className="grid gap-4 p-5 sm:p-6">
      <IconHeading icon={IdCard} size="card" title="Verify your identity">
        Some of what was left to you is released only once your identity is verified. Upload a government-issued photo ID; a designated
        approver reviews it, typically within 24-48 hours.
      </IconHeading>
      {choices.rejection && (
        <Alert variant="warning" data-testid="identity-rejection">
          <AlertDescription>{choices.rejection}</AlertDescription>
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <DocumentTypeSelect types={choices.types} error={errors.documentType?.message} disabled={pending} {...form.register('documentType')} />
        {choices.acceptedText && <p className="-mt-2 text-sm text-slate-600">{choices.acceptedText}</p>}
        <DocumentDetailsFields register={form.register} errors={errors} disabled={pending} />
        <div className="grid gap-4 sm:grid-cols-2">
          <IdImageFields images={images} disabled={pending} />
        </div>
        <Button type="submit" disabled={pending} className="sm:justify-self-end">
          {pending ? 'Uploading...' : 'Upload Document'}
        </Button>
      </form>
    </Card>
  )
}
