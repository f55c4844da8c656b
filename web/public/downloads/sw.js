// The download Service Worker: its scope is /downloads/ only, so it controls nothing else in the
// app. The page decrypts a file chunk by chunk and offers it here with the response headers and a
// MessagePort; the worker answers one GET /downloads/<id> with a stream that asks the page for
// each next piece over that port ("pull") only when the browser has taken the one before, and the
// page hands the piece over by transfer (its buffer moves here, never copied), so at most a piece
// or two is held whatever the file's size. The browser saves the response to disk as a download.
// Nothing leaves the browser: the pieces only flow from the page to its own origin's download
// manager, and this worker never sees a key. An id is unguessable, served once, and forgotten
// after a minute if it is never asked for (the page is then told, and stops its download).

const EXPIRY_MS = 60_000
const ID = /^\/downloads\/([A-Za-z0-9_-]{22,64})$/
// The only headers a page may set on its download's response.
const ALLOWED_HEADERS = new Set(['content-type', 'content-length', 'content-disposition'])
const FAILED = 'The download failed.'

/** id → { port, headers, timer } */
const pending = new Map()

self.addEventListener('install', () => self.skipWaiting())
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))

self.addEventListener('message', (event) => {
  const data = event.data
  if (event.origin && event.origin !== self.location.origin) return
  // A page keeps this worker alive while its download runs by messaging it now and then.
  if (!data || (data.type !== 'offer' && data.type !== 'download')) return
  const port = event.ports[0]
  if (!port) return
  // 'download' handed over a whole stream: a page from before this worker, which cannot be served.
  if (data.type !== 'offer' || typeof data.id !== 'string' || !ID.test(`/downloads/${data.id}`) || pending.has(data.id)) {
    port.postMessage({ type: 'refused' })
    return
  }
  const headers = new Headers()
  for (const [name, value] of Array.isArray(data.headers) ? data.headers : []) {
    if (typeof name === 'string' && typeof value === 'string' && ALLOWED_HEADERS.has(name.toLowerCase())) headers.set(name, value)
  }
  if (!headers.has('content-type')) headers.set('content-type', 'application/octet-stream')
  // The body is a file to save, never a page to render.
  headers.set('x-content-type-options', 'nosniff')
  headers.set('content-security-policy', "default-src 'none'; sandbox")
  headers.set('cache-control', 'no-store')
  const timer = setTimeout(() => {
    if (!pending.has(data.id)) return
    pending.delete(data.id)
    port.postMessage({ type: 'expired' })
  }, EXPIRY_MS)
  pending.set(data.id, { port, headers, timer })
  port.postMessage({ type: 'ready' })
})

/**
 * Drops a piece the browser has copied out: its buffer is detached, which frees its memory at once
 * instead of leaving it to the garbage collector (which lets such buffers pile up with the file's
 * size before it runs).
 */
function release(bytes) {
  try {
    bytes?.buffer.transfer?.(0)
  } catch {}
}

/**
 * The body: each pull asks the page for its next piece and waits for it. It keeps one piece ready
 * (a high-water mark of 1), so the browser never waits on the page between two pieces: a pull
 * comes when the browser has taken the queued piece, which it is writing then, and the browser
 * takes a piece only once it has written the one before. So at each pull every piece handed over
 * but the last is written, and released.
 */
function pieces(port) {
  let waiting = null
  let finished = false
  // Pieces handed to the browser and not yet released, oldest first.
  const handed = []
  const settle = () => {
    const resolve = waiting
    waiting = null
    resolve?.()
  }
  return new ReadableStream(
    {
      start(controller) {
        port.onmessage = (event) => {
          const data = event.data
          if (finished) return
          if (data?.type === 'chunk' && data.bytes instanceof Uint8Array && waiting) {
            handed.push(data.bytes)
            controller.enqueue(data.bytes)
            settle()
          } else if (data?.type === 'end' && waiting) {
            finished = true
            // The last piece may still be being written: only those before it are released.
            while (handed.length > 1) release(handed.shift())
            controller.close()
            settle()
          } else {
            // A failed decryption, or anything out of turn: the download fails rather than end short.
            finished = true
            controller.error(new Error(FAILED))
            settle()
          }
        }
        // The page went away mid-download (browsers that report it).
        port.addEventListener?.('close', () => {
          if (finished) return
          finished = true
          controller.error(new Error(FAILED))
          settle()
        })
      },
      pull() {
        while (handed.length > 1) release(handed.shift())
        return new Promise((resolve) => {
          waiting = resolve
          port.postMessage({ type: 'pull' })
        })
      },
      cancel() {
        finished = true
        // Cancelled in the browser's downloads list: the page stops fetching and decrypting.
        port.postMessage({ type: 'cancel' })
      },
    },
    { highWaterMark: 1 },
  )
}

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url)
  const match = url.origin === self.location.origin && ID.exec(url.pathname)
  // Everything else (this script's own updates among it) goes to the network untouched.
  if (!match || event.request.method !== 'GET') return
  const entry = pending.get(match[1])
  if (!entry) {
    event.respondWith(new Response('This download link has expired.', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } }))
    return
  }
  pending.delete(match[1])
  clearTimeout(entry.timer)
  entry.port.postMessage({ type: 'started' })
  event.respondWith(new Response(pieces(entry.port), { status: 200, headers: entry.headers }))
})
