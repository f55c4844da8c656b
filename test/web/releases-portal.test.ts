import { beforeAll, describe, expect, it } from 'vitest'
import { RELEASE_MESSAGES, type ReleasedAsset } from '../../contract/releases'
import { generateBeneficiaryKeyPair, privateKeyToPem, type BeneficiaryKeyPair } from '@/crypto'
import { accessKitText } from '@/features/circle/access-kit'
import { deathFormSchema, todayIso } from '@/features/releases/forms'
import { isBadLink, isConflict, linkJson } from '@/features/releases/http'
import {
  assetCardModel,
  downloadPercent,
  downloadsHeld,
  downloadsUsedUp,
  effectiveStatus,
  fetchPortal,
  identityStep,
  loadPrivateKey,
  loadPrivateKeyFile,
  MAX_KIT_FILE_BYTES,
  portalUrls,
  uploadIdentityDocument,
  withCounts,
} from '@/features/releases/portal'
import type { FetchLike } from '@/features/vault/items/http'

let alice: BeneficiaryKeyPair

beforeAll(async () => {
  alice = await generateBeneficiaryKeyPair()
})

function asset(overrides: Partial<ReleasedAsset> = {}, type: string = 'doc'): ReleasedAsset {
  return {
    id: 'asset-1',
    status: 'available',
    downloadCount: 0,
    maxDownloads: 5,
    expiresAt: '2099-06-30T12:00:00.000Z',
    releasedAt: '2025-01-01T00:00:00.000Z',
    vaultItem: { id: 'item-1', type: type as ReleasedAsset['vaultItem']['type'], encryptedMetadata: 'AA==', wrappedKey: 'AA==', plainSize: 10, manifest: null, manifestSignature: null },
    ...overrides,
  }
}

describe('the private key entry', () => {
  it.each(['', '   ', '\n\t'])('says the key is required for empty input %j', async (text) => {
    expect(await loadPrivateKey(text)).toEqual({ ok: false, error: 'Private key is required for decryption' })
  })

  it.each(['hello', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----'])('says the format is invalid for %j', async (text) => {
    expect(await loadPrivateKey(text)).toEqual({ ok: false, error: 'Invalid private key format' })
  })

  it('accepts a PEM block, a public key is refused', async () => {
    const result = await loadPrivateKey(privateKeyToPem(alice.privateKeyPkcs8))
    expect(result.ok).toBe(true)
    expect(result.ok && result.key.extractable).toBe(false)
    expect((await loadPrivateKey(alice.publicKeySpki)).ok).toBe(false)
  })

  it('accepts the Access Kit’s text file, and refuses a file far larger than a kit', async () => {
    const kit = accessKitText({
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      ownerName: 'Charles Babbage',
      createdAt: new Date('2025-01-01'),
      fingerprint: 'A1B2',
      vaultFingerprint: 'C3D4',
      portalUrl: 'https://example.com/beneficiary-portal',
      privateKeyPem: privateKeyToPem(alice.privateKeyPkcs8),
    })
    expect((await loadPrivateKeyFile(new Blob([kit], { type: 'text/plain' }))).ok).toBe(true)
    expect(await loadPrivateKeyFile(new Blob([new Uint8Array(0)]))).toEqual({ ok: false, error: RELEASE_MESSAGES.privateKeyRequired })
    expect(await loadPrivateKeyFile(new Blob([kit, ' '.repeat(MAX_KIT_FILE_BYTES)]))).toEqual({ ok: false, error: RELEASE_MESSAGES.privateKeyInvalid })
  })
})

