import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { DocumentType, IdentityDocument, IdentityReviewView } from '../../../contract/identity'
import type { Policy } from '../../../contract/policies'
import { apiJson } from '@/lib/api-client'
import { beneficiariesKey } from '@/features/circle/api'
import { apiBlob, apiForm } from './http'
import { LIVE } from '@/lib/query-client'

// Identity documents: the owner uploads and follows them; each approver reviews through the
// signed link e-mailed to them (seeds 001 §7, with the review made safe: who reviews comes from
// the link, never from the owner's session).

export type FileSide = 'front' | 'back'

export const documentsKey = (beneficiaryId: string) => ['/api/identity-documents/beneficiary', beneficiaryId] as const

export const documentsQuery = (beneficiaryId: string) =>
  queryOptions({
    queryKey: documentsKey(beneficiaryId),
    queryFn: () => apiJson<IdentityDocument[]>('GET', `/api/identity-documents/beneficiary/${encodeURIComponent(beneficiaryId)}`),
    // Approvers decide elsewhere: opening the page shows where things stand now.
    ...LIVE,
  })

export const policiesKey = ['/api/policies'] as const

export const policiesQuery = queryOptions({
  queryKey: policiesKey,
  queryFn: () => apiJson<Policy[]>('GET', '/api/policies'),
})

/** How to fetch one side of a document. Its Blob leaves memory as soon as nothing shows it. */
export interface FileQuery {
  queryKey: readonly unknown[]
  queryFn: () => Promise<Blob>
  gcTime: number
}

/** The owner's copy of a document's front or back. */
export const ownerFileQuery = (documentId: string, side: FileSide): FileQuery => ({
  queryKey: ['/api/identity-documents', documentId, 'file', side],
  queryFn: () => apiBlob(`/api/identity-documents/${encodeURIComponent(documentId)}/file/${side}`, { session: true }),
  gcTime: 0,
})

export interface DocumentFields {
  documentType: DocumentType
  documentNumber: string
  issuingAuthority: string
  expirationDate: string
}

function appendFields(form: FormData, fields: DocumentFields) {
  form.append('documentType', fields.documentType)
  form.append('documentNumber', fields.documentNumber)
  form.append('issuingAuthority', fields.issuingAuthority)
  form.append('expirationDate', fields.expirationDate)
}

function useInvalidateAfterUpload() {
  const queryClient = useQueryClient()
  return (beneficiaryId: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: beneficiariesKey, exact: true }),
      queryClient.invalidateQueries({ queryKey: documentsKey(beneficiaryId), exact: true }),
    ])
}

/** The beneficiaries page's dialog: one file, sent as `document`. */
export function useUploadBeneficiaryDocument() {
  const invalidate = useInvalidateAfterUpload()
  return useMutation({
    mutationFn: ({ beneficiaryId, file, ...fields }: DocumentFields & { beneficiaryId: string; file: File }) => {
      const form = new FormData()
      appendFields(form, fields)
      form.append('document', file)
      return apiForm<IdentityDocument>('POST', `/api/identity-verification/${encodeURIComponent(beneficiaryId)}`, form)
    },
    onSuccess: (_document, { beneficiaryId }) => invalidate(beneficiaryId),
  })
}

/** The identity page's dialog: a front image and, when there is one, a back. */
export function useUploadDocument() {
  const invalidate = useInvalidateAfterUpload()
  return useMutation({
    mutationFn: ({
      beneficiaryId,
      frontImage,
      backImage,
      ...fields
    }: DocumentFields & { beneficiaryId: string; frontImage: File; backImage?: File }) => {
      const form = new FormData()
      form.append('beneficiaryId', beneficiaryId)
      appendFields(form, fields)
      form.append('frontImage', frontImage)
      if (backImage) form.append('backImage', backImage)
      return apiForm<IdentityDocument>('POST', '/api/identity-documents', form)
    },
    onSuccess: (_document, { beneficiaryId }) => invalidate(beneficiaryId),
  })
}

// ---- The approver's review, through their own signed link (no account) ----

export const reviewViewKey = (token: string) => ['/api/identity-reviews', token] as const

export const reviewViewQuery = (token: string) =>
  queryOptions({
    queryKey: reviewViewKey(token),
    queryFn: () => apiJson<IdentityReviewView>('GET', `/api/identity-reviews?token=${encodeURIComponent(token)}`),
  })

/** The approver's view of a document's front or back, through their link. */
export const reviewFileQuery = (token: string, side: FileSide): FileQuery => ({
  queryKey: ['/api/identity-reviews/file', side, token],
  queryFn: () => apiBlob(`/api/identity-reviews/file/${side}?token=${encodeURIComponent(token)}`, { session: false }),
  gcTime: 0,
})

export interface ReviewDecision {
  token: string
  status: 'approved' | 'rejected'
  verificationNotes: string
  approverSignature?: string
}

export function useSubmitReview() {
  return useMutation({
    mutationFn: (body: ReviewDecision) =>
      apiJson<{ message: string; documentStatus: IdentityDocument['status'] }>('POST', '/api/identity-verifications', body),
  })
}
