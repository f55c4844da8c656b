import { describe, expect, it } from 'vitest'
import { itemTypeFor, MAX_FILE_BYTES, MAX_FILES_PER_DROP, VAULT_ITEM_MESSAGES, type PasswordEntry } from '../../contract/vault-items'
import { matchesSearch, visibleItems } from '@/features/vault/items/search'
import type { DecryptedMetadata } from '@/features/vault/items/decrypt-items'
import { rechunk } from '@/features/vault/items/download'
import { acceptAttribute, dragVerdict, isPreviewableImage, mimeTypeOf, sortFiles } from '@/features/vault/upload/file-rules'
import { passwordEntryItem, policyFrom, UPLOAD_FORM_DEFAULTS, uploadFormSchema, type UploadFormValues } from '@/features/vault/upload/upload-form'

// The Add Item rules (seeds 001 §5): what the dropzone accepts and refuses, the form's messages,
// and the list's search.

const file = (name: string, type: string, size = 10, lastModified = 1) => ({ name, type, size, lastModified })

function errorsOf(values: Partial<UploadFormValues>): Record<string, string> {
  const result = uploadFormSchema.safeParse({ ...UPLOAD_FORM_DEFAULTS, ...values })
  if (result.success) return {}
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]))
}

describe('the dropzone rules', () => {
  it('keeps any file: the listed types by MIME type or extension, anything else as reported, or as binary', () => {
    expect(mimeTypeOf(file('a.png', 'image/png'))).toBe('image/png')
    expect(mimeTypeOf(file('notes.md', ''))).toBe('text/markdown')
    expect(mimeTypeOf(file('sheet.CSV', 'application/vnd.ms-excel'))).toBe('application/vnd.ms-excel')
    expect(mimeTypeOf(file('data.csv', 'application/octet-stream'))).toBe('text/csv')
    expect(mimeTypeOf(file('archive.zip', 'application/zip'))).toBe('application/zip')
    expect(mimeTypeOf(file('IMG_0001.heic', 'image/heic'))).toBe('image/heic')
    expect(mimeTypeOf(file('passwords.kdbx', ''))).toBe('application/octet-stream')
    expect(mimeTypeOf(file('README', ''))).toBe('application/octet-stream')
    // How each is shown: pictures and videos as such, anything unrecognised as a document.
    expect(itemTypeFor(mimeTypeOf(file('clip.mov', '')))).toBe('video')
    expect(itemTypeFor(mimeTypeOf(file('passwords.kdbx', '')))).toBe('doc')
    expect(itemTypeFor(mimeTypeOf(file('archive.zip', 'application/zip')))).toBe('doc')
    // A picture the browser cannot draw (HEIC) is a photo without a preview.
    expect(isPreviewableImage('image/jpeg')).toBe(true)
    expect(isPreviewableImage('image/heic')).toBe(false)
    expect(acceptAttribute('photo')).toBe('image/*')
    expect(acceptAttribute('doc')).toBe('')
  })

  it('refuses a file only for its size, with the name and the spec’s reason', () => {
    const { accepted, rejected } = sortFiles([], [
      file('ok.pdf', 'application/pdf'),
      file('setup.exe', 'application/x-msdownload'),
      file('key', ''),
      file('huge.mp4', 'video/mp4', MAX_FILE_BYTES + 1),
    ])
    expect(accepted.map((f) => f.name)).toEqual(['ok.pdf', 'setup.exe', 'key'])
    expect(rejected).toEqual([{ name: 'huge.mp4', reasons: ['File is larger than 104857600 bytes'] }])
  })

  it(`accepts at most ${MAX_FILES_PER_DROP} files; the rest are 'Too many files'; a file chosen twice is skipped`, () => {
    const first = Array.from({ length: 8 }, (_, i) => file(`f${i}.txt`, 'text/plain'))
    const more = Array.from({ length: 4 }, (_, i) => file(`g${i}.txt`, 'text/plain'))
    const { accepted, rejected } = sortFiles(first, [first[0]!, ...more])
    expect(accepted.map((f) => f.name)).toEqual(['g0.txt', 'g1.txt'])
    expect(rejected).toEqual([
      { name: 'g2.txt', reasons: [VAULT_ITEM_MESSAGES.tooManyFiles] },
      { name: 'g3.txt', reasons: [VAULT_ITEM_MESSAGES.tooManyFiles] },
    ])
  })

  it('reads a type or an extension in capitals as the same type', () => {
    expect(mimeTypeOf(file('photo', 'image/PNG'))).toBe('image/png')
    expect(mimeTypeOf(file('PHOTO.JPG', ''))).toBe('image/jpeg')
    expect(isPreviewableImage('image/JPEG')).toBe(true)
  })

  it('the video picker offers videos', () => {
    expect(acceptAttribute('video')).toBe('video/*')
  })

  it('a file of exactly the size limit is accepted', () => {
    const { accepted, rejected } = sortFiles([], [file('edge.mp4', 'video/mp4', MAX_FILE_BYTES)])
    expect(accepted.map((f) => f.name)).toEqual(['edge.mp4'])
    expect(rejected).toEqual([])
  })

  it('two different files of the same name and size (changed at different times) are both kept', () => {
    const { accepted } = sortFiles([file('scan.pdf', 'application/pdf', 10, 1)], [file('scan.pdf', 'application/pdf', 10, 2)])
    expect(accepted).toHaveLength(1)
  })

  it('a file too large is refused for its size alone, even past the count limit', () => {
    const full = Array.from({ length: MAX_FILES_PER_DROP }, (_, i) => file(`f${i}.txt`, 'text/plain'))
    const { rejected } = sortFiles(full, [file('huge.mp4', 'video/mp4', MAX_FILE_BYTES + 1)])
    expect(rejected).toEqual([{ name: 'huge.mp4', reasons: [VAULT_ITEM_MESSAGES.fileTooLarge(MAX_FILE_BYTES)] }])
  })

  it(`a drag of exactly ${MAX_FILES_PER_DROP} files onto an empty selection is accepted`, () => {
    const files = Array.from({ length: MAX_FILES_PER_DROP }, () => ({ kind: 'file', type: '' }))
    expect(dragVerdict(files)).toBe('accept')
    expect(dragVerdict(files, 1)).toBe('reject')
  })

  it('judges a drag by count only: any type is taken, too many files is a reject', () => {
    expect(dragVerdict([{ kind: 'file', type: 'image/png' }, { kind: 'file', type: '' }])).toBe('accept')
    expect(dragVerdict([{ kind: 'file', type: 'image/png' }, { kind: 'file', type: 'application/zip' }])).toBe('accept')
    expect(dragVerdict([{ kind: 'string', type: 'text/plain' }])).toBe('reject')
    expect(dragVerdict([{ kind: 'file', type: 'image/png' }], MAX_FILES_PER_DROP)).toBe('reject')
  })
})

