import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { z } from 'zod'
import type { Beneficiary } from '../../../contract/circle'
import { IDENTITY_MESSAGES, PAGE_DOCUMENT_TYPES } from '../../../contract/identity'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { SelectField } from '@/components/ui/form-field'
import { toastFailure, toastSuccess } from '@/features/circle/notify'
import { toast } from '@/lib/toast-store'
import { useUploadDocument } from './api'
import { FIELD_COPY, IDENTITY_TOASTS } from './copy'
import { DocumentDetailsFields, DocumentTypeSelect, IdImageFields, useIdImages } from './form-parts'
import { documentFieldsSchema, EMPTY_DOCUMENT_FIELDS, type DocumentFieldsInput } from './upload-form'

const schema = documentFieldsSchema(PAGE_DOCUMENT_TYPES).extend({
  beneficiaryId: z.string().min(1, FIELD_COPY.beneficiaryRequired),
})
type Input = DocumentFieldsInput & { beneficiaryId: string }
type Output = z.output<typeof schema>

/**
 * The identity page's upload (seeds 001 §5 'Identity upload (page)'): beneficiary, document type,
 * details, a front image (required) and a back image (optional).
 */
export function PageUploadDialog({
  open,
  onOpenChange,
  beneficiaries,
  beneficiaryId,
  onUploaded,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  beneficiaries: Beneficiary[]
  /** The beneficiary chosen on the page, preselected. */
  beneficiaryId: string | undefined
  onUploaded: (beneficiaryId: string) => void
}) {
  const upload = useUploadDocument()
  return (
    <Dialog open={open} onOpenChange={(next) => !upload.isPending && onOpenChange(next)}>
      <DialogContent>
        {open && (
          <UploadForm
            beneficiaries={beneficiaries}
            beneficiaryId={beneficiaryId}
            upload={upload}
            onDone={(uploadedFor) => {
              if (uploadedFor) onUploaded(uploadedFor)
              onOpenChange(false)
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  )
}

function UploadForm({
  beneficiaries,
  beneficiaryId,
  upload,
  onDone,
}: {
  beneficiaries: Beneficiary[]
  beneficiaryId: string | undefined
  upload: ReturnType<typeof useUploadDocument>
  onDone: (uploadedFor?: string) => void
}) {
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues: { ...EMPTY_DOCUMENT_FIELDS, beneficiaryId: beneficiaryId ?? '' },
  })
  const { errors } = form.formState
  const images = useIdImages()
  const busy = upload.isPending

  const frontRequired = () => {
    images.markFrontMissing()
    toast({ title: IDENTITY_MESSAGES.frontRequired, description: FIELD_COPY.frontHint, variant: 'destructive' })
  }

  const onSubmit = form.handleSubmit(
    (values) => {
      if (!images.front) return frontRequired()
      const beneficiary = beneficiaries.find((b) => b.id === values.beneficiaryId)
      upload.mutate(
        { ...values, frontImage: images.front, backImage: images.back ?? undefined },
        {
          onSuccess: () => {
            toastSuccess(IDENTITY_TOASTS.uploaded, beneficiary ? IDENTITY_TOASTS.uploadedText(beneficiary.fullName) : undefined)
            onDone(values.beneficiaryId)
          },
          onError: (error) => toastFailure(IDENTITY_MESSAGES.uploadFailed, error),
        },
      )
    },
    () => {
      if (!images.front) images.markFrontMissing()
      toast({ title: IDENTITY_MESSAGES.missingInformation, description: IDENTITY_TOASTS.missingPage, variant: 'destructive' })
    },
  )

  return (
    <>
      <DialogHeader>
        <DialogTitle>Upload Identity Document</DialogTitle>
        <DialogDescription>
          Your approvers are e-mailed a private link to review it. Only you and they can see the document.
        </DialogDescription>
      </DialogHeader>
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <SelectField label={FIELD_COPY.beneficiary} error={errors.beneficiaryId?.message} disabled={busy} {...form.register('beneficiaryId')}>
          <option value="">{FIELD_COPY.beneficiaryPlaceholder}</option>
          {beneficiaries.map((b) => (
            <option key={b.id} value={b.id}>
              {b.fullName}
            </option>
          ))}
        </SelectField>
        <DocumentTypeSelect types={PAGE_DOCUMENT_TYPES} error={errors.documentType?.message} disabled={busy} {...form.register('documentType')} />
        <DocumentDetailsFields register={form.register} errors={errors} disabled={busy} />
        <IdImageFields images={images} disabled={busy} />
        <DialogFooter>
          <Button variant="outline" onClick={() => onDone()} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Uploading...' : 'Upload Document'}
          </Button>
        </DialogFooter>
      </form>
    </>
  )
}
