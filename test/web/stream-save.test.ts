import { readFileSync } from 'node:fs'
import { runInNewContext } from 'node:vm'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ItemMetadata } from '../../contract/vault-items'
import { DecryptionError, deriveMasterKey, generateBeneficiaryKeyPair, generateVaultSalt, type MasterKey } from '@/crypto'
import { BLOB_SAVE_MAX_BYTES, chooseSaveTarget, downloadItem, readAhead, rechunk, TOO_LARGE_FOR_BROWSER } from '@/features/vault/items/download'
import { lentPieces } from '@/lib/byte-source'
import {
  contentDisposition,
  DOWNLOAD_NOT_STARTED,
  DownloadWorkerUnavailable,
  downloadHeaders,
  downloadId,
  exactLength,
  offerToWorker,
  pullStream,
  SIZE_MISMATCH,
  streamToDownload,
  type DownloadChannel,
  type DownloadWorkerPort,
} from '@/features/vault/items/stream-save'
import { uploadFile } from '@/features/vault/upload/upload-file'
import { PREVIEW_MAX_BYTES, PREVIEW_TOO_LARGE, previewRefusal } from '@/features/vault/upload/file-rules'
import { FakeVaultApi, testVault } from './vault-items-fake-api'

// The streamed download (web/features/vault/items/stream-save.ts and web/public/downloads/sw.js):
// a pull-based stream that reads ahead at most its high-water mark, errors that fail the download
// rather than finish it short, the response headers, the worker that serves a stream once, and
// the owner's download through it with real encryption.

type Bytes = Uint8Array<ArrayBuffer>
const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

/** Pieces of `size` bytes, counting how many the consumer has pulled. */
function counted(count: number, size = 4, failAt = -1) {
  const state = { pulled: 0, finished: false }
  async function* pieces(): AsyncGenerator<Bytes> {
    try {
      for (let i = 0; i < count; i++) {
        if (i === failAt) throw new DecryptionError('The encrypted content could not be decrypted')
        state.pulled++
        yield new Uint8Array(size).fill(i)
      }
    } finally {
      state.finished = true
    }
  }
  return { pieces: pieces(), state }
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = []
  for await (const part of stream as unknown as AsyncIterable<Uint8Array>) parts.push(part)
  return new Uint8Array(await new Blob(parts as BlobPart[]).arrayBuffer())
}

/** The download worker and the browser in one: takes the stream, and on start reads it to "disk". */
function fakeChannel({ start = true }: { start?: boolean } = {}) {
  const fake = {
    offered: [] as Array<{ id: string; headers: [string, string][] }>,
    started: [] as string[],
    saved: null as Promise<Uint8Array> | null,
    closed: false,
    channel: null as unknown as DownloadChannel,
  }
  let stream: ReadableStream<Bytes> | null = null
  let begin!: () => void
  let never!: (error: Error) => void
  const started = new Promise<void>((resolve, reject) => ((begin = resolve), (never = reject)))
  started.catch(() => undefined)
  fake.channel = {
    async offer(id, offered, headers) {
      fake.offered.push({ id, headers })
      await tick() // the round trip to the worker
      stream = offered
      if (!start) setTimeout(() => never(new Error(DOWNLOAD_NOT_STARTED)), 5)
      return { started, close: () => void (fake.closed = true) }
    },
    start(url) {
      fake.started.push(url)
      if (start) {
        fake.saved = readAll(stream!)
        fake.saved.catch(() => undefined)
        begin()
      }
      return () => undefined
    },
  }
  return fake
}

