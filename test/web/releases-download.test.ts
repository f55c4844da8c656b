import { beforeAll, describe, expect, it } from 'vitest'
import { RELEASE_MESSAGES } from '../../contract/releases'
import type { PasswordEntry } from '../../contract/vault-items'
import { generateBeneficiaryKeyPair, importBeneficiaryPrivateKey, privateKeyToPem, type BeneficiaryKeyPair, type BeneficiaryPrivateKey } from '@/crypto'
import type { SaveFilePicker } from '@/features/vault/items/download'
import { CONTENT_RETRIES, decryptAssetName, downloadErrorText, downloadReleasedAsset, WRONG_KEY_TEXT } from '@/features/releases/portal'
import { CHUNK, FakePortalApi, LINK, pattern } from './released-fake-api'

// The beneficiary's download end to end: the owner's browser encrypts an item and grants it to
// the beneficiary's public key, a fake API serves it the way the release API does
// (released-fake-api.ts), and the portal's download decrypts it with the Access Kit's private key.

let alice: BeneficiaryKeyPair
let bob: BeneficiaryKeyPair
let aliceKey: BeneficiaryPrivateKey

beforeAll(async () => {
  ;[alice, bob] = await Promise.all([generateBeneficiaryKeyPair(), generateBeneficiaryKeyPair()])
  aliceKey = await importBeneficiaryPrivateKey(privateKeyToPem(alice.privateKeyPkcs8))
})

describe('downloading a released asset', () => {
  it('decrypts the bytes and saves them under the real name and type, updating the counters', async () => {
    const api = new FakePortalApi()
    const plain = pattern(3 * CHUNK + 123)
    const asset = await api.add('a1', 'doc', plain, { filename: 'will.pdf', mimetype: 'application/pdf', size: plain.length, tags: [] }, alice.publicKey)
    const saved: Array<{ blob: Blob; filename: string }> = []
    const counted: unknown[] = []
    const progress: number[] = []

    const outcome = await downloadReleasedAsset(LINK, asset, aliceKey, {
      fetch: api.fetch,
      picker: null,
      save: (blob, filename) => saved.push({ blob, filename }),
      onCounted: (counts, metadata) => counted.push({ counts, metadata }),
      onProgress: (received) => progress.push(received),
    })

    expect(outcome).toEqual({ kind: 'saved', filename: 'will.pdf', counts: { downloadCount: 1, maxDownloads: 5 } })
    expect(counted).toEqual([{ counts: { downloadCount: 1, maxDownloads: 5 }, metadata: { filename: 'will.pdf', mimetype: 'application/pdf' } }])
    expect(saved).toHaveLength(1)
    expect(saved[0]!.filename).toBe('will.pdf')
    expect(saved[0]!.blob.type).toBe('application/pdf')
    const bytes = new Uint8Array(await saved[0]!.blob.arrayBuffer())
    expect(bytes.length).toBe(plain.length)
    expect(bytes.findIndex((b, i) => b !== plain[i])).toBe(-1)
    expect(progress.at(-1)).toBe(api.stored.get('a1')!.cipher.length)
    expect(api.requests).toEqual([
      `GET /api/beneficiaries/ben-1/assets/a1/download?token=${LINK.token}`,
      'GET /api/release-content/a1?ticket=t-a1',
    ])
  })

  it('opens the save dialog under the listed name before counting, and a cancelled dialog counts nothing', async () => {
    const api = new FakePortalApi()
    const plain = pattern(2 * CHUNK)
    const asset = await api.add('a2', 'photo', plain, { filename: 'beach.jpg', mimetype: 'image/jpeg', size: plain.length, tags: [] }, alice.publicKey)
    expect(await decryptAssetName(asset, aliceKey)).toBe('beach.jpg')

    const cancel: SaveFilePicker = async () => {
      throw new DOMException('The user aborted a request.', 'AbortError')
    }
    expect(await downloadReleasedAsset(LINK, asset, aliceKey, { fetch: api.fetch, picker: cancel })).toEqual({ kind: 'cancelled' })
    expect(api.requests).toEqual([])

    const written: Uint8Array<ArrayBuffer>[] = []
    let suggested: string | undefined
    let requestsAtDialog = -1
    let closed = false
    const picker: SaveFilePicker = async ({ suggestedName }) => {
      suggested = suggestedName
      requestsAtDialog = api.requests.length
      return {
        createWritable: async () => ({
          write: async (piece) => void written.push(piece),
          close: async () => void (closed = true),
          abort: async () => undefined,
        }),
      }
    }
    const outcome = await downloadReleasedAsset(LINK, asset, aliceKey, { fetch: api.fetch, picker })
    expect(outcome).toMatchObject({ kind: 'saved', filename: 'beach.jpg', counts: { downloadCount: 1 } })
    expect(suggested).toBe('beach.jpg')
    expect(requestsAtDialog).toBe(0)
    expect(closed).toBe(true)
    const bytes = new Uint8Array(await new Blob(written).arrayBuffer())
    expect(bytes.findIndex((b, i) => b !== plain[i])).toBe(-1)
    expect(bytes.length).toBe(plain.length)
  })

  it('returns a password entry for display instead of saving it, without a save dialog', async () => {
    const api = new FakePortalApi()
    const entry: PasswordEntry = { site: 'bank.example', username: 'ada', password: 's3cret!', notes: 'PIN 1234' }
    const content = new TextEncoder().encode(JSON.stringify(entry))
    const asset = await api.add('p1', 'password', content, { filename: 'bank.example', mimetype: 'application/json', size: content.length, tags: [] }, alice.publicKey)
    let saves = 0
    const picker: SaveFilePicker = async () => {
      throw new Error('no dialog for a password')
    }
    const outcome = await downloadReleasedAsset(LINK, asset, aliceKey, { fetch: api.fetch, picker, save: () => saves++ })
    expect(outcome).toEqual({ kind: 'password', title: 'bank.example', entry, counts: { downloadCount: 1, maxDownloads: 5 } })
    expect(saves).toBe(0)
  })

  it('fails with a clear text for another beneficiary’s key, before counting a download, and for the download limit', async () => {
    const api = new FakePortalApi()
    const asset = await api.add('a4', 'doc', pattern(50), { filename: 'x.bin', mimetype: 'application/octet-stream', size: 50, tags: [] }, alice.publicKey)
    const bobKey = await importBeneficiaryPrivateKey(bob.privateKeyPkcs8)
    await expect(decryptAssetName(asset, bobKey)).rejects.toThrow()
    const wrongKey = await downloadReleasedAsset(LINK, asset, bobKey, { fetch: api.fetch, picker: null, save: () => undefined }).catch((e: unknown) => e)
    expect(downloadErrorText(wrongKey)).toBe(WRONG_KEY_TEXT)
    expect(api.requests).toEqual([])
    expect(api.stored.get('a4')!.asset.downloadCount).toBe(0)

    api.stored.get('a4')!.asset.downloadCount = 5
    const limit = await downloadReleasedAsset(LINK, asset, aliceKey, { fetch: api.fetch, picker: null }).catch((e: unknown) => e)
    expect(downloadErrorText(limit)).toBe(RELEASE_MESSAGES.downloadLimit)
    expect(downloadErrorText(new TypeError('Failed to fetch'))).toBe('Network error. Please check your connection and try again.')
  })
})