describe('the asset card', () => {
  const now = new Date('2025-06-01T00:00:00Z')

  it('shows an available asset with its name, counters, expiry and an enabled button', () => {
    const model = assetCardModel(asset({ downloadCount: 2 }), { name: 'will.pdf', now })
    expect(model).toMatchObject({
      title: 'will.pdf',
      icon: 'document',
      typeLabel: 'Document',
      status: 'available',
      statusLabel: 'Available',
      statusVariant: 'default',
      downloadsText: 'Downloads: 2/5',
      canDownload: true,
      blockedReason: null,
    })
    expect(model.expiresText).toMatch(/^Expires .*2099/)
  })

  it('a withdrawn asset says, in the heir’s words, that the owner withdrew it, and offers nothing', () => {
    const model = assetCardModel(asset({ status: 'withdrawn' }), { name: 'will.pdf', now, ownerName: 'Grace Owner' })
    expect(model).toMatchObject({ status: 'withdrawn', statusLabel: 'Withdrawn', canDownload: false, expiresText: 'No longer available' })
    expect(model.blockedReason).toBe('Grace Owner withdrew this release. It can no longer be downloaded.')
  })

  it('a key that opens none of the items offers no download, and says which key to load', () => {
    const model = assetCardModel(asset(), { now, keyFits: false })
    expect(model).toMatchObject({ canDownload: false, blockedReason: RELEASE_MESSAGES.keyDoesNotFitItem })
    // What ran out is said first: another key would not help.
    expect(assetCardModel(asset({ status: 'expired' }), { now, keyFits: false }).blockedReason).toBe(RELEASE_MESSAGES.assetExpired)
  })

  it('falls back to Untitled Asset and No expiry date', () => {
    const model = assetCardModel(asset({ expiresAt: null }), { now })
    expect(model.title).toBe('Untitled Asset')
    expect(assetCardModel(asset(), { name: '   ', now }).title).toBe('Untitled Asset')
    expect(model.expiresText).toBe('No expiry date')
  })

  it('picks the icon by type, with other for anything unknown', () => {
    expect(['photo', 'video', 'password', 'doc', 'spreadsheet'].map((t) => assetCardModel(asset({}, t), { now }).icon)).toEqual([
      'photo',
      'video',
      'password',
      'document',
      'other',
    ])
    expect(assetCardModel(asset({}, 'spreadsheet'), { now }).typeLabel).toBe('Other')
  })

  it('disables the button while busy, without calling the asset blocked', () => {
    expect(assetCardModel(asset(), { busy: true, now })).toMatchObject({ canDownload: false, blockedReason: null, statusLabel: 'Available' })
  })

  it('blocks at the download limit, even before the server relabels the asset', () => {
    for (const a of [asset({ downloadCount: 5 }), asset({ status: 'exhausted', downloadCount: 5 })]) {
      expect(assetCardModel(a, { now })).toMatchObject({
        status: 'exhausted',
        statusLabel: 'Download limit reached',
        statusVariant: 'secondary',
        downloadsText: 'Downloads: 5/5',
        canDownload: false,
        blockedReason: RELEASE_MESSAGES.downloadLimit,
      })
    }
  })

  it('labels the other statuses readably as secondary badges', () => {
    expect(assetCardModel(asset({ status: 'pending_identity' }), { now })).toMatchObject({
      statusLabel: 'Pending identity',
      statusVariant: 'secondary',
      canDownload: false,
      blockedReason: RELEASE_MESSAGES.assetPendingIdentity,
    })
    expect(assetCardModel(asset({ status: 'expired' }), { now })).toMatchObject({ statusLabel: 'Expired', canDownload: false })
    expect(effectiveStatus(asset({ expiresAt: '2025-05-31T00:00:00Z' }), now)).toBe('expired')
  })

  it('an asset is expired from the very moment it expires, not a moment later', () => {
    expect(effectiveStatus(asset({ expiresAt: now.toISOString() }), now)).toBe('expired')
    expect(effectiveStatus(asset({ expiresAt: new Date(now.getTime() + 1).toISOString() }), now)).toBe('available')
  })

  it('takes a download’s counters into the list', () => {
    const list = [asset(), asset({ id: 'asset-2' })]
    const next = withCounts(list, 'asset-2', { downloadCount: 3, maxDownloads: 5 })
    expect(next.map((a) => a.downloadCount)).toEqual([0, 3])
    expect(list[1]!.downloadCount).toBe(0)
  })
})

describe('identity on the portal', () => {
  it('asks for a document when identity is required and not yet given', () => {
    expect(identityStep({ identityRequired: true, identityStatus: 'unverified' })).toBe('upload')
    expect(identityStep({ identityRequired: true, identityStatus: 'rejected' })).toBe('upload')
    expect(identityStep({ identityRequired: false, identityStatus: 'unverified' }, [asset({ status: 'pending_identity' })])).toBe('upload')
  })

  it('says verification is pending while it is, and asks nothing otherwise', () => {
    expect(identityStep({ identityRequired: true, identityStatus: 'pending' })).toBe('pending')
    expect(identityStep({ identityRequired: true, identityStatus: 'verified' })).toBe('none')
    expect(identityStep({ identityRequired: false, identityStatus: 'unverified' }, [asset()])).toBe('none')
  })
})