describe('the Add Item form', () => {
  const someFile = new File(['x'], 'a.txt', { type: 'text/plain' })

  it('requires files and beneficiaries', () => {
    expect(errorsOf({})).toEqual({ files: 'No files selected', beneficiaryIds: 'Beneficiaries required' })
    expect(errorsOf({ files: [someFile], beneficiaryIds: ['b1'] })).toEqual({})
  })

  it('requires an approver contact when an approver is required, and a valid one', () => {
    const base = { files: [someFile], beneficiaryIds: ['b1'], requiresApprover: true }
    expect(errorsOf(base)).toEqual({ approverContact: 'Approver contact required' })
    expect(errorsOf({ ...base, approverContact: 'not-an-email' })).toEqual({ approverContact: 'Please enter a valid email address' })
    expect(errorsOf({ ...base, approverContact: 'sam@example.com' })).toEqual({})
  })

  it("an item's approver contact must be a whole e-mail address: one with an @ but no domain or no name is refused", () => {
    const base = { files: [someFile], beneficiaryIds: ['b1'], requiresApprover: true }
    for (const approverContact of ['bob@', '@example.com', 'bob@example', 'bob @example.com', 'bob@@example.com']) {
      expect(errorsOf({ ...base, approverContact })).toEqual({ approverContact: 'Please enter a valid email address' })
    }
  })

  it('requires a future date for SCHEDULED', () => {
    const base = { files: [someFile], beneficiaryIds: ['b1'], protocol: 'SCHEDULED' as const }
    expect(errorsOf(base)).toEqual({ scheduledAt: 'Schedule date required' })
    expect(errorsOf({ ...base, scheduledAt: '2001-01-01T10:00' })).toEqual({ scheduledAt: VAULT_ITEM_MESSAGES.scheduleInPast })
    expect(errorsOf({ ...base, scheduledAt: '2999-01-01T10:00' })).toEqual({})
  })

  it('turns the values into the policy, VERIFIED_DEATH when none is chosen', () => {
    const values = { ...UPLOAD_FORM_DEFAULTS, protocol: '' as const, requiresApprover: false, approverContact: 'ignored@example.com' }
    expect(policyFrom(values)).toEqual({ protocol: 'VERIFIED_DEATH', requiresApprover: false, approverContact: undefined, scheduledAt: undefined })
    const scheduled = policyFrom({ ...values, protocol: 'SCHEDULED', scheduledAt: '2999-01-01T10:00' })
    expect(scheduled.protocol).toBe('SCHEDULED')
    expect(new Date(scheduled.scheduledAt!).getTime()).toBe(new Date('2999-01-01T10:00').getTime())
  })

  it('stores a password entry as JSON content with the site as its name and parsed tags', async () => {
    expect(errorsOf({ mode: 'password', beneficiaryIds: ['b1'] })).toEqual({ site: 'Site or service required', password: 'Password required' })
    const { content, metadata } = passwordEntryItem({
      ...UPLOAD_FORM_DEFAULTS,
      mode: 'password',
      site: ' bank.example.com ',
      username: 'grace',
      password: 's3cret!',
      notes: 'PIN in the safe',
      tags: ' banking, , money ',
    })
    expect(JSON.parse(await content.text()) as PasswordEntry).toEqual({ site: 'bank.example.com', username: 'grace', password: 's3cret!', notes: 'PIN in the safe' })
    expect(metadata).toEqual({ filename: 'bank.example.com', mimetype: 'application/json', size: content.size, tags: ['banking', 'money'] })
  })
})