describe('a content fetch that fails', () => {
  const fast = { retryDelayMs: () => 0 }
  const downloadRequest = `GET /api/beneficiaries/ben-1/assets/a5/download?token=${LINK.token}`
  const contentRequest = 'GET /api/release-content/a5?ticket=t-a5'

  async function setUp() {
    const api = new FakePortalApi()
    const plain = pattern(4 * CHUNK + 77)
    const asset = await api.add('a5', 'doc', plain, { filename: 'deed.pdf', mimetype: 'application/pdf', size: plain.length, tags: [] }, alice.publicKey)
    const saved: Blob[] = []
    const progress: number[] = []
    const options = { fetch: api.fetch, picker: null, save: (blob: Blob) => void saved.push(blob), onProgress: (n: number) => void progress.push(n), ...fast }
    const savedBytes = async () => new Uint8Array(await saved[0]!.arrayBuffer())
    return { api, plain, asset, saved, savedBytes, progress, options }
  }

  it('re-fetches the same ticket after a network error, counting the download once', async () => {
    const { api, plain, asset, savedBytes, options } = await setUp()
    api.contentBehaviour = (attempt) => (attempt === 1 ? 'drop' : 'ok')
    const outcome = await downloadReleasedAsset(LINK, asset, aliceKey, options)
    expect(outcome).toMatchObject({ kind: 'saved', counts: { downloadCount: 1 } })
    expect(api.requests).toEqual([downloadRequest, contentRequest, contentRequest])
    const bytes = await savedBytes()
    expect(bytes.length).toBe(plain.length)
    expect(bytes.findIndex((b, i) => b !== plain[i])).toBe(-1)
  })

  it('resumes a connection lost midway without repeating or losing bytes', async () => {
    const { api, plain, asset, savedBytes, progress, options } = await setUp()
    api.contentBehaviour = (attempt) => (attempt === 1 ? { dropAfter: 1500 } : attempt === 2 ? { dropAfter: 3000 } : 'ok')
    await downloadReleasedAsset(LINK, asset, aliceKey, options)
    expect(api.requests).toEqual([downloadRequest, contentRequest, contentRequest, contentRequest])
    const bytes = await savedBytes()
    expect(bytes.length).toBe(plain.length)
    expect(bytes.findIndex((b, i) => b !== plain[i])).toBe(-1)
    expect([...progress].sort((a, b) => a - b)).toEqual(progress)
    expect(progress.at(-1)).toBe(api.stored.get('a5')!.cipher.length)
  })

  it(`gives up after ${CONTENT_RETRIES} re-fetches with the network error, and saves nothing`, async () => {
    const { api, asset, saved, options } = await setUp()
    api.contentBehaviour = () => 'drop'
    const error = await downloadReleasedAsset(LINK, asset, aliceKey, options).catch((e: unknown) => e)
    expect(downloadErrorText(error)).toBe('Network error. Please check your connection and try again.')
    expect(api.requests).toEqual([downloadRequest, ...Array(1 + CONTENT_RETRIES).fill(contentRequest)])
    expect(saved).toHaveLength(0)
  })

  it('does not re-fetch a refused ticket', async () => {
    const { api, asset, options } = await setUp()
    api.contentBehaviour = () => 'refuse'
    const error = await downloadReleasedAsset(LINK, asset, aliceKey, options).catch((e: unknown) => e)
    expect(downloadErrorText(error)).toBe(RELEASE_MESSAGES.linkExpired)
    expect(api.requests).toEqual([downloadRequest, contentRequest])
  })

  it('leaves nothing half-written in the chosen file when it gives up', async () => {
    const { api, asset, options } = await setUp()
    api.contentBehaviour = () => ({ dropAfter: 1000 })
    const events: string[] = []
    const picker: SaveFilePicker = async () => ({
      createWritable: async () => ({
        write: async () => void events.push('write'),
        close: async () => void events.push('close'),
        abort: async () => void events.push('abort'),
      }),
    })
    await expect(downloadReleasedAsset(LINK, asset, aliceKey, { ...options, picker })).rejects.toBeInstanceOf(TypeError)
    expect(events.at(-1)).toBe('abort')
    expect(events).not.toContain('close')
  })
})
