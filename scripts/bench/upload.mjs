// A 100 MiB file through the app's real pipeline in Chromium, driven through the vault page as
// an owner would (Add Item → Encrypt & Upload; Download), against the same bytes sent through
// the same endpoints in the same part sizes without encryption (and the ciphertext fetched
// without decryption). Peak memory is sampled during each. Rounds alternate the four runs, and
// each figure is the median over the rounds.
import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { addBeneficiaryThroughUi, launch, newPage, openVault, registerThroughUi, startMemorySampler, uniqueEmail } from './browser.mjs'
import { median, MiB } from './stats.mjs'

const SIZE = Number(process.env.BENCH_UPLOAD_MIB ?? 100) * MiB
const PASSPHRASE = 'Harbour Lantern 42 Orchard!'
const UPLOAD_CONCURRENCY = 2 // web/features/vault/upload/upload-file.ts UPLOAD_CONCURRENCY
const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 3)

async function sha256File(path) {
  const hash = createHash('sha256')
  for await (const piece of createReadStream(path)) hash.update(piece)
  return hash.digest('hex')
}

/** The unencrypted reference upload: start, the same part sizes with the same concurrency, complete. */
async function rawUpload(page, { beneficiaryId, concurrency }) {
  return page.evaluate(
    async ({ beneficiaryId, concurrency }) => {
      const file = document.getElementById('bench-file').files[0]
      const auth = { authorization: `Bearer ${localStorage.getItem('auth_token')}` }
      const t0 = performance.now()
      const start = await fetch('/api/vault/uploads', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'doc', plainSize: file.size }),
      })
      if (start.status !== 201) throw new Error(`start: ${start.status} ${await start.text()}`)
      const { itemId, chunkBytes, partCount } = await start.json()
      let next = 1
      async function worker() {
        for (;;) {
          const n = next++
          if (n > partCount) return
          const plain = new Uint8Array(await file.slice((n - 1) * chunkBytes, n * chunkBytes).arrayBuffer())
          // The same length as the encrypted part (29 bytes of framing), the plaintext as it is.
          const body = new Uint8Array(plain.length + 29)
          body.set(plain, 29)
          const res = await fetch(`/api/vault/uploads/${itemId}/parts/${n}`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/octet-stream' }, body })
          if (!res.ok) throw new Error(`part ${n}: ${res.status} ${await res.text()}`)
          await res.body?.cancel()
        }
      }
      await Promise.all(Array.from({ length: concurrency }, worker))
      const done = await fetch(`/api/vault/uploads/${itemId}/complete`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ encryptedMetadata: btoa('bench'), wrappedKey: btoa('bench'), policy: {}, grants: [{ beneficiaryId, wrappedKey: btoa('bench') }] }),
      })
      if (done.status !== 201) throw new Error(`complete: ${done.status} ${await done.text()}`)
      return { ms: performance.now() - t0, itemId }
    },
    { beneficiaryId, concurrency },
  )
}

/** The reference download: the item's ciphertext fetched and collected into a Blob, as the app collects the plaintext. */
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