describe('the pull stream', () => {
  it('never reads ahead of its reader by more than its high-water mark', async () => {
    for (const highWaterMark of [0, 1, 2]) {
      const { pieces, state } = counted(10)
      const { stream } = pullStream(pieces, highWaterMark)
      for (let i = 0; i < 5; i++) await tick()
      expect(state.pulled).toBe(highWaterMark)
      const reader = stream.getReader()
      for (let read = 1; read <= 6; read++) {
        await reader.read()
        for (let i = 0; i < 5; i++) await tick()
        expect(state.pulled - read).toBeLessThanOrEqual(highWaterMark)
      }
      await reader.cancel()
    }
  })

  it('errors the stream with the source error, and settles with it', async () => {
    const { pieces } = counted(5, 4, 2)
    const { stream, settled } = pullStream(pieces, 1)
    settled.catch(() => undefined)
    const reader = stream.getReader()
    expect((await reader.read()).value).toEqual(new Uint8Array(4).fill(0))
    expect((await reader.read()).value).toEqual(new Uint8Array(4).fill(1))
    await expect(reader.read()).rejects.toBeInstanceOf(DecryptionError)
    await expect(settled).rejects.toBeInstanceOf(DecryptionError)
  })

  it('stops the source when the reader cancels, and settles as an AbortError', async () => {
    const { pieces, state } = counted(10)
    const { stream, settled } = pullStream(pieces, 1)
    settled.catch(() => undefined)
    const reader = stream.getReader()
    await reader.read()
    await reader.cancel('the user cancelled it in the downloads list')
    expect(state.finished).toBe(true)
    await expect(settled).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('checks the announced length: longer or shorter fails', async () => {
    const drain = async (size: number) => {
      for await (const _ of exactLength(counted(3).pieces, size));
    }
    await expect(drain(12)).resolves.toBeUndefined()
    await expect(drain(11)).rejects.toThrow(SIZE_MISMATCH)
    await expect(drain(13)).rejects.toThrow(SIZE_MISMATCH)
  })
})

describe('reading the ciphertext ahead', () => {
  it('fetches the next chunk while the current one is worked on, never more than one ahead', async () => {
    const { pieces, state } = counted(5)
    const ahead = readAhead(pieces)
    const seen: number[] = []
    for await (const piece of ahead) {
      for (let i = 0; i < 5; i++) await tick()
      // The consumer holds piece n (0-based): the source has produced n + 2 at most.
      expect(state.pulled - seen.length).toBeLessThanOrEqual(2)
      if (seen.length < 4) expect(state.pulled).toBe(seen.length + 2)
      seen.push(piece[0]!)
    }
    expect(seen).toEqual([0, 1, 2, 3, 4])
  })

  it('surfaces a failure ahead when the consumer reaches it, and stops the source on an early stop', async () => {
    const failing = readAhead(counted(5, 4, 2).pieces)
    expect((await failing.next()).value![0]).toBe(0)
    expect((await failing.next()).value![0]).toBe(1)
    await expect(failing.next()).rejects.toBeInstanceOf(DecryptionError)

    const { pieces, state } = counted(10)
    for await (const _ of readAhead(pieces)) break
    expect(state.finished).toBe(true)
    expect(state.pulled).toBe(2)
  })
})

describe('reassembling the ciphertext', () => {
  it('cuts the chunks into buffers reused in turn, each whole when it is yielded', async () => {
    async function* pieces() {
      for (const size of [3, 1, 7, 2, 6]) yield new Uint8Array(size).fill(size)
    }
    const seen: Array<{ bytes: number[]; buffer: ArrayBufferLike }> = []
    for await (const chunk of rechunk(pieces(), 5, 2)) seen.push({ bytes: [...chunk], buffer: chunk.buffer })
    expect(seen.map((c) => c.bytes)).toEqual([
      [3, 3, 3, 1, 7],
      [7, 7, 7, 7, 7],
      [7, 2, 2, 6, 6],
      [6, 6, 6, 6],
    ])
    expect(new Set(seen.map((c) => c.buffer)).size).toBe(2)
    expect(seen[2]!.buffer).toBe(seen[0]!.buffer)
  })

  it('reads a byte stream (a fetch body) into one buffer that every read reuses', async () => {
    const bytes = crypto.getRandomValues(new Uint8Array(10_000))
    let offset = 0
    const reads = { inPlace: 0, other: 0 }
    const body = new ReadableStream({
      type: 'bytes',
      pull(controller) {
        if (offset >= bytes.length) {
          controller.close()
          // A reader waiting with its buffer gets it back, empty.
          return controller.byobRequest?.respond(0)
        }
        const request = controller.byobRequest
        if (!request?.view) {
          reads.other++
          controller.enqueue(bytes.slice(offset, (offset += 700)))
          return
        }
        const view = new Uint8Array(request.view.buffer, request.view.byteOffset, Math.min(700, request.view.byteLength, bytes.length - offset))
        view.set(bytes.subarray(offset, offset + view.length))
        offset += view.length
        reads.inPlace++
        request.respond(view.length)
      },
    })
    const out: number[] = []
    for await (const piece of lentPieces(body, 1024)) out.push(...piece)
    expect(Buffer.from(out).equals(Buffer.from(bytes))).toBe(true)
    expect(reads).toEqual({ inPlace: 15, other: 0 })
  })
})

describe('the download response headers', () => {
  it('name the file in ASCII and exactly in UTF-8, with no way to break out of the header', () => {
    expect(contentDisposition('deed.pdf')).toBe(`attachment; filename="deed.pdf"; filename*=UTF-8''deed.pdf`)
    expect(contentDisposition('Grand-mère’s "letters" (1998).txt')).toBe(
      `attachment; filename="Grand-m_re_s _letters_ (1998).txt"; filename*=UTF-8''Grand-m%C3%A8re%E2%80%99s%20%22letters%22%20%281998%29.txt`,
    )
    expect(contentDisposition('a\r\nSet-Cookie: x=1/..\\b')).toBe(`attachment; filename="a__Set-Cookie: x=1_.._b"; filename*=UTF-8''a__Set-Cookie%3A%20x%3D1_.._b`)
    expect(contentDisposition('  ')).toContain(`filename*=UTF-8''download`)
  })

  it('carry the type only when it is a plain media type, and the length when known', () => {
    expect(downloadHeaders({ filename: 'a.png', mimetype: 'image/png', size: 5 })).toEqual([
      ['Content-Type', 'image/png'],
      ['Content-Disposition', `attachment; filename="a.png"; filename*=UTF-8''a.png`],
      ['Content-Length', '5'],
    ])
    expect(downloadHeaders({ filename: 'a', mimetype: 'text/html\r\nX: y' })[0]).toEqual(['Content-Type', 'application/octet-stream'])
    expect(downloadHeaders({ filename: 'a', mimetype: '' }).map(([name]) => name)).toEqual(['Content-Type', 'Content-Disposition'])
  })

  it('use an unguessable id the worker accepts', () => {
    const ids = new Set(Array.from({ length: 100 }, downloadId))
    expect(ids.size).toBe(100)
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/)
  })
})

describe('streaming to a download', () => {
  it('hands the worker the stream and its headers, then starts the download at /downloads/<id>', async () => {
    const fake = fakeChannel()
    await streamToDownload(counted(3).pieces, { filename: 'notes.txt', mimetype: 'text/plain', size: 12 }, fake.channel)
    expect(fake.offered).toHaveLength(1)
    expect(fake.started).toEqual([`/downloads/${fake.offered[0]!.id}`])
    expect(fake.offered[0]!.headers).toContainEqual(['Content-Length', '12'])
    expect(await fake.saved).toEqual(new Uint8Array([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]))
    expect(fake.closed).toBe(true)
  })

  it('fails the download and rejects with the error when a piece fails to decrypt', async () => {
    const fake = fakeChannel()
    const { pieces, state } = counted(6, 4, 3)
    await expect(streamToDownload(pieces, { filename: 'x', mimetype: '' }, fake.channel)).rejects.toBeInstanceOf(DecryptionError)
    // The browser's side of the stream fails too: the file is not finished as if complete.
    await expect(fake.saved).rejects.toBeInstanceOf(DecryptionError)
    expect(state.finished).toBe(true)
  })

  it('starts no download when the source fails before the worker holds it', async () => {
    const fake = fakeChannel()
    await expect(streamToDownload(counted(3, 4, 0).pieces, { filename: 'x', mimetype: '' }, fake.channel)).rejects.toBeInstanceOf(DecryptionError)
    expect(fake.started).toEqual([])
  })

  it('fails when the browser never asks for the download', async () => {
    const fake = fakeChannel({ start: false })
    await expect(streamToDownload(counted(3).pieces, { filename: 'x', mimetype: '' }, fake.channel)).rejects.toThrow(DOWNLOAD_NOT_STARTED)
  })
})

describe('the owner download through the stream', () => {
  const CHUNK = 1024
  let master: MasterKey
  let beneficiary: { id: string; publicKey: string; keyVersion: number }
  let vault: Awaited<ReturnType<typeof testVault>>
  beforeAll(async () => {
    master = await deriveMasterKey('correct horse battery staple 9!', generateVaultSalt())
    beneficiary = { id: '11111111-1111-4111-8111-111111111111', publicKey: (await generateBeneficiaryKeyPair()).publicKeySpki, keyVersion: 1 }
    vault = await testVault()
  })

  async function stored(bytes: Uint8Array<ArrayBuffer>) {
    const api = new FakeVaultApi(CHUNK, vault)
    const metadata: ItemMetadata = { filename: 'ledger 2024 – final.pdf', mimetype: 'application/pdf', size: bytes.length, tags: [] }
    const item = await uploadFile(
      {
        type: 'doc',
        content: new Blob([bytes]),
        metadata,
        policy: { protocol: 'VERIFIED_DEATH', requiresApprover: true, approverContact: 'lawyer@example.com' },
        beneficiaries: [beneficiary],
      },
      { fetch: api.fetch, masterKey: master, backoffMs: () => 1, signer: vault.signer },
    )
    return { api, item, metadata }
  }

  it('saves the decrypted file byte for byte, named and sized', async () => {
    const bytes = crypto.getRandomValues(new Uint8Array(3 * CHUNK + 17))
    const { api, item, metadata } = await stored(bytes)
    const fake = fakeChannel()
    expect(await downloadItem(item, metadata, master, { fetch: api.fetch, picker: null, stream: fake.channel })).toBe('saved')
    expect(Buffer.from(await fake.saved!).equals(Buffer.from(bytes))).toBe(true)
    expect(fake.offered[0]!.headers).toEqual(downloadHeaders({ ...metadata, size: bytes.length }))
  })

  it('fails on a tampered byte without finishing the file', async () => {
    const bytes = crypto.getRandomValues(new Uint8Array(3 * CHUNK))
    const { api, item, metadata } = await stored(bytes)
    const stored_ = api.completed.get(item.id)!.content
    stored_[2 * CHUNK + 40] = stored_[2 * CHUNK + 40]! ^ 1
    const fake = fakeChannel()
    await expect(downloadItem(item, metadata, master, { fetch: api.fetch, picker: null, stream: fake.channel })).rejects.toBeInstanceOf(DecryptionError)
    await expect(fake.saved).rejects.toBeInstanceOf(DecryptionError)
  })

  it('reports a download cancelled in the browser as cancelled', async () => {
    const { api, item, metadata } = await stored(crypto.getRandomValues(new Uint8Array(4 * CHUNK)))
    const channel: DownloadChannel = {
      async offer(_id, stream) {
        void stream.getReader().cancel('cancelled in the downloads list')
        return { started: Promise.resolve(), close: () => undefined }
      },
      start: () => () => undefined,
    }
    expect(await downloadItem(item, metadata, master, { fetch: api.fetch, picker: null, stream: channel })).toBe('cancelled')
  })

  it('falls back to the Blob path, before fetching anything, when the download worker cannot be installed', async () => {
    const bytes = crypto.getRandomValues(new Uint8Array(2 * CHUNK + 3))
    const { api, item, metadata } = await stored(bytes)
    const unavailable: DownloadChannel = {
      prepare: async () => {
        throw new DownloadWorkerUnavailable(new Error('Service workers are disabled'))
      },
      offer: async () => {
        throw new Error('never offered')
      },
      start: () => () => undefined,
    }
    const saved: Blob[] = []
    expect(await downloadItem(item, metadata, master, { fetch: api.fetch, picker: null, stream: unavailable, save: (blob) => saved.push(blob) })).toBe('saved')
    expect(Buffer.from(await saved[0]!.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true)
    const big = { ...item, plainSize: BLOB_SAVE_MAX_BYTES + 1 }
    await expect(downloadItem(big, metadata, master, { fetch: api.fetch, picker: null, stream: unavailable, save: () => undefined })).rejects.toThrow(TOO_LARGE_FOR_BROWSER)
    expect(api.count('GET', /\/content$/)).toBe(1)
  })

  it('keeps the Blob path, with no download worker, to files it can hold, before fetching anything', async () => {
    await expect(chooseSaveTarget('big.iso', { picker: null, stream: null, size: BLOB_SAVE_MAX_BYTES + 1 })).rejects.toThrow(TOO_LARGE_FOR_BROWSER)
    expect(await chooseSaveTarget('small.txt', { picker: null, stream: null, size: BLOB_SAVE_MAX_BYTES })).toHaveProperty('write')
    // With a download worker the size is no obstacle.
    expect(await chooseSaveTarget('big.iso', { picker: null, stream: fakeChannel().channel, size: 10 * BLOB_SAVE_MAX_BYTES })).toHaveProperty('write')
  })
})

describe('previews of large files', () => {
  it('are refused above the limit, with the reason in plain words', () => {
    expect(previewRefusal(PREVIEW_MAX_BYTES)).toBeNull()
    expect(previewRefusal(PREVIEW_MAX_BYTES + 1)).toBe(PREVIEW_TOO_LARGE)
    expect(PREVIEW_TOO_LARGE).toBe('This file is too large to preview here. Download it instead.')
  })
})

// ---- The worker script itself, run in a bare context with the platform's streams, responses and ports ----

type Listener = (event: unknown) => void
type Reply = { type: string }

function loadWorker() {
  const listeners = new Map<string, Listener>()
  const timers: Array<() => void> = []
  const self = {
    location: { origin: 'https://vault.example' },
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    skipWaiting: () => undefined,
    clients: { claim: async () => undefined },
  }
  runInNewContext(readFileSync('web/public/downloads/sw.js', 'utf8'), {
    self,
    ReadableStream,
    Response,
    Headers,
    URL,
    Set,
    Map,
    Uint8Array,
    setTimeout: (fn: () => void) => timers.push(fn),
    clearTimeout: () => undefined,
  })
  return {
    expire: () => timers.splice(0).forEach((fn) => fn()),
    /** Delivers a page's message with the port it transferred. */
    message(data: unknown, port: MessagePort, origin = 'https://vault.example') {
      listeners.get('message')!({ data, origin, ports: [port] })
    },
    fetch(url: string, method = 'GET'): Promise<Response> | null {
      let answer: Promise<Response> | null = null
      listeners.get('fetch')!({ request: { url, method }, respondWith: (response: Response | Promise<Response>) => (answer = Promise.resolve(response)) })
      return answer
    },
  }
}

/** The page's end of an offer's port: what the worker said, and answers to its pulls from `pieces`. */
function pagePort(pieces: Array<Uint8Array | 'error'> = []) {
  const { port1, port2 } = new MessageChannel()
  const replies: string[] = []
  port1.onmessage = (event: MessageEvent<Reply>) => {
    replies.push(event.data.type)
    if (event.data.type !== 'pull') return
    const next = pieces.shift()
    if (next === undefined) port1.postMessage({ type: 'end' })
    else if (next === 'error') port1.postMessage({ type: 'error' })
    else port1.postMessage({ type: 'chunk', bytes: next }, [next.buffer as ArrayBuffer])
  }
  return { port: port2, replies, close: () => port1.close() }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

/**
 * Reads a download's body as the browser does: each piece copied out (into the file on disk)
 * before the next is asked for. Node's own `text()` and `arrayBuffer()` keep every piece until the
 * end, which the worker, releasing each piece once the next is asked for, does not allow.
 */
async function saveLikeTheBrowser(response: Response): Promise<Uint8Array> {
  const reader = response.body!.getReader()
  const copies: Uint8Array[] = []
  for (let result = await reader.read(); !result.done; result = await reader.read()) copies.push(result.value.slice())
  return new Uint8Array(await new Blob(copies as BlobPart[]).arrayBuffer())
}

describe('the download worker', () => {
  const ID = 'AbCdEfGhIjKlMnOpQrStUv'
  const text = (value: string) => new TextEncoder().encode(value)
  const offer = (worker: ReturnType<typeof loadWorker>, page: ReturnType<typeof pagePort>) =>
    worker.message(
      {
        type: 'offer',
        id: ID,
        headers: [
          ['Content-Type', 'text/plain'],
          ['Content-Disposition', contentDisposition('a.txt')],
          ['Set-Cookie', 'session=stolen'],
        ],
      },
      page.port,
    )

  it('serves an offer once at /downloads/<id>, with only the allowed headers, asking the page for each piece', async () => {
    const worker = loadWorker()
    const page = pagePort([text('plain '), text('bytes')])
    offer(worker, page)
    await settle()
    expect(page.replies).toEqual(['ready'])
    const response = await worker.fetch(`https://vault.example/downloads/${ID}`)!
    expect(response.status).toBe(200)
    expect(new TextDecoder().decode(await saveLikeTheBrowser(response))).toBe('plain bytes')
    expect(page.replies).toEqual(['ready', 'started', 'pull', 'pull', 'pull'])
    expect(response.headers.get('content-disposition')).toBe(contentDisposition('a.txt'))
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('set-cookie')).toBeNull()
    expect((await worker.fetch(`https://vault.example/downloads/${ID}`)!).status).toBe(404)
    page.close()
  })

  it('drops each piece the browser has copied out when it asks for the next, so nothing piles up for the garbage collector', async () => {
    const worker = loadWorker()
    const page = pagePort([text('first'), text('second'), text('third')])
    offer(worker, page)
    const reader = (await worker.fetch(`https://vault.example/downloads/${ID}`)!).body!.getReader()
    const first = (await reader.read()).value!
    expect(new TextDecoder().decode(first)).toBe('first')
    const second = (await reader.read()).value!
    await settle()
    // Taking the second piece means the first is written: its buffer is detached, its memory freed.
    expect(first.byteLength).toBe(0)
    expect(first.buffer.byteLength).toBe(0)
    expect(new TextDecoder().decode(second)).toBe('second')
    const third = (await reader.read()).value!
    await settle()
    expect(second.byteLength).toBe(0)
    expect(new TextDecoder().decode(third)).toBe('third')
    expect((await reader.read()).done).toBe(true)
    page.close()
  })

  it('never drops the piece the browser is still writing, even while it asks the page for the next one', async () => {
    const worker = loadWorker()
    const page = pagePort([text('first'), text('second')])
    offer(worker, page)
    const reader = (await worker.fetch(`https://vault.example/downloads/${ID}`)!).body!.getReader()
    const first = (await reader.read()).value!
    // Taking the first piece asks the page for the second, while the browser still writes the first.
    await settle()
    expect(page.replies.filter((r) => r === 'pull')).toHaveLength(2)
    expect(new TextDecoder().decode(first)).toBe('first')
    const second = (await reader.read()).value!
    await settle()
    // The page has said the file is complete; the last piece is still the browser's to write.
    expect(page.replies.filter((r) => r === 'pull')).toHaveLength(3)
    expect(new TextDecoder().decode(second)).toBe('second')
    expect((await reader.read()).done).toBe(true)
    page.close()
  })

  it('keeps one piece ready for the browser and asks for the next only once the browser has taken it', async () => {
    const worker = loadWorker()
    const page = pagePort([text('a'), text('b'), text('c')])
    offer(worker, page)
    const response = await worker.fetch(`https://vault.example/downloads/${ID}`)!
    await settle()
    const pulls = () => page.replies.filter((r) => r === 'pull').length
    // One piece is asked for at once, so the browser never waits on the page between two pieces.
    expect(pulls()).toBe(1)
    const reader = response.body!.getReader()
    for (let read = 1; read <= 3; read++) {
      await reader.read()
      await settle()
      expect(pulls()).toBe(read + 1)
    }
    page.close()
  })

  it('fails the download when the page reports a failed piece, instead of ending it short', async () => {
    const worker = loadWorker()
    const page = pagePort([text('first '), 'error'])
    offer(worker, page)
    const response = await worker.fetch(`https://vault.example/downloads/${ID}`)!
    await expect(response.text()).rejects.toThrow()
    page.close()
  })

  it('tells the page when the browser cancels the download', async () => {
    const worker = loadWorker()
    const page = pagePort([text('a'), text('b')])
    offer(worker, page)
    const response = await worker.fetch(`https://vault.example/downloads/${ID}`)!
    const reader = response.body!.getReader()
    await reader.read()
    await reader.cancel('cancelled in the downloads list')
    await settle()
    expect(page.replies.at(-1)).toBe('cancel')
    page.close()
  })

  it('leaves every other request alone, and ignores other origins and malformed or old-style offers', async () => {
    const worker = loadWorker()
    const page = pagePort()
    offer(worker, page)
    expect(worker.fetch('https://vault.example/downloads/sw.js')).toBeNull()
    expect(worker.fetch('https://vault.example/vault')).toBeNull()
    expect(worker.fetch(`https://elsewhere.example/downloads/${ID}`)).toBeNull()
    expect(worker.fetch(`https://vault.example/downloads/${ID}`, 'POST')).toBeNull()
    const short = pagePort()
    worker.message({ type: 'offer', id: 'short', headers: [] }, short.port)
    const foreign = pagePort()
    worker.message({ type: 'offer', id: 'AAAAAAAAAAAAAAAAAAAAAAAAAA', headers: [] }, foreign.port, 'https://evil.example')
    // A page from before this worker handed over a whole stream: refused, not left hanging.
    const old = pagePort()
    worker.message({ type: 'download', id: 'BBBBBBBBBBBBBBBBBBBBBBBBBB', stream: new Blob(['x']).stream(), headers: [] }, old.port)
    await settle()
    expect([page.replies, short.replies, foreign.replies, old.replies]).toEqual([['ready'], ['refused'], [], ['refused']])
    expect((await worker.fetch('https://vault.example/downloads/AAAAAAAAAAAAAAAAAAAAAAAAAA')!).status).toBe(404)
    for (const p of [page, short, foreign, old]) p.close()
  })

  it('forgets an offer nobody asked for, telling the page', async () => {
    const worker = loadWorker()
    const page = pagePort()
    offer(worker, page)
    worker.expire()
    await settle()
    expect(page.replies).toEqual(['ready', 'expired'])
    expect((await worker.fetch(`https://vault.example/downloads/${ID}`)!).status).toBe(404)
    page.close()
  })
})

// ---- The page and the worker together: offerToWorker against the worker script ----

describe('handing a download to the worker', () => {
  /** The page's channel wired to the worker script, and the browser reading the response. */
  function wired() {
    const worker = loadWorker()
    const state = { saved: null as Promise<Uint8Array> | null, response: null as Response | null }
    const target: DownloadWorkerPort = {
      postMessage(message, transfer) {
        const port = transfer?.[0]
        if (port instanceof MessagePort) worker.message(message, port)
      },
    }
    const channel: DownloadChannel = {
      offer: offerToWorker(async () => target),
      start(url) {
        state.saved = worker.fetch(`https://vault.example${url}`)!.then(async (response) => {
          state.response = response
          return saveLikeTheBrowser(response)
        })
        state.saved.catch(() => undefined)
        return () => undefined
      },
    }
    return { worker, channel, state }
  }

  it('moves each piece to the worker by transfer, keeping no copy in the page, and saves them in order', async () => {
    const { channel, state } = wired()
    const handedOver: Bytes[] = []
    async function* pieces(): AsyncGenerator<Bytes> {
      for (let i = 0; i < 4; i++) {
        const piece = new Uint8Array(1000).fill(i)
        handedOver.push(piece)
        yield piece
      }
    }
    await streamToDownload(pieces(), { filename: 'a.bin', mimetype: '', size: 4000 }, channel)
    const saved = await state.saved!
    expect(saved.length).toBe(4000)
    expect([0, 999, 1000, 3999].map((i) => saved[i])).toEqual([0, 0, 1, 3])
    // Transferred, so detached here: the page holds none of the bytes it handed over.
    expect(handedOver.map((piece) => piece.byteLength)).toEqual([0, 0, 0, 0])
  })

  it('fails the saved file when a piece fails to decrypt', async () => {
    const { channel, state } = wired()
    const { pieces } = counted(5, 4, 2)
    await expect(streamToDownload(pieces, { filename: 'x', mimetype: '' }, channel)).rejects.toBeInstanceOf(DecryptionError)
    await expect(state.saved).rejects.toThrow()
  })

  it('stops decrypting when the browser cancels the download', async () => {
    const worker = loadWorker()
    const target: DownloadWorkerPort = { postMessage: (message, transfer) => worker.message(message, transfer![0] as MessagePort) }
    const { pieces, state } = counted(50)
    const channel: DownloadChannel = {
      offer: offerToWorker(async () => target),
      start(url) {
        void worker.fetch(`https://vault.example${url}`)!.then(async (response) => {
          const reader = response.body!.getReader()
          await reader.read()
          await reader.cancel('cancelled in the downloads list')
        })
        return () => undefined
      },
    }
    await expect(streamToDownload(pieces, { filename: 'x', mimetype: '' }, channel)).rejects.toMatchObject({ name: 'AbortError' })
    expect(state.finished).toBe(true)
    expect(state.pulled).toBeLessThan(5)
  })
})
