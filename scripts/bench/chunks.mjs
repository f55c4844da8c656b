// Upload chunk size (one chunk = one R2 multipart part), in Chromium against this server: each
// size is encrypted 16 times with AES-GCM, and sent 6 times as the single part of an upload of
// exactly that size. Reported as the throughput of encrypt-then-send one chunk after another,
// against the app's 8 MiB (R2 wants every part but the last ≥ 5 MiB and all of one size).
import { launch, newPage } from './browser.mjs'

export async function measureChunks({ origin }) {
  const { browser } = await launch()
  try {
    const { context, page } = await newPage(browser, origin)
    await page.goto('/')
    const results = await page.evaluate(async () => {
      const MiB = 1024 * 1024
      const reg = await fetch('/api/auth/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `chunks-${Date.now()}@example.com`, password: 'bench password 1', displayName: 'Bench' }),
      })
      const { token } = await reg.json()
      const auth = { authorization: `Bearer ${token}` }
      const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt'])
      const results = []
      for (const mib of [1, 2, 4, 8]) {
        const plain = new Uint8Array(mib * MiB)
        for (let i = 0; i < plain.length; i += 65536) crypto.getRandomValues(plain.subarray(i, Math.min(i + 65536, plain.length)))
        const rounds = 16
        let t = performance.now()
        for (let i = 0; i < rounds; i++) await crypto.subtle.encrypt({ name: 'AES-GCM', iv: crypto.getRandomValues(new Uint8Array(12)) }, key, plain)
        const encrypt = (rounds * mib * MiB) / 1e6 / ((performance.now() - t) / 1000)
        let putSeconds = 0
        const puts = 6
        for (let i = 0; i < puts; i++) {
          const start = await fetch('/api/vault/uploads', {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ type: 'doc', plainSize: mib * MiB }),
          }).then((r) => r.json())
          const body = new Uint8Array(mib * MiB + 29)
          t = performance.now()
          const res = await fetch(`/api/vault/uploads/${start.itemId}/parts/1`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/octet-stream' }, body })
          putSeconds += (performance.now() - t) / 1000
          if (!res.ok) throw new Error(`PUT ${mib} MiB: ${res.status}`)
          await fetch(`/api/vault/uploads/${start.itemId}`, { method: 'DELETE', headers: auth })
        }
        const put = (puts * mib * MiB) / 1e6 / putSeconds
        results.push({ mib, encrypt, put, both: 1 / (1 / encrypt + 1 / put) })
      }
      return results
    })
    await context.close()
    const app = results.find((r) => r.mib === 8)
    return {
      rows: results.map((r) => ({
        id: `chunks.${r.mib}`,
        measurement: `Upload chunk of ${r.mib} MiB: encrypt then PUT (${Math.ceil(100 / r.mib)} parts per 100 MiB)`,
        value: r.both,
        unit: 'MB/s',
        detail: `encrypt ${r.encrypt.toFixed(0)}, PUT ${r.put.toFixed(0)} MB/s`,
        reference: r.mib === 8 ? undefined : { label: '8 MiB (the app)', value: app.both },
      })),
      raw: results,
    }
  } finally {
    await browser.close()
  }
}
