// A 100 MiB file through the app's real pipeline in Chromium, driven through the vault page as
// an owner would (Add Item → Encrypt & Upload; Download), against the same bytes sent through
// the same endpoints in the same part sizes without encryption. Downloads stream to disk through
// the download Service Worker (headless Chromium has no save picker) and are timed until the file
// is complete on disk; their references, in the same page, are the ciphertext fetched into memory
// (the raw fetch) and the ciphertext streamed to disk through the same worker without decryption.
// Peak memory (the page's and the service worker's JS memory, and every Chromium process's RSS) is
// sampled during each. Rounds alternate the runs, and each figure is the median over the rounds.
// Then one 500 MiB download (BENCH_DOWNLOAD_LARGE_MIB; 0 skips it) runs the same way once, to show
// the download's peak memory does not grow with the file (see largeRound for how, files being
// capped at 100 MB).
import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { addBeneficiaryThroughUi, launch, newPage, openVault, registerThroughUi, serviceWorkerHeaps, startMemorySampler, uniqueEmail } from './browser.mjs'
import { root } from '../lib/local-env.mjs'
import { median, MiB } from './stats.mjs'

const SIZE = Number(process.env.BENCH_UPLOAD_MIB ?? 100) * MiB
const PASSPHRASE = 'Harbour Lantern 42 Orchard!'
const UPLOAD_CONCURRENCY = 2 // web/features/vault/upload/upload-file.ts UPLOAD_CONCURRENCY
const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 3)
const LARGE = Number(process.env.BENCH_DOWNLOAD_LARGE_MIB ?? 500) * MiB

async function sha256File(path) {
  const hash = createHash('sha256')
  for await (const piece of createReadStream(path)) hash.update(piece)
  return hash.digest('hex')
}

/**
 * The unencrypted reference upload: start, the same part sizes with the same concurrency, complete.
 * Like the app it hashes each part and signs the item's manifest (web/crypto/FORMAT.md), with the
 * vault's signing key unwrapped here from the passphrase before the clock starts.
 */
