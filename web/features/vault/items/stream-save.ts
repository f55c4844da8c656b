import { isAbortError } from './http'

// Saving a decrypted file as a stream, for browsers without the File System Access picker (and
// automated ones): the plaintext pieces become a pull-based ReadableStream that reads ahead at most
// DOWNLOAD_READ_AHEAD pieces, the same-origin download Service Worker (web/public/downloads/sw.js)
// takes them one by one as the browser asks for them, and a hidden iframe navigated to
// /downloads/<id> makes the browser save what the worker answers there. Memory stays bounded
// whatever the file size: only a piece or two is ever held, and the browser writes the rest to
// disk as it arrives.

type Bytes = Uint8Array<ArrayBuffer>

/** Decrypted pieces (8 MiB each) queued ahead of the reader; the decryption waits beyond that. */
export const DOWNLOAD_READ_AHEAD = 1
/**
 * The worker's script; the query names the page-to-worker protocol, so a page never talks to a
 * worker registered by an older page that spoke another (a new URL makes the browser install the
 * script again).
 */
export const DOWNLOAD_WORKER_URL = '/downloads/sw.js?protocol=2'
export const DOWNLOAD_WORKER_SCOPE = '/downloads/'
/** How long the worker may take to take the stream, and the browser to ask for it. */
export const DOWNLOAD_START_TIMEOUT_MS = 30_000
/** A message to the worker now and then keeps it alive while a long download runs. */
const KEEPALIVE_MS = 10_000

export const DOWNLOAD_NOT_STARTED = 'The browser did not start the download. Please try again.'
export const DOWNLOAD_CANCELLED = 'The download was cancelled.'

export function downloadCancelled(): DOMException {
  return new DOMException(DOWNLOAD_CANCELLED, 'AbortError')
}

/**
 * The pieces as a ReadableStream that pulls the next piece only when its queue (at most
 * `highWaterMark` pieces) has room: nothing is decrypted ahead of the reader beyond that. A failure
 * of the source errors the stream (the reader sees it, and a download fails rather than finishing
 * short); a reader's cancel stops the source. `settled` resolves when the stream has closed after
 * the last piece, and rejects with the source's error or, on a cancel, an AbortError.
 */
export function pullStream(pieces: AsyncIterable<Bytes>, highWaterMark = DOWNLOAD_READ_AHEAD): { stream: ReadableStream<Bytes>; settled: Promise<void> } {
  const iterator = pieces[Symbol.asyncIterator]()
  let settle!: (error?: unknown) => void
  const settled = new Promise<void>((resolve, reject) => {
    let done = false
    settle = (error) => {
      if (done) return
      done = true
      if (error === undefined) resolve()
      else reject(error)
    }
  })
  // Whoever awaits it sees the failure; nobody has to.
  settled.catch(() => undefined)
  const stream = new ReadableStream<Bytes>(
    {
      async pull(controller) {
        let result: IteratorResult<Bytes>
        try {
          result = await iterator.next()
        } catch (error) {
          controller.error(error)
          settle(error ?? new Error('The download failed.'))
          return
        }
        if (result.done) {
          controller.close()
          settle()
        } else {
          controller.enqueue(result.value)
        }
      },
      async cancel(reason) {
        settle(isAbortError(reason) ? reason : downloadCancelled())
        await iterator.return?.()
      },
    },
    new CountQueuingStrategy({ highWaterMark }),
  )
  return { stream, settled }
}

export const SIZE_MISMATCH = 'The decrypted file is not the size the vault recorded for it.'

/**
 * The pieces, checked against the size the download announced (its Content-Length): a source that
 * runs past it fails before the extra bytes go out, and one that ends short fails rather than
 * closing the download as if it were whole.
 */
export async function* exactLength(pieces: AsyncIterable<Bytes>, size: number): AsyncGenerator<Bytes, void, undefined> {
  let total = 0
  for await (const piece of pieces) {
    total += piece.length
    if (total > size) throw new Error(SIZE_MISMATCH)
    yield piece
  }
  if (total !== size) throw new Error(SIZE_MISMATCH)
}