describe('the item list', () => {
  it('searches decrypted names and tags, case-insensitively', () => {
    const meta = { filename: 'Holiday-Beach.PNG', tags: ['Family', 'summer 2019'] }
    expect(matchesSearch(meta, 'beach')).toBe(true)
    expect(matchesSearch(meta, 'FAMILY')).toBe(true)
    expect(matchesSearch(meta, '2019')).toBe(true)
    expect(matchesSearch(meta, 'tax')).toBe(false)
    expect(matchesSearch(meta, '  ')).toBe(true)
  })

  it('re-cuts a byte stream into fixed-size pieces, the last one shorter', async () => {
    async function* pieces() {
      for (const size of [3, 1, 7, 2]) yield new Uint8Array(size).fill(size)
    }
    const out: number[] = []
    for await (const chunk of rechunk(pieces(), 5)) out.push(chunk.length)
    expect(out).toEqual([5, 5, 3])
  })
})

describe('the vault list filters', () => {
  const items = [
    { id: 'a', type: 'photo' as const },
    { id: 'b', type: 'doc' as const },
    { id: 'c', type: 'photo' as const },
  ]
  const meta: Record<string, DecryptedMetadata> = {
    a: { status: 'ready', metadata: { filename: 'beach.jpg', mimetype: 'image/jpeg', tags: [] } as never },
    b: { status: 'ready', metadata: { filename: 'beach-report.pdf', mimetype: 'application/pdf', tags: [] } as never },
    c: { status: 'pending' },
  }
  const of = (id: string) => meta[id]
  const ids = (r: { visible: { id: string }[] }) => r.visible.map((i) => i.id)

  it('filter by type, and by a search only over names decrypted', () => {
    expect(ids(visibleItems(items, { type: 'photo', search: '', unlocked: true }, of))).toEqual(['a', 'c'])
    expect(ids(visibleItems(items, { type: 'all', search: 'beach', unlocked: true }, of))).toEqual(['a', 'b'])
    expect(ids(visibleItems(items, { type: 'photo', search: 'beach', unlocked: true }, of))).toEqual(['a'])
  })

  it('a locked vault ignores the search, and then counts as unfiltered', () => {
    expect(visibleItems(items, { type: 'all', search: 'beach', unlocked: false }, of)).toEqual({ visible: items, filtered: false })
    expect(visibleItems(items, { type: 'all', search: '  ', unlocked: true }, of).filtered).toBe(false)
    expect(visibleItems(items, { type: 'doc', search: '', unlocked: false }, of).filtered).toBe(true)
    expect(visibleItems(items, { type: 'all', search: 'x', unlocked: true }, of).filtered).toBe(true)
  })
})
