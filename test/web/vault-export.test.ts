import { beforeAll, describe, expect, it } from 'vitest'
import { RELEASE_MESSAGES, type ReleasedAsset } from '../../contract/releases'
import { EXPORT_MESSAGES } from '../../contract/vault-export'
import type { ItemType } from '../../contract/vault-items'
import {
  deriveMasterKey,
  encryptStream,
  generateBeneficiaryKeyPair,
  generateVaultSalt,
  generateSigningKeyPair,
  importBeneficiaryPrivateKey,
  privateKeyToPem,
  type BeneficiaryKeyPair,
  type BeneficiaryPrivateKey,
  type SigningKeyPair,
} from '@/crypto'
import { heirExportOptions, heirExportPlan, heirSources } from '@/features/export/heir-export'
import { ownerExportOptions, ownerSources } from '@/features/export/owner-export'
import { uploadFile } from '@/features/vault/upload/upload-file'
import { saveExport } from '@/features/export/run-export'
import {
  createNamer,
  exportFiles,
  ExportStoppedError,
  manifestCsv,
  passwordEntryText,
  safeFileName,
  zipPieces,
  type ExportManifest,
  type ExportSource,
} from '@/features/export/vault-zip'
import { mayOpen, sealsAndNames, type CardSeal } from '@/features/releases/portal'
import { vaultTrust } from '@/features/releases/seals'
import { BLOB_SAVE_MAX_BYTES, parsePasswordEntry, TOO_LARGE_FOR_BROWSER } from '@/features/vault/items/download'
import { keyFingerprint } from '../../contract/vault-statements'
import { CHUNK, FakePortalApi, LINK, once, OWNER_ID, pattern } from './released-fake-api'
import { FakeVaultApi, testVault } from './vault-items-fake-api'
import { collect, readZip } from './zip-reader'

// Taking items out into one ZIP (web/features/export): safe and unique names, password entries as
// text, the manifests, what a failing item does, that items are opened and read one at a time as
// the ZIP is pulled, and the heir's Download all through the same seal checks and tickets as a
// single download.

type Bytes = Uint8Array<ArrayBuffer>
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)
const options = { parsePassword: parsePasswordEntry, now: () => new Date('2026-11-27T10:00:00Z') }

async function* piecesOf(bytes: Uint8Array, size: number): AsyncGenerator<Bytes> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size)
}

function source(name: string, type: ItemType, bytes: Uint8Array, extra: Partial<ExportSource> = {}): ExportSource {
  return {
    label: `item ${name}`,
    type,
    createdAt: '2025-03-04T05:06:08Z',
    open: async () => ({ filename: name, mimetype: 'application/octet-stream', tags: ['family', 'papers'], content: piecesOf(bytes, 100) }),
    ...extra,
  }
}

async function zipOf(sources: ExportSource[], opts: Partial<Parameters<typeof exportFiles>[1]> = {}) {
  const { files, report } = exportFiles(sources, { ...options, ...opts })
  const zip = await collect(zipPieces(files))
  return { entries: readZip(zip), report: await report }
}