/** RFC 5987/6266: a quoted ASCII fallback and the exact UTF-8 name. */
export function contentDisposition(filename: string): string {
  const name = filename.replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim() || 'download'
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["%]/g, '_')
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`
}

/** The download response's headers: the file's type (when it is a plain media type), its length and name. */
export function downloadHeaders(file: { filename: string; mimetype: string; size?: number }): [string, string][] {
  const type = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/i.test(file.mimetype) ? file.mimetype : 'application/octet-stream'
  const headers: [string, string][] = [
    ['Content-Type', type],
    ['Content-Disposition', contentDisposition(file.filename)],
  ]
  if (file.size !== undefined && Number.isSafeInteger(file.size) && file.size >= 0) headers.push(['Content-Length', String(file.size)])
  return headers
}

/** An unguessable id: 128 random bits, base64url. */
export function downloadId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** The download worker could not be installed (Service Workers turned off, a private window…). */
export class DownloadWorkerUnavailable extends Error {
  constructor(cause?: unknown) {
    super('The download helper could not be installed.', { cause })
    this.name = 'DownloadWorkerUnavailable'
  }
}

/** What the stream saver needs of the download worker; the browser's by default, a fake in tests. */
export interface DownloadChannel {
  /** Makes sure the worker runs, before anything is read; rejects with DownloadWorkerUnavailable. */
  prepare?(): Promise<void>
  /**
   * Hands the stream and its headers to the worker under `id`; resolves once the worker holds it,
   * with a handle that reports when the browser asks for it and that ends the keep-alive.
   */
  offer(id: string, stream: ReadableStream<Bytes>, headers: [string, string][]): Promise<{ started: Promise<void>; close(): void }>
  /** Makes the browser save what the worker serves at `url`; returns the clean-up. */
  start(url: string): () => void
}

function waitForActivation(worker: ServiceWorker): Promise<void> {
  return new Promise((resolve, reject) => {
    if (worker.state === 'activated') return resolve()
    worker.addEventListener('statechange', () => {
      if (worker.state === 'activated') resolve()
      else if (worker.state === 'redundant') reject(new Error('The download helper could not be installed.'))
    })
  })
}

let registration: Promise<ServiceWorkerRegistration> | null = null

/** Registers the download worker once per page (its scope is /downloads/ only) and waits until it runs. */
function downloadWorker(): Promise<ServiceWorker> {
  registration ??= navigator.serviceWorker.register(DOWNLOAD_WORKER_URL, { scope: DOWNLOAD_WORKER_SCOPE, type: 'classic' }).catch((error: unknown) => {
    registration = null
    throw error
  })
  return registration.then(async (reg) => {
    const worker = reg.installing ?? reg.waiting ?? reg.active
    if (!worker) throw new Error('The download helper could not be installed.')
    await waitForActivation(worker)
    return reg.active ?? worker
  })
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms)
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    )
  })
}

/** What the page needs of the download worker: the browser's ServiceWorker, or a stand-in in tests. */
export interface DownloadWorkerPort {
  postMessage(message: unknown, transfer?: Transferable[]): void
}

/**
 * Offers a stream to a download worker reached by postMessage. The worker asks for each piece over
 * a MessagePort once the browser has taken the one before, and the piece's buffer is transferred
 * to it, not copied: the page keeps nothing of a piece it has handed over (a transferred stream
 * would clone every piece, leaving both copies to the garbage collector).
 */
export function offerToWorker(worker: () => Promise<DownloadWorkerPort>): DownloadChannel['offer'] {
  return async (id, stream, headers) => {
    const target = await worker()
    const channel = new MessageChannel()
    const port = channel.port1
    const reader = stream.getReader()
    let ready!: () => void
    let refused!: (error: Error) => void
    const accepted = new Promise<void>((resolve, reject) => ((ready = resolve), (refused = reject)))
    let started!: () => void
    let expired!: (error: Error) => void
    let asked = false
    const fetched = new Promise<void>((resolve, reject) => ((started = resolve), (expired = reject)))
    fetched.catch(() => undefined)
    let keepalive: ReturnType<typeof setInterval> | undefined
    let ended = false
    /** The hand-over is over: after the last piece, or withdrawn (`reason`: the source is cancelled and the worker told). */
    const end = (reason?: unknown) => {
      if (ended) return
      ended = true
      clearInterval(keepalive)
      port.onmessage = null
      if (reason === undefined) return
      reader.cancel(reason).catch(() => undefined)
      port.postMessage({ type: 'error' })
    }
    const handOver = async () => {
      let result: ReadableStreamReadResult<Bytes>
      try {
        result = await reader.read()
      } catch {
        // The source failed (a chunk that did not decrypt): so does the download.
        if (!ended) port.postMessage({ type: 'error' })
        end()
        return
      }
      if (ended) return
      if (result.done) {
        port.postMessage({ type: 'end' })
        end()
        return
      }
      const piece = result.value
      const whole = piece.byteOffset === 0 && piece.byteLength === piece.buffer.byteLength ? piece : piece.slice()
      port.postMessage({ type: 'chunk', bytes: whole }, [whole.buffer])
    }
    port.onmessage = (event: MessageEvent<{ type?: string }>) => {
      const type = event.data?.type
      if (type === 'ready') ready()
      else if (type === 'started') ((asked = true), started())
      else if (type === 'pull') void handOver()
      else if (type === 'cancel') end(downloadCancelled())
      else if (type === 'expired' || type === 'refused') {
        const error = new Error(DOWNLOAD_NOT_STARTED)
        if (type === 'expired') expired(error)
        else refused(error)
        end(error)
      }
    }
    target.postMessage({ type: 'offer', id, headers }, [channel.port2])
    try {
      await withTimeout(accepted, DOWNLOAD_START_TIMEOUT_MS, DOWNLOAD_NOT_STARTED)
    } catch (error) {
      end(error)
      throw error
    }
    keepalive = setInterval(() => target.postMessage({ type: 'keepalive' }), KEEPALIVE_MS)
    return {
      started: fetched,
      close() {
        // A download the browser never asked for is withdrawn; one it did goes on to its last piece.
        if (!asked) end(new Error(DOWNLOAD_NOT_STARTED))
      },
    }
  }
}

/** The browser's download worker (web/public/downloads/sw.js), registered on first use. */
export const browserDownloadChannel: DownloadChannel = {
  async prepare() {
    try {
      await downloadWorker()
    } catch (error) {
      throw new DownloadWorkerUnavailable(error)
    }
  },
  offer: offerToWorker(downloadWorker),
  start(url) {
    // A same-origin frame's navigation goes through the worker (its scope covers the URL); an
    // attachment response turns it into a download, and the page itself stays where it is.
    const frame = document.createElement('iframe')
    frame.hidden = true
    frame.setAttribute('aria-hidden', 'true')
    frame.tabIndex = -1
    frame.src = url
    document.body.appendChild(frame)
    // The frame goes once the browser has the download in hand.
    return () => setTimeout(() => frame.remove(), 5_000)
  },
}

/** Whether this browser can stream a download through a same-origin Service Worker. */
export function streamDownloadSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    window.isSecureContext &&
    typeof MessageChannel === 'function' &&
    typeof ReadableStream === 'function'
  )
}

/**
 * Streams the pieces to disk through the download worker. Resolves once the last piece has been
 * handed over; rejects with the source's error (the browser's download then fails too, so no
 * half-decrypted file is left as if complete), with an AbortError if the download was cancelled
 * in the browser, or if the browser never asked for it; with DownloadWorkerUnavailable, before
 * reading any piece, if the worker cannot be installed.
 */
export async function streamToDownload(
  pieces: AsyncIterable<Bytes>,
  file: { filename: string; mimetype: string; size?: number },
  channel: DownloadChannel = browserDownloadChannel,
  highWaterMark = DOWNLOAD_READ_AHEAD,
): Promise<void> {
  // Nothing is read (nor fetched) until the worker is there to take it.
  await channel.prepare?.()
  const sized = file.size !== undefined && Number.isSafeInteger(file.size) && file.size >= 0
  const { stream, settled } = pullStream(sized ? exactLength(pieces, file.size!) : pieces, highWaterMark)
  let failure: { error: unknown } | null = null
  settled.catch((error: unknown) => (failure = { error }))
  const id = downloadId()
  let handle: Awaited<ReturnType<DownloadChannel['offer']>>
  try {
    handle = await channel.offer(id, stream, downloadHeaders(file))
  } catch (error) {
    await stream.cancel(error).catch(() => undefined)
    throw error
  }
  try {
    // A source that failed before the worker held the stream: no download is started.
    if (failure) throw (failure as { error: unknown }).error
    const cleanup = channel.start(`${DOWNLOAD_WORKER_SCOPE}${id}`)
    try {
      // Started (even a small file read whole already counts only once the browser asked for it), or failed.
      await withTimeout(Promise.race([handle.started, settled.then(() => handle.started)]), DOWNLOAD_START_TIMEOUT_MS, DOWNLOAD_NOT_STARTED)
      await settled
    } finally {
      cleanup()
    }
  } finally {
    handle.close()
  }
}
