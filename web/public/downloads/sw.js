// The download Service Worker: its scope is /downloads/ only, so it controls nothing else in the
// app. The page decrypts a file chunk by chunk and hands this worker a ReadableStream of the
// plaintext (transferred, never copied whole) with the response headers; the worker answers one
// GET /downloads/<id> with that stream, which the browser saves to disk as a download. Nothing
// leaves the browser: the stream only flows from the page to its own origin's download manager,
// and this worker never sees a key. An id is unguessable, served once, and forgotten after a
// minute if it is never asked for (its stream is then cancelled, which fails the page's download).

const EXPIRY_MS = 60_000
const ID = /^\/downloads\/([A-Za-z0-9_-]{22,64})$/
// The only headers a page may set on its download's response.
const ALLOWED_HEADERS = new Set(['content-type', 'content-length', 'content-disposition'])

/** id → { stream, headers, port, timer } */
const pending = new Map()

self.addEventListener('install', () => self.skipWaiting())
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))

self.addEventListener('message', (event) => {
  const data = event.data
  if (event.origin && event.origin !== self.location.origin) return
  // A page keeps this worker alive while its download runs by messaging it now and then.
  if (!data || data.type !== 'download') return
  const port = event.ports[0]
  if (typeof data.id !== 'string' || !ID.test(`/downloads/${data.id}`) || !(data.stream instanceof ReadableStream) || pending.has(data.id)) {
    port?.postMessage({ type: 'refused' })
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
    const entry = pending.get(data.id)
    if (!entry) return
    pending.delete(data.id)
    entry.stream.cancel(new Error('The download was never started.')).catch(() => undefined)
    entry.port?.postMessage({ type: 'expired' })
  }, EXPIRY_MS)
  pending.set(data.id, { stream: data.stream, headers, port, timer })
  port?.postMessage({ type: 'ready' })
})

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
  entry.port?.postMessage({ type: 'started' })
  event.respondWith(new Response(entry.stream, { status: 200, headers: entry.headers }))
})