describe('names in the ZIP', () => {
  it.each([
    ['a/b\\c.pdf', 'a_b_c.pdf'],
    ['../../etc/passwd', '._._etc_passwd'],
    ['..', 'Untitled'],
    ['.', 'Untitled'],
    ['', 'Untitled'],
    ['   ', 'Untitled'],
    ['report.pdf. . ', 'report.pdf'],
    ['con.txt', '_con.txt'],
    ['LPT1', '_LPT1'],
    ['tab\there\u0000.txt', 'tabhere.txt'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['what?*:<>|".txt', 'what_______.txt'],
    ['.env', '.env'],
    ['Ünïcødé 日本.txt', 'Ünïcødé 日本.txt'],
  ])('%j becomes %j', (input, expected) => {
    const name = safeFileName(input)
    expect(name).toBe(expected)
    expect(name.split('/')).toHaveLength(1)
    expect(name).not.toMatch(/\.\./)
  })

  it('cuts a very long name but keeps its extension', () => {
    const name = safeFileName(`${'x'.repeat(500)}.pdf`)
    expect(name.endsWith('.pdf')).toBe(true)
    expect(name.length).toBeLessThanOrEqual(124)
  })

  it('numbers duplicates in a folder before the extension, letter case aside, and never takes a manifest’s name', () => {
    const name = createNamer()
    expect(name('files', 'will.pdf')).toBe('files/will.pdf')
    expect(name('files', 'will.pdf')).toBe('files/will (2).pdf')
    expect(name('files', 'WILL.pdf')).toBe('files/WILL (3).pdf')
    expect(name('files', 'will (2).pdf')).toBe('files/will (2) (2).pdf')
    expect(name('passwords', 'will.pdf')).toBe('passwords/will.pdf')
    expect(name('files', '')).toBe('files/Untitled')
    expect(name('files', '..')).toBe('files/Untitled (2)')
  })
})

describe('the ZIP', () => {
  it('holds every item byte for byte under its own name, password entries as text, and both manifests', async () => {
    const big = pattern(10_000, 3)
    const small = pattern(17, 5)
    const entry = { site: 'bank.example', username: 'grace', password: 'p4ss "w0rd"', notes: 'PIN is in the safe' }
    const password = new TextEncoder().encode(JSON.stringify(entry))
    const { entries, report } = await zipOf([
      source('will.pdf', 'doc', big),
      source('will.pdf', 'photo', small),
      source('../evil', 'doc', small),
      source('Bank', 'password', password),
      source('empty.txt', 'doc', new Uint8Array(0)),
    ])
    expect(entries.map((e) => e.name)).toEqual(['files/will.pdf', 'files/will (2).pdf', 'files/._evil', 'passwords/Bank.txt', 'files/empty.txt', 'manifest.json', 'manifest.csv'])
    expect(entries.every((e) => e.utf8)).toBe(true)
    expect(entries[0]!.bytes).toEqual(big)
    expect(entries[1]!.bytes).toEqual(small)
    expect(entries[4]!.bytes).toEqual(new Uint8Array(0))
    expect(text(entries[3]!.bytes)).toBe(passwordEntryText('Bank', entry))
    expect(text(entries[3]!.bytes)).toContain('Password: p4ss "w0rd"')
    // The item's date is the file's date in the ZIP (DOS time, local, two-second steps).
    expect(entries[0]!.modified.getTime()).toBe(new Date(2025, 2, 4, new Date('2025-03-04T05:06:08Z').getHours(), 6, 8).getTime())

    const manifest = JSON.parse(text(entries[5]!.bytes)) as ExportManifest
    expect(manifest).toEqual(report.manifest)
    expect(manifest).toMatchObject({ format: 'legacy-vault/export', version: 1, exportedAt: '2026-11-27T10:00:00.000Z', included: 5, leftOut: 0 })
    expect(manifest.items[0]).toEqual({
      file: 'files/will.pdf',
      name: 'will.pdf',
      type: 'doc',
      mimetype: 'application/octet-stream',
      size: 10_000,
      createdAt: '2025-03-04T05:06:08Z',
      tags: ['family', 'papers'],
    })
    expect(manifest.items[3]).toMatchObject({ file: 'passwords/Bank.txt', type: 'password', mimetype: 'text/plain', size: entries[3]!.bytes.length })
    const csv = new TextDecoder('utf-8', { ignoreBOM: true }).decode(entries[6]!.bytes)
    expect(csv.startsWith('\uFEFFname,file,type,mimetype,size,createdAt,releasedAt,tags,problem\r\n')).toBe(true)
    expect(csv).toContain('will.pdf,files/will.pdf,doc,application/octet-stream,10000,2025-03-04T05:06:08Z,,family; papers,\r\n')
  })

  it('leaves out an item that fails before any of it is written, says why in the manifest, and goes on', async () => {
    const good = pattern(500)
    const failingFirst: ExportSource = {
      ...source('broken.pdf', 'doc', good),
      open: async () => ({
        filename: 'broken.pdf',
        mimetype: 'application/pdf',
        tags: [],
        content: (async function* () {
          throw new Error('The first chunk did not authenticate')
        })(),
      }),
    }
    const unopenable: ExportSource = { ...source('x', 'photo', good), label: 'A photo added 3 Nov 2026', open: async () => Promise.reject(new Error('')) }
    const { entries, report } = await zipOf([failingFirst, source('kept.pdf', 'doc', good), unopenable, source('skip', 'doc', good, { leaveOut: 'Download limit reached' })])
    expect(entries.map((e) => e.name)).toEqual(['files/kept.pdf', 'manifest.json', 'manifest.csv'])
    expect(entries[0]!.bytes).toEqual(good)
    expect(report.leftOut).toEqual([
      { name: 'broken.pdf', problem: 'The first chunk did not authenticate' },
      { name: 'A photo added 3 Nov 2026', problem: EXPORT_MESSAGES.itemFailed },
      { name: 'item skip', problem: 'Download limit reached' },
    ])
    const manifest = JSON.parse(text(entries[1]!.bytes)) as ExportManifest
    expect(manifest).toMatchObject({ included: 1, leftOut: 3 })
    expect(manifest.items[0]).toMatchObject({ file: null, name: 'broken.pdf', size: null, problem: 'The first chunk did not authenticate' })
    expect(manifest.items[3]).toMatchObject({ file: null, name: 'item skip', problem: 'Download limit reached' })
  })

  it('stops, naming the item, when it fails after part of it was written: the ZIP never ends as if complete', async () => {
    const failingLater: ExportSource = {
      ...source('letter.pdf', 'doc', pattern(10)),
      open: async () => ({
        filename: 'letter.pdf',
        mimetype: 'application/pdf',
        tags: [],
        content: (async function* () {
          yield pattern(100)
          throw new Error('chunk 2 did not authenticate')
        })(),
      }),
    }
    const opened: string[] = []
    const after = source('after.pdf', 'doc', pattern(10), { open: async () => (opened.push('after'), { filename: 'after.pdf', mimetype: '', tags: [], content: piecesOf(pattern(10), 5) }) })
    const { files, report } = exportFiles([source('first.pdf', 'doc', pattern(50)), failingLater, after], options)
    const error = await collect(zipPieces(files)).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ExportStoppedError)
    expect((error as ExportStoppedError).itemName).toBe('letter.pdf')
    expect((error as Error).message).toBe(EXPORT_MESSAGES.stoppedAt('letter.pdf'))
    expect(opened).toEqual([])
    void report
  })

  it('opens one item at a time and reads its content only as fast as the ZIP is pulled', async () => {
    let produced = 0
    const opened: number[] = []
    const sources = [0, 1, 2].map<ExportSource>((n) => ({
      label: `item ${n}`,
      type: 'video',
      createdAt: null,
      async open() {
        opened.push(n)
        return {
          filename: `clip-${n}.mp4`,
          mimetype: 'video/mp4',
          tags: [],
          content: (async function* () {
            for (let i = 0; i < 50; i++) {
              produced++
              yield new Uint8Array(1000)
            }
          })(),
        }
      },
    }))
    const { files } = exportFiles(sources, options)
    const reader = zipPieces(files)[Symbol.asyncIterator]()
    let maxAhead = 0
    let consumed = 0
    for (let r = await reader.next(); !r.done; r = await reader.next()) {
      if (r.value.length === 1000) consumed++
      maxAhead = Math.max(maxAhead, produced - consumed)
      // Nothing of item n+1 is opened while item n is still being read.
      if (consumed < 50) expect(opened).toEqual([0])
    }
    expect(consumed).toBe(150)
    expect(opened).toEqual([0, 1, 2])
    expect(maxAhead).toBeLessThanOrEqual(3)
  })

  it('stops opening items once cancelled, and the save resolves as cancelled', async () => {
    const abort = new AbortController()
    const opened: string[] = []
    const sources = ['a', 'b', 'c'].map((n) =>
      source(`${n}.pdf`, 'doc', pattern(10), {
        open: async () => {
          opened.push(n)
          if (n === 'a') abort.abort()
          return { filename: `${n}.pdf`, mimetype: '', tags: [], content: piecesOf(pattern(10), 5) }
        },
      }),
    )
    const saved: Blob[] = []
    const outcome = await saveExport('vault.zip', async () => sources, { ...options, signal: abort.signal, picker: null, stream: null, save: (b) => saved.push(b) })
    expect(outcome).toEqual({ kind: 'cancelled' })
    expect(opened).toEqual(['a'])
    expect(saved).toEqual([])
  })

  it('an export the owner cancelled in the browser ends as cancelled, not as a failure, with no signal of its own', async () => {
    const sources = [source('a.pdf', 'doc', pattern(10))]
    const outcome = await saveExport('vault.zip', async () => sources, {
      ...options,
      picker: null,
      stream: null,
      save: () => {
        throw new DOMException('The user aborted a request.', 'AbortError')
      },
    })
    expect(outcome).toEqual({ kind: 'cancelled' })
    // Anything else that goes wrong is a failure, shown as one.
    const failed = await saveExport('vault.zip', async () => sources, {
      ...options,
      picker: null,
      stream: null,
      save: () => {
        throw new Error('disk full')
      },
    }).catch((e: unknown) => e)
    expect((failed as Error).message).toBe('disk full')
  })

  it('refuses, before opening anything, a ZIP too large for a browser that can only save it from memory', async () => {
    const opened: string[] = []
    const sources = [source('big.mp4', 'video', pattern(10), { open: async () => (opened.push('big'), { filename: 'big.mp4', mimetype: '', tags: [], content: piecesOf(pattern(10), 5) }) })]
    const error = await saveExport('vault.zip', async () => sources, { ...options, picker: null, stream: null, save: () => undefined, size: BLOB_SAVE_MAX_BYTES + 1 }).catch((e: unknown) => e)
    expect((error as Error).message).toBe(TOO_LARGE_FOR_BROWSER)
    expect(opened).toEqual([])
  })

  it('guards the CSV against formulas and quotes what needs quoting', () => {
    const manifest: ExportManifest = {
      format: 'legacy-vault/export',
      version: 1,
      exportedAt: 'x',
      included: 1,
      leftOut: 0,
      items: [{ file: 'files/=SUM(A1).csv', name: '=SUM(A1), "quoted"', type: 'doc', mimetype: null, size: 1, createdAt: null, tags: ['+1', 'a,b'] }],
    }
    expect(manifestCsv(manifest).split('\r\n')[1]).toBe(`"'=SUM(A1), ""quoted""",files/=SUM(A1).csv,doc,,1,,,"'+1; a,b",`)
  })
})