async function rawUpload(page, { beneficiaryId, concurrency }) {
  return page.evaluate(
    async ({ beneficiaryId, concurrency, passphrase }) => {
      const file = document.getElementById('bench-file').files[0]
      const auth = { authorization: `Bearer ${localStorage.getItem('auth_token')}` }
      const bytesOf = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
      const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('')
      const { user } = await (await fetch('/api/auth/me', { headers: auth })).json()
      const material = await crypto.subtle.importKey('raw', new TextEncoder().encode(passphrase.normalize('NFC')), 'PBKDF2', false, ['deriveKey'])
      const master = await crypto.subtle.deriveKey({ name: 'PBKDF2', salt: bytesOf(user.vaultSalt), iterations: 600_000, hash: 'SHA-256' }, material, { name: 'AES-GCM', length: 256 }, false, ['unwrapKey'])
      // FORMAT.md "AAD": field(purpose) || field(uint32 1) || further uint32 fields; the envelope is version || iv (12) || body.
      const aadOf = (purposeText, ...numbers) => {
        const purpose = new TextEncoder().encode(purposeText)
        const aad = new Uint8Array(5 + purpose.length + 5 * (1 + numbers.length))
        const view = new DataView(aad.buffer)
        aad[0] = 1
        view.setUint32(1, purpose.length)
        aad.set(purpose, 5)
        ;[1, ...numbers].forEach((n, i) => {
          aad[5 + purpose.length + 5 * i] = 2
          view.setUint32(6 + purpose.length + 5 * i, n)
        })
        return aad
      }
      const unwrapParams = (wrapped, aad) => ({ name: 'AES-GCM', iv: wrapped.subarray(1, 13), additionalData: aad })
      // A vault of format 2 (FORMAT.md): the passphrase's key wraps the vault key, which wraps the signing key.
      let wrappingKey = master
      if (user.vaultKey) {
        const wrappedVaultKey = bytesOf(user.vaultKey)
        wrappingKey = await crypto.subtle.unwrapKey('raw', wrappedVaultKey.subarray(13), master, unwrapParams(wrappedVaultKey, aadOf('legacy-vault:vault-key-wrap', 2)), { name: 'AES-GCM', length: 256 }, false, ['unwrapKey'])
      }
      const wrapped = bytesOf(user.vaultSigningKey.wrapped)
      const signingKey = await crypto.subtle.unwrapKey('pkcs8', wrapped.subarray(13), wrappingKey, unwrapParams(wrapped, aadOf('legacy-vault:signing-key-wrap')), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign'])
      const sha256 = async (bytes) => new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
      const t0 = performance.now()
      const start = await fetch('/api/vault/uploads', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'doc', plainSize: file.size }),
      })
      if (start.status !== 201) throw new Error(`start: ${start.status} ${await start.text()}`)
      const { itemId, chunkBytes, partCount } = await start.json()
      const digests = []
      let next = 1
      async function worker() {
        for (;;) {
          const n = next++
          if (n > partCount) return
          const plain = new Uint8Array(await file.slice((n - 1) * chunkBytes, n * chunkBytes).arrayBuffer())
          // The same length as the encrypted part (29 bytes of framing), the plaintext as it is.
          const body = new Uint8Array(plain.length + 29)
          body.set(plain, 29)
          digests[n - 1] = await sha256(body)
          const res = await fetch(`/api/vault/uploads/${itemId}/parts/${n}`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/octet-stream' }, body })
          if (!res.ok) throw new Error(`part ${n}: ${res.status} ${await res.text()}`)
          await res.body?.cancel()
        }
      }
      await Promise.all(Array.from({ length: concurrency }, worker))
      const all = new Uint8Array(32 * partCount)
      digests.forEach((d, i) => all.set(d, 32 * i))
      const encryptedMetadata = btoa('bench metadata')
      const grant = btoa('bench wrapped key')
      const manifest = [
        'legacy-vault:item-manifest:v1',
        `owner ${user.id}`,
        `item ${itemId}`,
        'type doc',
        `size ${file.size}`,
        `chunks ${partCount} ${hex(await sha256(all))}`,
        `metadata ${hex(await sha256(bytesOf(encryptedMetadata)))}`,
        `grant ${beneficiaryId} 1 ${hex(await sha256(bytesOf(grant)))}`,
      ].join('\n')
      const signature = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, signingKey, new TextEncoder().encode(manifest)))
      const done = await fetch(`/api/vault/uploads/${itemId}/complete`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          encryptedMetadata,
          wrappedKey: btoa('bench'),
          policy: {},
          grants: [{ beneficiaryId, wrappedKey: grant }],
          manifestSignature: btoa(String.fromCharCode(...signature)),
        }),
      })
      if (done.status !== 201) throw new Error(`complete: ${done.status} ${await done.text()}`)
      return { ms: performance.now() - t0, itemId }
    },
    { beneficiaryId, concurrency, passphrase: PASSPHRASE },
  )
}

