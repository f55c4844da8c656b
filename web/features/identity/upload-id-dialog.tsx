import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import type { Beneficiary } from '../../../contract/circle'
import { BENEFICIARY_DIALOG_DOCUMENT_TYPES, IDENTITY_MESSAGES } from '../../../contract/identity'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { toastFailure, toastSuccess } from '@/features/circle/notify'
import { toast } from '@/lib/toast-store'
import { useUploadBeneficiaryDocument } from './api'
import { FIELD_COPY, IDENTITY_TOASTS } from './copy'
import { DocumentDetailsFields, DocumentTypeSelect, IdFileField } from './form-parts'
import { documentFieldsSchema, EMPTY_DOCUMENT_FIELDS, type DocumentFieldsInput } from './upload-form'

const schema = documentFieldsSchema(BENEFICIARY_DIALOG_DOCUMENT_TYPES)
type Output = z.output<typeof schema>

/**
 * Upload ID Document, from a beneficiary's menu (seeds 001 §2): one file of the beneficiary's
 * government-issued ID, which goes to the owner's approvers for review.
 */
export function UploadIdDocumentDialog({
  beneficiary,
  onOpenChange,
}: {
  beneficiary: Beneficiary | null
  onOpenChange: (open: boolean) => void
}) {
  const upload = useUploadBeneficiaryDocument()
  return (
    <Dialog open={beneficiary !== null} onOpenChange={(open) => !upload.isPending && onOpenChange(open)}>
      <DialogContent>
        {beneficiary && (
          <UploadForm key={beneficiary.id} beneficiary={beneficiary} upload={upload} onDone={() => onOpenChange(false)} />
        )}
      </DialogContent>
    </Dialog>
  )
}

function UploadForm({
  beneficiary,
  upload,
  onDone,
}: {
  beneficiary: Beneficiary
  upload: ReturnType<typeof useUploadBeneficiaryDocument>
  onDone: () => void
}) {
  const form = useForm<DocumentFieldsInput, unknown, Output>({ resolver: zodResolver(schema), defaultValues: EMPTY_DOCUMENT_FIELDS })
  const { errors } = form.formState
  const [file, setFile] = useState<File | null>(null)
  const [fileMissing, setFileMissing] = useState(false)

  const missingInformation = () =>
    toast({ title: IDENTITY_MESSAGES.missingInformation, description: IDENTITY_TOASTS.missingDialog, variant: 'destructive' })

  const onSubmit = form.handleSubmit(
    (values) => {
      if (!file) {
        setFileMissing(true)
        missingInformation()
        return
      }
      upload.mutate(
        { beneficiaryId: beneficiary.id, file, ...values },
        {
          onSuccess: () => {
            toastSuccess(IDENTITY_TOASTS.uploaded, IDENTITY_TOASTS.uploadedText(beneficiary.fullName))
            onDone()
          },
          onError: (error) => toastFailure(IDENTITY_MESSAGES.uploadFailed, error),
        },
      )
    },
    () => {
      if (!file) setFileMissing(true)
      missingInformation()
    },
  )

  return (
    <>
      <DialogHeader>
        <DialogTitle>Upload ID Document</DialogTitle>
        <DialogDescription>
          A government-issued ID for {beneficiary.fullName}. Your approvers are e-mailed a private link to review it; once
          verified, policies that require identity verification can release items to {beneficiary.fullName}.
        </DialogDescription>
      </DialogHeader>
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <DocumentTypeSelect
          types={BENEFICIARY_DIALOG_DOCUMENT_TYPES}
          error={errors.documentType?.message}
          disabled={upload.isPending}
          {...form.register('documentType')}
        />
        <IdFileField
          label={FIELD_COPY.file}
          hint={FIELD_COPY.fileHint}
          error={fileMissing && !file ? FIELD_COPY.fileRequired : undefined}
          disabled={upload.isPending}
          onFile={(next) => {
            setFile(next)
            if (next) setFileMissing(false)
          }}
        />
        <DocumentDetailsFields register={form.register} errors={errors} disabled={upload.isPending} />
        <DialogFooter>
          <Button variant="outline" onClick={onDone} disabled={upload.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={upload.isPending}>
            {upload.isPending ? 'Uploading...' : 'Upload Document'}
          </Button>
        </DialogFooter>
      </form>
    </>
  )
}