describe("the heir's Download all", () => {
  let alice: BeneficiaryKeyPair
  let aliceKey: BeneficiaryPrivateKey
  let vault: SigningKeyPair
  let attacker: SigningKeyPair
  beforeAll(async () => {
    alice = await generateBeneficiaryKeyPair()
    aliceKey = await importBeneficiaryPrivateKey(privateKeyToPem(alice.privateKeyPkcs8))
    ;[vault, attacker] = await Promise.all([generateSigningKeyPair(), generateSigningKeyPair()])
  })
  const meta = (filename: string, size: number) => ({ filename, mimetype: 'application/pdf', size, tags: ['x'] })

  async function setUp() {
    const api = new FakePortalApi()
    const signer = { ownerId: OWNER_ID, privateKey: vault.privateKey }
    const plain = { will: pattern(3 * CHUNK + 11), deeds: pattern(2 * CHUNK, 9), note: pattern(40, 4) }
    const will = await api.add('a1', 'doc', plain.will, meta('will.pdf', plain.will.length), alice.publicKey, signer)
    const deeds = await api.add('a2', 'doc', plain.deeds, meta('deeds.pdf', plain.deeds.length), alice.publicKey, signer)
    const forged = await api.add('a3', 'doc', plain.note, meta('forged.pdf', plain.note.length), alice.publicKey, { ownerId: OWNER_ID, privateKey: attacker.privateKey })
    const spent = await api.add('a4', 'doc', plain.note, meta('spent.pdf', plain.note.length), alice.publicKey, signer)
    spent.downloadCount = spent.maxDownloads
    api.stored.get('a4')!.asset.downloadCount = spent.maxDownloads
    const password = await api.add('a5', 'password', new TextEncoder().encode(JSON.stringify({ site: 's', username: 'u', password: 'p', notes: '' })), meta('Bank', 0), alice.publicKey, signer)
    const assets: ReleasedAsset[] = [will, deeds, forged, spent, password]
    const trust = vaultTrust([keyFingerprint(vault.publicKey)], vault.publicKey)
    const seals = await sealsAndNames(assets, aliceKey, trust, vault.publicKey)
    const sealOf = (id: string): CardSeal | null => (seals.verdicts[id] ? { verdict: seals.verdicts[id]!, trust, opened: false } : null)
    const nameOf = (id: string) => seals.names[id] ?? null
    return { api, plain, assets, sealOf, nameOf }
  }

  it('holds every item the heir can open, byte for byte, each counted once; the refused and spent ones are listed, not opened', async () => {
    const { api, plain, assets, sealOf, nameOf } = await setUp()
    const plan = heirExportPlan(assets, { sealOf, nameOf, ownerName: 'Grace' })
    expect(plan.included.map((i) => i.asset.id)).toEqual(['a1', 'a2', 'a5'])
    expect(plan.included.every((i) => mayOpen(i.seal))).toBe(true)
    expect(plan.notIncluded.map((n) => [n.asset.id, n.reason])).toEqual([
      ['a3', RELEASE_MESSAGES.sealRefused('Grace', plan.notIncluded[0]!.title)],
      ['a4', RELEASE_MESSAGES.downloadLimit],
    ])

    const counted: [string, number][] = []
    const saved: Blob[] = []
    const outcome = await saveExport(
      'released.zip',
      async () => heirSources(LINK, aliceKey, assets, plan, { ownerName: 'Grace', fetch: api.fetch, onCounted: (id, c) => counted.push([id, c.downloadCount]) }),
      { ...heirExportOptions('Grace'), picker: null, stream: null, save: (b) => saved.push(b) },
    )
    expect(outcome.kind).toBe('saved')
    const entries = readZip(new Uint8Array(await saved[0]!.arrayBuffer()))
    expect(entries.map((e) => e.name)).toEqual(['files/will.pdf', 'files/deeds.pdf', 'passwords/Bank.txt', 'manifest.json', 'manifest.csv'])
    expect(entries[0]!.bytes).toEqual(plain.will)
    expect(entries[1]!.bytes).toEqual(plain.deeds)
    expect(text(entries[2]!.bytes)).toContain('Password: p')
    expect(counted).toEqual([['a1', 1], ['a2', 1], ['a5', 1]])
    // The forged and the spent item were never asked for.
    expect(api.requests.filter((r) => /\/a[34]\//.test(r))).toEqual([])
    const manifest = JSON.parse(text(entries[3]!.bytes)) as ExportManifest
    expect(manifest.items.map((i) => [i.name, i.file, i.problem ?? null])).toEqual([
      ['will.pdf', 'files/will.pdf', null],
      ['deeds.pdf', 'files/deeds.pdf', null],
      [plan.notIncluded[0]!.title, null, plan.notIncluded[0]!.reason],
      [plan.notIncluded[1]!.title, null, RELEASE_MESSAGES.downloadLimit],
      ['Bank', 'passwords/Bank.txt', null],
    ])
    expect(manifest.items[0]!.releasedAt).toBe(assets[0]!.releasedAt)
  })

  it('leaves out a one-chunk item whose content is not the one sealed (nothing of it written), and stops on a longer one', async () => {
    const { api, plain, assets, sealOf, nameOf } = await setUp()
    const plan = heirExportPlan(assets, { sealOf, nameOf, ownerName: 'Grace' })
    const only = (ids: string[]) => ({ ...plan, included: plan.included.filter((i) => ids.includes(i.asset.id)), notIncluded: [] })
    // A note of one chunk whose stored ciphertext is other content under its own key and id: it
    // decrypts, but it is not the ciphertext its manifest sealed.
    const note = await api.add('a6', 'doc', plain.note, meta('note.pdf', plain.note.length), alice.publicKey, { ownerId: OWNER_ID, privateKey: vault.privateKey })
    const stored6 = api.stored.get('a6')!
    const chunks: Uint8Array[] = []
    for await (const c of encryptStream(stored6.dek, stored6.itemId, once(pattern(40, 99)), CHUNK)) chunks.push(c)
    stored6.cipher = chunks[0]!
    const seals6 = await sealsAndNames([note], aliceKey, vaultTrust([keyFingerprint(vault.publicKey)], vault.publicKey), vault.publicKey)
    const notePlan = { included: [{ asset: note, seal: { verdict: seals6.verdicts.a6!, trust: sealOf('a1')!.trust, opened: false } }], notIncluded: [] }
    const { files, report } = exportFiles(heirSources(LINK, aliceKey, [note], notePlan, { ownerName: 'Grace', fetch: api.fetch }), { ...heirExportOptions('Grace') })
    const entries = readZip(await collect(zipPieces(files)))
    expect(entries.map((e) => e.name)).toEqual(['manifest.json', 'manifest.csv'])
    expect((await report).leftOut).toHaveLength(1)
    expect((await report).leftOut[0]).toEqual({ name: 'note.pdf', problem: RELEASE_MESSAGES.contentNotSealed('Grace') })

    // The will (four chunks) with its last chunk altered: its first pieces went out, so the export stops.
    const stored1 = api.stored.get('a1')!
    stored1.cipher = stored1.cipher.slice()
    stored1.cipher[stored1.cipher.length - 1]! ^= 1
    const stopped = exportFiles(heirSources(LINK, aliceKey, assets, only(['a1', 'a2']), { ownerName: 'Grace', fetch: api.fetch }), { ...heirExportOptions('Grace') })
    const error = await collect(zipPieces(stopped.files)).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ExportStoppedError)
    expect((error as ExportStoppedError).itemName).toBe('will.pdf')
    // The deeds were never asked for.
    expect(api.requests.filter((r) => r.includes('/a2/'))).toEqual([])
  })
})

describe("the owner's Download my vault", () => {
  it('decrypts each stored item with the vault key into the ZIP; one whose first chunk fails is left out, one failing later stops the export', async () => {
    const master = await deriveMasterKey('correct horse battery staple 9!', generateVaultSalt())
    const vault = await testVault()
    const api = new FakeVaultApi(CHUNK, vault)
    const beneficiary = { id: '11111111-1111-4111-8111-111111111111', publicKey: (await generateBeneficiaryKeyPair()).publicKeySpki, keyVersion: 1 }
    const store = (filename: string, type: ItemType, bytes: Uint8Array<ArrayBuffer>, tags: string[] = []) =>
      uploadFile(
        { type, content: new Blob([bytes]), metadata: { filename, mimetype: 'application/pdf', size: bytes.length, tags }, policy: { protocol: 'VERIFIED_DEATH', requiresApprover: false }, beneficiaries: [beneficiary] },
        { fetch: api.fetch, masterKey: master, backoffMs: () => 1, signer: vault.signer },
      )
    const plain = { will: pattern(3 * CHUNK + 5), deeds: pattern(2 * CHUNK, 2), entry: new TextEncoder().encode(JSON.stringify({ site: 'bank', username: 'g', password: 'pw', notes: '' })) }
    const will = await store('will.pdf', 'doc', plain.will, ['family'])
    const deeds = await store('deeds.pdf', 'doc', plain.deeds)
    const entry = await store('bank', 'password', plain.entry)

    const run = async () => {
      const saved: Blob[] = []
      const outcome = await saveExport('vault.zip', async () => ownerSources([will, deeds, entry], master, { fetch: api.fetch }), {
        ...ownerExportOptions,
        picker: null,
        stream: null,
        save: (b) => saved.push(b),
      })
      return { outcome, saved }
    }
    const whole = await run()
    expect(whole.outcome.kind).toBe('saved')
    const entries = readZip(new Uint8Array(await whole.saved[0]!.arrayBuffer()))
    expect(entries.map((e) => e.name)).toEqual(['files/will.pdf', 'files/deeds.pdf', 'passwords/bank.txt', 'manifest.json', 'manifest.csv'])
    expect(entries[0]!.bytes).toEqual(plain.will)
    expect(entries[1]!.bytes).toEqual(plain.deeds)
    expect(text(entries[2]!.bytes)).toContain('Password: pw')
    expect((JSON.parse(text(entries[3]!.bytes)) as ExportManifest).items[0]).toMatchObject({ name: 'will.pdf', tags: ['family'], createdAt: will.createdAt, size: plain.will.length })

    // The deeds' first chunk altered: left out by name, the rest saved.
    const deedsCipher = api.completed.get(deeds.id)!.content
    deedsCipher[40]! ^= 1
    const partial = await run()
    expect(partial.outcome.kind === 'saved' && partial.outcome.report.leftOut.map((l) => l.name)).toEqual(['deeds.pdf'])
    expect(readZip(new Uint8Array(await partial.saved[0]!.arrayBuffer())).map((e) => e.name)).toEqual(['files/will.pdf', 'passwords/bank.txt', 'manifest.json', 'manifest.csv'])
    deedsCipher[40]! ^= 1

    // The will's third chunk altered: the export stops there, naming it, and nothing is saved.
    api.completed.get(will.id)!.content[2 * (CHUNK + 29) + 40]! ^= 1
    const stopped = await run().catch((e: unknown) => e)
    expect(stopped).toBeInstanceOf(ExportStoppedError)
    expect((stopped as ExportStoppedError).itemName).toBe('will.pdf')
  })
})
