import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation } from '@tanstack/react-query'
import { Clock, IdCard } from 'lucide-react'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { PAGE_DOCUMENT_TYPES } from '../../../contract/identity'
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

const schema = documentFieldsSchema(PAGE_DOCUMENT_TYPES)
type Output = z.output<typeof schema>

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

export function IdentityUploadCard({ link, rejected, onUploaded }: { link: BeneficiaryLink; rejected: boolean; onUploaded: () => void }) {
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
      {rejected && (
        <Alert variant="warning">
          <AlertDescription>Your previous document was not accepted. Please upload a clear, current copy.</AlertDescription>
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <DocumentTypeSelect types={PAGE_DOCUMENT_TYPES} error={errors.documentType?.message} disabled={pending} {...form.register('documentType')} />
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
