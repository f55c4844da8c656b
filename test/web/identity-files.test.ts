import { describe, expect, it } from 'vitest'
import { BENEFICIARY_DIALOG_DOCUMENT_TYPES, ID_DOCUMENT_MAX_BYTES, IDENTITY_MESSAGES, PAGE_DOCUMENT_TYPES } from '../../contract/identity'
import { checkIdFile, formatFileSize } from '@/features/identity/file-rules'
import { documentFieldsSchema, EMPTY_DOCUMENT_FIELDS } from '@/features/identity/upload-form'

// What an identity document upload may be (seeds 001 §5, §9), checked in the browser before the
// upload: the file's real type from its first bytes, at most 10 MB, and the form's text fields.

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37]

function file(head: number[], size: number, name: string, type = ''): File {
  return new File([new Uint8Array(head), new Uint8Array(size - head.length)], name, { type })
}

describe('an identity document file', () => {
  it('a text file renamed passport.png is refused for its type, whatever its name and claimed type', async () => {
    const text = file([...new TextEncoder().encode('hello wo')], 100, 'passport.png', 'image/png')
    expect(await checkIdFile(text)).toEqual({ title: IDENTITY_MESSAGES.invalidFileTypeTitle, description: IDENTITY_MESSAGES.invalidFileType })
  })

  it('a real PNG or PDF is accepted', async () => {
    expect(await checkIdFile(file(PNG, 5000, 'scan.png'))).toBeNull()
    expect(await checkIdFile(file(PDF, 5000, 'scan.pdf'))).toBeNull()
  })

  it('a file of exactly 10 MB is accepted; one byte more is refused as too large', async () => {
    expect(await checkIdFile(file(PDF, ID_DOCUMENT_MAX_BYTES, 'scan.pdf'))).toBeNull()
    expect(await checkIdFile(file(PDF, ID_DOCUMENT_MAX_BYTES + 1, 'scan.pdf'))).toEqual({
      title: IDENTITY_MESSAGES.fileTooLargeTitle,
      description: IDENTITY_MESSAGES.fileTooLarge,
    })
  })

  it('its size is shown in bytes below 1 KB, in KB below 1 MB, in MB above', () => {
    expect(formatFileSize(1023)).toBe('1023 bytes')
    expect(formatFileSize(1024)).toBe('1 KB')
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1024 KB')
    expect(formatFileSize(1024 * 1024)).toBe('1.0 MB')
    expect(formatFileSize(2.5 * 1024 * 1024)).toBe('2.5 MB')
  })
})

describe('an identity document form\'s text fields', () => {
  const page = documentFieldsSchema(PAGE_DOCUMENT_TYPES)
  const dialog = documentFieldsSchema(BENEFICIARY_DIALOG_DOCUMENT_TYPES)
  const valid = { ...EMPTY_DOCUMENT_FIELDS, documentType: 'passport' }

  it('the document type must be chosen, and be one the form offers', () => {
    expect(page.safeParse(EMPTY_DOCUMENT_FIELDS).success).toBe(false)
    expect(page.safeParse(valid).success).toBe(true)
    expect(page.safeParse({ ...valid, documentType: 'birth_certificate' }).success).toBe(false)
    expect(dialog.safeParse({ ...valid, documentType: 'birth_certificate' }).success).toBe(true)
  })

  it('number, issuing authority and expiry may be left empty', () => {
    expect(page.parse(valid)).toEqual(valid)
  })

  it('the document number is at most 64 characters and the issuing authority at most 120', () => {
    expect(page.safeParse({ ...valid, documentNumber: 'x'.repeat(64) }).success).toBe(true)
    expect(page.safeParse({ ...valid, documentNumber: 'x'.repeat(65) }).success).toBe(false)
    expect(page.safeParse({ ...valid, issuingAuthority: 'x'.repeat(120) }).success).toBe(true)
    expect(page.safeParse({ ...valid, issuingAuthority: 'x'.repeat(121) }).success).toBe(false)
  })

  it('the expiry date is YYYY-MM-DD or nothing', () => {
    expect(page.safeParse({ ...valid, expirationDate: '2031-04-30' }).success).toBe(true)
    expect(page.safeParse({ ...valid, expirationDate: '30/04/2031' }).success).toBe(false)
    expect(page.safeParse({ ...valid, expirationDate: '2031-04-30x' }).success).toBe(false)
  })
})