/** The raw fetch: the item's ciphertext fetched and collected into a Blob (the download's pre-streaming way), no decryption. */
async function rawDownload(page, itemId) {
  return page.evaluate(async (itemId) => {
    const t0 = performance.now()
    const res = await fetch(`/api/vault/items/${itemId}/content`, { headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}` } })
    if (!res.ok) throw new Error(`content: ${res.status}`)
    const pieces = []
    const reader = res.body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      pieces.push(value)
    }
    const blob = new Blob(pieces)
    return { ms: performance.now() - t0, size: blob.size }
  }, itemId)
}

/**
 * The streamed reference: the item's ciphertext, as fetched, handed to the download worker and
 * saved to disk the way the app's download is (web/features/vault/items/stream-save.ts), without
 * decryption. Timed from the start until the file is complete on disk.
 */
async function rawStreamedDownload(page, { itemId, cipherSize }) {
  const t0 = performance.now()
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: 600_000 }),
    page.evaluate(
      async ({ itemId, cipherSize }) => {
        const registration = await navigator.serviceWorker.getRegistration('/downloads/')
        if (!registration?.active) throw new Error('the download worker is not running')
        const res = await fetch(`/api/vault/items/${itemId}/content`, { headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}` } })
        if (!res.ok) throw new Error(`content: ${res.status}`)
        const id = Array.from(crypto.getRandomValues(new Uint8Array(22)), (b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[b & 63]).join('')
        // The worker's protocol as the app speaks it (stream-save.ts offerToWorker): an offer with
        // a port, then each piece, as the fetch gives it, handed over by transfer when asked for.
        const reader = res.body.getReader()
        const channel = new MessageChannel()
        const ready = new Promise((resolve) => {
          channel.port1.onmessage = async (event) => {
            const type = event.data?.type
            if (type === 'ready') resolve()
            if (type !== 'pull') return
            const { done, value } = await reader.read()
            if (done) return channel.port1.postMessage({ type: 'end' })
            const whole = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value : value.slice()
            channel.port1.postMessage({ type: 'chunk', bytes: whole }, [whole.buffer])
          }
        })
        const headers = [
          ['Content-Type', 'application/octet-stream'],
          ['Content-Disposition', 'attachment; filename="raw-ciphertext.bin"'],
          ['Content-Length', String(cipherSize)],
        ]
        registration.active.postMessage({ type: 'offer', id, headers }, [channel.port2])
        await ready
        const frame = document.createElement('iframe')
        frame.hidden = true
        frame.src = `/downloads/${id}`
        document.body.appendChild(frame)
        setTimeout(() => frame.remove(), 60_000)
      },
      { itemId, cipherSize },
    ),
  ])
  await file.path()
  const ms = performance.now() - t0
  const size = statSync(await file.path()).size
  await file.delete()
  if (size !== cipherSize) throw new Error(`raw streamed download: ${size} bytes, expected ${cipherSize}`)
  return { ms }
}

/** The app's download through the UI: from the click on Download until the file is complete on disk. */
async function appDownload(page, { name, digest }) {
  const button = page.getByRole('button', { name: `Download ${name}` })
  await button.waitFor()
  const t0 = performance.now()
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 600_000 }), button.click()])
  const path = await file.path()
  const ms = performance.now() - t0
  if (!/^\/downloads\//.test(new URL(file.url()).pathname)) throw new Error(`the download did not go through the download worker: ${file.url()}`)
  if ((await sha256File(path)) !== digest) throw new Error('the downloaded file differs from the uploaded one')
  await file.delete()
  // The row's spinner goes once the page has handed over the last piece.
  await page.getByRole('button', { name: `Download ${name}` }).waitFor({ timeout: 60_000 })
  return { ms }
}

/** The three downloads of one item, each with its memory sampled: the app's, the raw fetch, the raw stream. */
async function downloads(page, pid, workers, { name, digest, item }) {
  const sampled = async (run) => {
    const sampler = await startMemorySampler(page, pid, { workers })
    try {
      const result = await run()
      return { ...result, mem: await sampler.stop() }
    } finally {
      await sampler.stop()
    }
  }
  const enc = await sampled(() => appDownload(page, { name, digest }))
  const raw = await sampled(() => rawDownload(page, item.id))
  if (raw.size !== item.cipherSize) throw new Error(`raw download: ${raw.size} bytes, expected ${item.cipherSize}`)
  const rawStream = await sampled(() => rawStreamedDownload(page, { itemId: item.id, cipherSize: item.cipherSize }))
  return { enc, raw, rawStream }
}

