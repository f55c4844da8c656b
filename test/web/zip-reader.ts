import { crc32 } from 'node:zlib'

// A tiny ZIP reader for the export's tests: the end record, the central directory, and each
// stored entry's bytes, with its CRC checked. Enough for what client-zip writes (stored, no
// comment); not ZIP64, which the tests never reach.

export interface ZipEntry {
  name: string
  bytes: Uint8Array
  modified: Date
  /** The UTF-8 name flag (bit 11). */
  utf8: boolean
}

export function readZip(zip: Uint8Array): ZipEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength)
  const end = zip.length - 22
  if (view.getUint32(end, true) !== 0x06054b50) throw new Error('no end of central directory record')
  const count = view.getUint16(end + 10, true)
  let at = view.getUint32(end + 16, true)
  const entries: ZipEntry[] = []
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error(`bad central directory entry ${i}`)
    const flags = view.getUint16(at + 8, true)
    const method = view.getUint16(at + 10, true)
    const time = view.getUint16(at + 12, true)
    const date = view.getUint16(at + 14, true)
    const crc = view.getUint32(at + 16, true)
    const size = view.getUint32(at + 20, true)
    const nameLength = view.getUint16(at + 28, true)
    const extra = view.getUint16(at + 30, true)
    const comment = view.getUint16(at + 32, true)
    const local = view.getUint32(at + 42, true)
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength))
    if (method !== 0) throw new Error(`${name}: not stored`)
    if (view.getUint32(local, true) !== 0x04034b50) throw new Error(`${name}: bad local header`)
    const data = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true)
    const bytes = zip.subarray(data, data + size)
    if (crc32(bytes) >>> 0 !== crc) throw new Error(`${name}: CRC mismatch`)
    const modified = new Date((date >> 9) + 1980, ((date >> 5) & 15) - 1, date & 31, time >> 11, (time >> 5) & 63, (time & 31) * 2)
    entries.push({ name, bytes, modified, utf8: (flags & 0x800) !== 0 })
    at += 46 + nameLength + extra + comment
  }
  return entries
}

export async function collect(pieces: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = []
  for await (const p of pieces) parts.push(p)
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  parts.reduce((o, p) => (out.set(p, o), o + p.length), 0)
  return out
}