describe('the portal calls', () => {
  const link = { id: 'ben 1', token: 'tok/en+0123456789' }

  it('put the token in the query, escaped, and send no session', async () => {
    expect(portalUrls.download(link, 'a/1')).toBe('/api/beneficiaries/ben%201/assets/a%2F1/download?token=tok%2Fen%2B0123456789')
    const seen: Array<{ url: string; init?: RequestInit }> = []
    const fetchFn: FetchLike = async (url, init) => {
      seen.push({ url, init })
      return new Response(JSON.stringify({ fullName: 'Ada', ownerName: 'Charles', identityStatus: 'verified', identityRequired: false }))
    }
    expect(await fetchPortal(link, fetchFn)).toMatchObject({ ownerName: 'Charles' })
    expect(seen[0]!.url).toBe('/api/beneficiaries/ben%201/portal?token=tok%2Fen%2B0123456789')
    expect(new Headers(seen[0]!.init?.headers).has('Authorization')).toBe(false)
  })

  it('upload the identity document as multipart with the spec’s field names', async () => {
    let body: FormData | undefined
    const fetchFn: FetchLike = async (_url, init) => {
      body = init?.body as FormData
      return new Response(JSON.stringify({ identityStatus: 'pending' }), { status: 201 })
    }
    const front = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'front.jpg', { type: 'image/jpeg' })
    const result = await uploadIdentityDocument(
      link,
      { documentType: 'passport', documentNumber: 'X1', issuingAuthority: 'HMPO', expirationDate: '2030-01-01', frontImage: front, backImage: null },
      fetchFn,
    )
    expect(result).toEqual({ identityStatus: 'pending' })
    expect([...body!.keys()]).toEqual(['documentType', 'documentNumber', 'issuingAuthority', 'expirationDate', 'frontImage'])
    expect((body!.get('frontImage') as File).name).toBe('front.jpg')
  })

  it('tell a refused link and a conflict from an outage, with the server’s words', async () => {
    const answer = (status: number, message: string): FetchLike => async () => new Response(JSON.stringify({ message }), { status })
    const expired = await linkJson('GET', '/x', undefined, answer(410, RELEASE_MESSAGES.linkExpired)).catch((e: unknown) => e)
    expect(isBadLink(expired)).toBe(true)
    expect((expired as Error).message).toBe(`410: ${RELEASE_MESSAGES.linkExpired}`)
    const signed = await linkJson('POST', '/x', {}, answer(409, RELEASE_MESSAGES.alreadySigned)).catch((e: unknown) => e)
    expect(isConflict(signed)).toBe(true)
    expect(isBadLink(signed)).toBe(false)
    expect(isBadLink(await linkJson('GET', '/x', undefined, answer(503, 'down')).catch((e: unknown) => e))).toBe(false)
  })
})

describe('the death confirmation form', () => {
  const valid = { certificateNumber: ' DC-123 ', dateOfDeath: '2025-03-04', issuingAuthority: '', attest: true }
  const messages = (values: object) => deathFormSchema.safeParse(values).error?.issues.map((i) => i.message) ?? []

  it('accepts a complete form', () => {
    expect(deathFormSchema.parse(valid)).toEqual({ certificateNumber: 'DC-123', dateOfDeath: '2025-03-04', issuingAuthority: '', attest: true })
  })

  it('offers dates up to today in the reader’s own time zone, no later and no earlier', () => {
    // 31 January, late in the evening where the reader is: still the 31st there, whatever UTC says.
    expect(todayIso(new Date(2026, 0, 31, 23, 30))).toBe('2026-01-31')
    expect(todayIso(new Date(2026, 11, 1, 0, 5))).toBe('2026-12-01')
    expect(todayIso(new Date(2027, 8, 9, 12))).toBe('2027-09-09')
  })

  it('gives the spec’s message for each missing field', () => {
    expect(messages({ ...valid, certificateNumber: '  ' })).toEqual([RELEASE_MESSAGES.certificateRequired])
    expect(messages({ ...valid, dateOfDeath: '' })).toEqual([RELEASE_MESSAGES.dateOfDeathRequired])
    expect(messages({ ...valid, attest: false })).toEqual([RELEASE_MESSAGES.attestationRequired])
  })
})

describe('downloading at the portal', () => {
  it('the download that uses the last allowed one refreshes the portal (to offer asking for more); one before it does not', () => {
    expect(downloadsUsedUp({ downloadCount: 2, maxDownloads: 3 })).toBe(false)
    expect(downloadsUsedUp({ downloadCount: 3, maxDownloads: 3 })).toBe(true)
    expect(downloadsUsedUp({ downloadCount: 4, maxDownloads: 3 })).toBe(true)
  })

  it('no download starts while another runs, nor with a key loaded before the seals are checked', () => {
    expect(downloadsHeld({ downloading: false, keyLoaded: false, sealsChecked: false })).toBe(false)
    expect(downloadsHeld({ downloading: false, keyLoaded: true, sealsChecked: true })).toBe(false)
    expect(downloadsHeld({ downloading: false, keyLoaded: true, sealsChecked: false })).toBe(true)
    expect(downloadsHeld({ downloading: true, keyLoaded: true, sealsChecked: true })).toBe(true)
    expect(downloadsHeld({ downloading: true, keyLoaded: false, sealsChecked: false })).toBe(true)
  })

  it('progress is shown in whole percent, never over 100, and not at all while the size is unknown', () => {
    expect(downloadPercent(0, 200)).toBe(0)
    expect(downloadPercent(101, 200)).toBe(51)
    expect(downloadPercent(250, 200)).toBe(100)
    expect(downloadPercent(10, 0)).toBeNull()
  })
})