/** Through the Add Item dialog: from the click on Encrypt & Upload until the dialog closes. */
async function uiUpload(page, pid, path, { sample = true } = {}) {
  await page.getByRole('button', { name: 'Add Item', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Add Item' })
  await dialog.getByTestId('file-input').setInputFiles(path)
  await dialog.getByRole('checkbox', { name: /Large Heir/ }).check()
  let parts = 0
  const countParts = (request) => {
    if (/\/api\/vault\/uploads\/[^/]+\/parts\/\d+$/.test(request.url())) parts++
  }
  page.on('request', countParts)
  const sampler = sample ? await startMemorySampler(page, pid) : null
  const t0 = performance.now()
  await dialog.getByRole('button', { name: /^Encrypt & Upload/ }).click()
  await dialog.waitFor({ state: 'detached', timeout: 1_200_000 })
  const result = { ms: performance.now() - t0, mem: await sampler?.stop(), parts }
  page.off('request', countParts)
  return result
}

const listItems = (page) => page.evaluate(async () => (await fetch('/api/vault/items', { headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}` } })).json())
const deleteItems = (page, ids) =>
  page.evaluate(async (ids) => {
    for (const id of ids) await fetch(`/api/vault/items/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}` } })
  }, ids)

/** One round: encrypted upload and download through the UI, then the references, in this page. */
async function round(page, pid, workers, { path, name, digest, beneficiaryId, log }) {
  const encUp = await uiUpload(page, pid, path)
  const encrypted = (await listItems(page)).find((item) => item.plainSize === SIZE)
  const down = await downloads(page, pid, workers, { name, digest, item: encrypted })

  // The upload's reference: the same file through a file input of the bench's own.
  await page.setInputFiles('#bench-file', path)
  const sampler = await startMemorySampler(page, pid)
  const rawUp = await rawUpload(page, { beneficiaryId, concurrency: UPLOAD_CONCURRENCY })
  rawUp.mem = await sampler.stop()
  // Both items go, so the next round starts from the same vault.
  await deleteItems(page, [encrypted.id, rawUp.itemId])
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`
  log(
    `  upload ${s(encUp.ms)} encrypted (${encUp.parts} parts), ${s(rawUp.ms)} raw; download ${s(down.enc.ms)} decrypted to disk (verified), ${s(down.raw.ms)} raw fetch, ${s(down.rawStream.ms)} raw to disk`,
  )
  return { encUp, rawUp, ...down }
}

/**
 * The large download once. The product holds files of at most 100 MB (seeds 001), so a 500 MiB
 * item cannot be uploaded: a small file is uploaded through the UI instead, and the app is then
 * shown a 500 MiB item in its place. The list (GET /api/vault/items) is answered with the item's
 * sizes made 500 MiB, and its content GET is served, as it streams from a local file, with
 * 500 MiB of random bytes sealed under that item's own data key and id by the app's own crypto
 * (large-ciphertext.ts). Everything the page does (fetch, decrypt, stream to the worker, save)
 * is the app's real download; the references fetch the same bytes from the same place.
 */
async function largeRound(page, pid, workers, { dir, log }) {
  const chunkBytes = 8 * MiB // contract/vault-items.ts UPLOAD_CHUNK_BYTES
  const parts = Math.ceil(LARGE / chunkBytes)
  const cipherSize = LARGE + parts * 29
  const small = MiB + 7
  const name = 'archive-large.pdf'
  const path = join(dir, name)
  const bytes = randomBytes(small)
  bytes.write('%PDF-1.7', 0)
  writeFileSync(path, bytes)

  let itemId = null
  let server = null
  await page.route('**/api/vault/items', async (route) => {
    if (route.request().method() !== 'GET') return route.continue()
    const response = await route.fetch()
    const items = (await response.json()).map((item) => (item.plainSize === small ? { ...item, plainSize: LARGE, cipherSize, partCount: parts } : item))
    await route.fulfill({ response, json: items })
  })
  await page.route('**/api/vault/items/*/content', (route) =>
    itemId && server && route.request().url().includes(`/items/${itemId}/content`)
      ? route.continue({ url: `http://127.0.0.1:${server.address().port}/content` })
      : route.continue(),
  )
  try {
    await uiUpload(page, pid, path, { sample: false })
    const item = (await listItems(page)).find((i) => i.plainSize === LARGE)
    const { user } = await page.evaluate(async () => (await fetch('/api/auth/me', { headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}` } })).json())
    const sealed = join(dir, 'large.ciphertext')
    const made = await runLargeCiphertext([sealed, String(LARGE), String(item.chunkBytes), item.id, item.wrappedKey, user.vaultSalt, ...(user.vaultKey ? [user.vaultKey] : [])])
    if (made.cipherSize !== cipherSize) throw new Error(`large ciphertext: ${made.cipherSize} bytes, expected ${cipherSize}`)
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(cipherSize), 'cache-control': 'no-store' })
      createReadStream(sealed).pipe(res)
    })
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    itemId = item.id
    const down = await downloads(page, pid, workers, { name, digest: made.digest, item: { id: item.id, cipherSize } })
    await deleteItems(page, [item.id])
    rmSync(sealed)
    const s = (ms) => `${(ms / 1000).toFixed(1)} s`
    log(`  ${LARGE / MiB} MiB: download ${s(down.enc.ms)} decrypted to disk (verified), ${s(down.raw.ms)} raw fetch, ${s(down.rawStream.ms)} raw to disk`)
    return down
  } finally {
    await page.unrouteAll({ behavior: 'wait' })
    server?.closeAllConnections()
    server?.close()
  }
}

/** scripts/bench/large-ciphertext.ts under tsx; the passphrase on stdin. */
function runLargeCiphertext(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--no-warnings', '--import', 'tsx', 'scripts/bench/large-ciphertext.ts', ...args], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1))) : reject(new Error(`large-ciphertext.ts exited with ${code}: ${err}`))))
    child.stdin.end(PASSPHRASE)
  })
}

/** The download rows of one size against both references. */
function downloadRows({ id, mib, n, pick }) {
  const MB = 1e6
  const enc = pick((x) => x.enc.ms)
  const fetched = 'ciphertext fetched into memory, no decryption'
  const streamed = 'ciphertext streamed to disk via the worker, no decryption'
  return [
    { id: `${id}.time`, measurement: `Download and decrypt ${mib} MiB in Chromium, streamed to disk (UI${n})`, value: enc / 1000, unit: 's', detail: `${((mib * MiB) / MB / (enc / 1000)).toFixed(0)} MB/s`, reference: { label: fetched, value: pick((x) => x.raw.ms) / 1000 } },
    { id: `${id}.time.stream`, measurement: `Download and decrypt ${mib} MiB: time against the same path without decryption`, value: enc / 1000, unit: 's', reference: { label: streamed, value: pick((x) => x.rawStream.ms) / 1000 } },
    { id: `${id}.heap`, measurement: `Download ${mib} MiB: peak JS memory above idle (page + service worker: V8 heap + ArrayBuffers)`, value: pick((x) => x.enc.mem.heapAbove) / MiB, unit: 'MiB', reference: { label: 'raw fetch', value: pick((x) => x.raw.mem.heapAbove) / MiB } },
    { id: `${id}.heap.stream`, measurement: `Download ${mib} MiB: peak JS memory above idle, against the same path without decryption`, value: pick((x) => x.enc.mem.heapAbove) / MiB, unit: 'MiB', reference: { label: 'raw to disk', value: pick((x) => x.rawStream.mem.heapAbove) / MiB } },
    { id: `${id}.rss`, measurement: `Download ${mib} MiB: peak Chromium memory above idle (RSS, all processes)`, value: pick((x) => x.enc.mem.rssAbove) / MiB, unit: 'MiB', reference: { label: 'raw fetch', value: pick((x) => x.raw.mem.rssAbove) / MiB } },
    { id: `${id}.rss.stream`, measurement: `Download ${mib} MiB: peak Chromium memory above idle (RSS), against the same path without decryption`, value: pick((x) => x.enc.mem.rssAbove) / MiB, unit: 'MiB', reference: { label: 'raw to disk', value: pick((x) => x.rawStream.mem.rssAbove) / MiB } },
  ]
}

export async function measureUpload({ origin, log }) {
  const dir = mkdtempSync(join(tmpdir(), 'legacy-vault-bench-file-'))
  const bytes = randomBytes(SIZE)
  bytes.write('%PDF-1.7', 0) // a PDF by its first bytes and its name, so the dropzone takes it
  const digest = createHash('sha256').update(bytes).digest('hex')
  let path = join(dir, 'archive-1.pdf')
  writeFileSync(path, bytes)
  const { browser, pid } = await launch()
  const workers = await serviceWorkerHeaps(browser)
  try {
    const { context, page } = await newPage(browser, origin)
    await registerThroughUi(page, { email: uniqueEmail('upload'), password: 'a sound password 1', passphrase: PASSPHRASE })
    await addBeneficiaryThroughUi(page, { fullName: 'Large Heir', email: uniqueEmail('heir') })
    await openVault(page)
    const [{ id: beneficiaryId }] = await page.evaluate(async () =>
      (await fetch('/api/beneficiaries', { headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}` } })).json(),
    )
    await page.evaluate(() => {
      const input = document.createElement('input')
      input.type = 'file'
      input.id = 'bench-file'
      input.style.display = 'none'
      document.body.appendChild(input)
    })
    // The download worker registered and running before anything is measured, as after a first download.
    await page.evaluate(async () => {
      // The app's script URL (stream-save.ts DOWNLOAD_WORKER_URL), so its first download installs nothing.
      const registration = await navigator.serviceWorker.register('/downloads/sw.js?protocol=2', { scope: '/downloads/' })
      const worker = registration.installing ?? registration.waiting ?? registration.active
      if (worker.state !== 'activated') await new Promise((resolve) => worker.addEventListener('statechange', () => worker.state === 'activated' && resolve()))
    })
    const rounds = []
    for (let r = 1; r <= ROUNDS; r++) {
      // A new name each round, so the Download button names one item.
      const next = join(dir, `archive-${r}.pdf`)
      if (next !== path) renameSync(path, next)
      path = next
      rounds.push(await round(page, pid, workers, { path, name: `archive-${r}.pdf`, digest, beneficiaryId, log }))
    }
    rmSync(path)
    const large = LARGE > 0 ? await largeRound(page, pid, workers, { dir, log }) : null
    await context.close()

    const med = (pick) => median(rounds.map(pick))
    const mib = SIZE / MiB
    const MB = 1e6
    const n = rounds.length > 1 ? `, median of ${rounds.length}` : ''
    const encUp = med((x) => x.encUp.ms)
    const rows = [
      { id: 'upload.time', measurement: `Upload ${mib} MiB, encrypted in Chromium (UI, ${rounds[0].encUp.parts} parts${n})`, value: encUp / 1000, unit: 's', detail: `${(SIZE / MB / (encUp / 1000)).toFixed(0)} MB/s`, reference: { label: 'unencrypted, same parts', value: med((x) => x.rawUp.ms) / 1000 } },
      { id: 'upload.rss', measurement: 'Upload: peak Chromium memory above idle (RSS, all processes)', value: med((x) => x.encUp.mem.rssAbove) / MiB, unit: 'MiB', reference: { label: 'unencrypted', value: med((x) => x.rawUp.mem.rssAbove) / MiB } },
      { id: 'upload.heap', measurement: 'Upload: peak JS memory above idle (V8 heap + ArrayBuffers)', value: med((x) => x.encUp.mem.heapAbove) / MiB, unit: 'MiB', reference: { label: 'unencrypted', value: med((x) => x.rawUp.mem.heapAbove) / MiB } },
      ...downloadRows({ id: 'download', mib, n, pick: med }),
    ]
    if (large) {
      const largeMib = LARGE / MiB
      rows.push(...downloadRows({ id: `download.${largeMib}`, mib: largeMib, n: ', one round', pick: (f) => f(large) }))
      rows.push({
        id: `download.heap.${largeMib}.vs.${mib}`,
        measurement: `Download: peak JS memory above idle, ${largeMib} MiB against ${mib} MiB (bounded: the same)`,
        value: large.enc.mem.heapAbove / MiB,
        unit: 'MiB',
        reference: { label: `${mib} MiB`, value: med((x) => x.enc.mem.heapAbove) / MiB },
      })
    }
    return { rows, raw: { rounds, large } }
  } finally {
    await workers.close()
    await browser.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
