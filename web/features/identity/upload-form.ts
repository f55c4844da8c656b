import { z } from 'zod'
import type { DocumentType } from '../../../contract/identity'
import { FIELD_COPY } from './copy'

// The text fields of both upload forms. The server accepts number, issuing authority and expiry
// empty (seeds 001 §5 requires only the type and the file), with the same limits as here.

export function documentFieldsSchema<T extends readonly [DocumentType, ...DocumentType[]]>(types: T) {
  return z.object({
    // The select starts empty (''): a string in, one of the types out.
    documentType: z.string().pipe(z.enum(types, { error: FIELD_COPY.documentTypeRequired })),
    documentNumber: z.string().trim().max(64, 'Document number must be at most 64 characters'),
    issuingAuthority: z.string().trim().max(120, 'Issuing authority must be at most 120 characters'),
    expirationDate: z.string().regex(/^(\d{4}-\d{2}-\d{2})?$/, 'Enter the date as YYYY-MM-DD'),
  })
}

export interface DocumentFieldsInput {
  documentType: string
  documentNumber: string
  issuingAuthority: string
  expirationDate: string
}

export const EMPTY_DOCUMENT_FIELDS: DocumentFieldsInput = {
  documentType: '',
  documentNumber: '',
  issuingAuthority: '',
  expirationDate: '',
}