/** One round: encrypted upload and download through the UI, then both references, in this page. */
async function round(page, pid, { path, name, digest, beneficiaryId, log }) {
  // Encrypted: through the Add Item dialog, from the click on Encrypt & Upload until the dialog
  // closes (every part stored, the item completed).
  await page.getByRole('button', { name: 'Add Item', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Add Item' })
  await dialog.getByTestId('file-input').setInputFiles(path)
  await dialog.getByRole('checkbox', { name: /Large Heir/ }).check()
  let parts = 0
  const countParts = (request) => {
    if (/\/api\/vault\/uploads\/[^/]+\/parts\/\d+$/.test(request.url())) parts++
  }
  page.on('request', countParts)
  let sampler = await startMemorySampler(page, pid)
  let t0 = performance.now()
  await dialog.getByRole('button', { name: /^Encrypt & Upload/ }).click()
  await dialog.waitFor({ state: 'detached', timeout: 600_000 })
  const encUp = { ms: performance.now() - t0, mem: await sampler.stop(), parts }
  page.off('request', countParts)

  // Download and decrypt: from the click on Download until the browser is handed the file.
  const download = page.getByRole('button', { name: `Download ${name}` })
  await download.waitFor()
  sampler = await startMemorySampler(page, pid)
  t0 = performance.now()
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 600_000 }), download.click()])
  const encDown = { ms: performance.now() - t0, mem: await sampler.stop() }
  if ((await sha256File(await file.path())) !== digest) throw new Error('the downloaded file differs from the uploaded one')
  await file.delete()

  // References: the same file through a file input of the bench's own, and the item's ciphertext.
  const items = await page.evaluate(async () => (await fetch('/api/vault/items', { headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}` } })).json())
  const encrypted = items.find((item) => item.plainSize === SIZE)
  await page.setInputFiles('#bench-file', path)
  sampler = await startMemorySampler(page, pid)
  const rawUp = await rawUpload(page, { beneficiaryId, concurrency: UPLOAD_CONCURRENCY })
  rawUp.mem = await sampler.stop()
  sampler = await startMemorySampler(page, pid)
  const rawDown = await rawDownload(page, encrypted.id)
  rawDown.mem = await sampler.stop()
  if (rawDown.size !== encrypted.cipherSize) throw new Error(`raw download: ${rawDown.size} bytes, expected ${encrypted.cipherSize}`)
  // Both items go, so the next round starts from the same vault.
  await page.evaluate(async (ids) => {
    for (const id of ids) await fetch(`/api/vault/items/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}` } })
  }, [encrypted.id, rawUp.itemId])
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`
  log(`  upload ${s(encUp.ms)} encrypted (${parts} parts), ${s(rawUp.ms)} raw; download ${s(encDown.ms)} decrypted (verified), ${s(rawDown.ms)} raw`)
  return { encUp, encDown, rawUp, rawDown }
}

export async function measureUpload({ origin, log }) {
  const dir = mkdtempSync(join(tmpdir(), 'legacy-vault-bench-file-'))
  const bytes = randomBytes(SIZE)
  bytes.write('%PDF-1.7', 0) // a PDF by its first bytes and its name, so the dropzone takes it
  const digest = createHash('sha256').update(bytes).digest('hex')
  let path = join(dir, 'archive-1.pdf')
  writeFileSync(path, bytes)
  const { browser, pid } = await launch()
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
    const rounds = []
    for (let r = 1; r <= ROUNDS; r++) {
      // A new name each round, so the Download button names one item.
      const next = join(dir, `archive-${r}.pdf`)
      if (next !== path) renameSync(path, next)
      path = next
      rounds.push(await round(page, pid, { path, name: `archive-${r}.pdf`, digest, beneficiaryId, log }))
    }
    await context.close()

    const med = (pick) => median(rounds.map(pick))
    const mib = SIZE / MiB
    const MB = 1e6
    const n = rounds.length > 1 ? `, median of ${rounds.length}` : ''
    const encUp = med((x) => x.encUp.ms)
    const encDown = med((x) => x.encDown.ms)
    const rows = [
      { id: 'upload.time', measurement: `Upload ${mib} MiB, encrypted in Chromium (UI, ${rounds[0].encUp.parts} parts${n})`, value: encUp / 1000, unit: 's', detail: `${(SIZE / MB / (encUp / 1000)).toFixed(0)} MB/s`, reference: { label: 'unencrypted, same parts', value: med((x) => x.rawUp.ms) / 1000 } },
      { id: 'upload.rss', measurement: 'Upload: peak Chromium memory above idle (RSS, all processes)', value: med((x) => x.encUp.mem.rssAbove) / MiB, unit: 'MiB', reference: { label: 'unencrypted', value: med((x) => x.rawUp.mem.rssAbove) / MiB } },
      { id: 'upload.heap', measurement: 'Upload: peak JS memory above idle (V8 heap + ArrayBuffers)', value: med((x) => x.encUp.mem.heapAbove) / MiB, unit: 'MiB', reference: { label: 'unencrypted', value: med((x) => x.rawUp.mem.heapAbove) / MiB } },
      { id: 'download.time', measurement: `Download and decrypt ${mib} MiB in Chromium (UI${n})`, value: encDown / 1000, unit: 's', detail: `${(SIZE / MB / (encDown / 1000)).toFixed(0)} MB/s`, reference: { label: 'ciphertext fetched, no decryption', value: med((x) => x.rawDown.ms) / 1000 } },
      { id: 'download.rss', measurement: 'Download: peak Chromium memory above idle (RSS, all processes)', value: med((x) => x.encDown.mem.rssAbove) / MiB, unit: 'MiB', reference: { label: 'raw fetch', value: med((x) => x.rawDown.mem.rssAbove) / MiB } },
      { id: 'download.heap', measurement: 'Download: peak JS memory above idle (V8 heap + ArrayBuffers)', value: med((x) => x.encDown.mem.heapAbove) / MiB, unit: 'MiB', reference: { label: 'raw fetch', value: med((x) => x.rawDown.mem.heapAbove) / MiB } },
    ]
    return { rows, raw: rounds }
  } finally {
    await browser.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
