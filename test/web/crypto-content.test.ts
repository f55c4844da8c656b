import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  DecryptionError,
  decryptChunk,
  decryptChunks,
  decryptStream,
  encryptBlob,
  encryptChunk,
  encryptedChunkSize,
  encryptStream,
  generateDataKey,
  utf8,
  type DataKey,
} from '@/crypto'

const ITEM = 'item-7f3a'
const MiB = 1024 * 1024

let dek: DataKey

beforeAll(async () => {
  dek = await generateDataKey()
})

afterEach(() => {
  vi.restoreAllMocks()
})

/** Deterministic non-repeating-looking bytes (getRandomValues is capped at 64 KiB per call). */
function pattern(length: number, seed = 1): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length)
  let x = seed
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0
    out[i] = x >>> 24
  }
  return out
}

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const x of source) out.push(x)
  return out
}

async function* fromArray(pieces: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const p of pieces) yield p
}

/** Byte equality without vitest's per-element deep-equal, which takes seconds on 3 MiB. */
function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  expect(actual.length).toBe(expected.length)
  const firstDifference = actual.findIndex((b, i) => b !== expected[i])
  expect(firstDifference).toBe(-1)
}

function joined(pieces: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0))
  let o = 0
  for (const p of pieces) {
    out.set(p, o)
    o += p.length
  }
  return out
}

describe('one chunk', () => {
  it('round-trips, with 29 bytes of overhead and a fresh IV each time', async () => {
    const plain = utf8('the deeds are in the blue box')
    const a = await encryptChunk(dek, ITEM, 3, false, plain)
    const b = await encryptChunk(dek, ITEM, 3, false, plain)
    expect(a).toHaveLength(encryptedChunkSize(plain.length))
    expect(encryptedChunkSize(0)).toBe(29)
    expect(a[0]).toBe(1)
    expect(a.subarray(1, 13)).not.toEqual(b.subarray(1, 13))
    expect(await decryptChunk(dek, ITEM, 3, false, a)).toEqual(plain)
  })

  it('gives AES-GCM a 12-byte IV and AAD', async () => {
    const encrypt = vi.spyOn(crypto.subtle, 'encrypt')
    await encryptChunk(dek, ITEM, 0, true, utf8('x'))
    const params = encrypt.mock.calls[0]![0] as AesGcmParams
    expect(params.name).toBe('AES-GCM')
    expect((params.iv as Uint8Array).byteLength).toBe(12)
    expect((params.additionalData as Uint8Array).byteLength).toBeGreaterThan(0)
    expect(params.tagLength ?? 128).toBe(128)
  })

  describe('flipping any single byte fails authentication', () => {
    const plain = utf8('0123456789')
    const regions: [string, (length: number) => number[]][] = [
      ['version', () => [0]],
      ['iv', () => range(1, 13)],
      ['ciphertext', (n) => range(13, n - 16)],
      ['tag', (n) => range(n - 16, n)],
    ]
    it.each(regions)('in the %s', async (_, positions) => {
      const chunk = await encryptChunk(dek, ITEM, 0, true, plain)
      const where = positions(chunk.length)
      expect(where.length).toBeGreaterThan(0)
      for (const i of where) {
        for (const bit of [0x01, 0x80]) {
          const tampered = chunk.slice()
          tampered[i]! ^= bit
          await expect(decryptChunk(dek, ITEM, 0, true, tampered)).rejects.toBeInstanceOf(DecryptionError)
        }
      }
    })
  })

  it('is bound to its item, index, last flag and key', async () => {
    const chunk = await encryptChunk(dek, ITEM, 5, false, utf8('abc'))
    for (const [item, index, isLast] of [
      ['item-other', 5, false],
      [ITEM, 4, false],
      [ITEM, 5, true],
    ] as const) {
      await expect(decryptChunk(dek, item, index, isLast, chunk)).rejects.toBeInstanceOf(DecryptionError)
    }
    await expect(decryptChunk(await generateDataKey(), ITEM, 5, false, chunk)).rejects.toBeInstanceOf(DecryptionError)
  })

  it('rejects truncated and empty input', async () => {
    const chunk = await encryptChunk(dek, ITEM, 0, true, utf8('abc'))
    for (const bad of [new Uint8Array(), chunk.subarray(0, 28), chunk.subarray(0, chunk.length - 1)]) {
      await expect(decryptChunk(dek, ITEM, 0, true, bad)).rejects.toBeInstanceOf(DecryptionError)
    }
  })

  it('refuses an index outside 0…2^32−1', async () => {
    await expect(encryptChunk(dek, ITEM, -1, true, new Uint8Array())).rejects.toThrow(RangeError)
    await expect(encryptChunk(dek, ITEM, 1.5, true, new Uint8Array())).rejects.toThrow(RangeError)
    await expect(encryptChunk(dek, ITEM, 2 ** 32, true, new Uint8Array())).rejects.toThrow(RangeError)
  })
})

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i)
}

describe('a whole blob', () => {
  const data = pattern(10 * 1024 + 17)

  it('round-trips in fixed-size chunks, the last one short', async () => {
    const chunks = await encryptBlob(dek, ITEM, data, 1024)
    expect(chunks).toHaveLength(11)
    expect(chunks.slice(0, 10).every((c) => c.length === encryptedChunkSize(1024))).toBe(true)
    expect(chunks[10]).toHaveLength(encryptedChunkSize(17))
    expect(await decryptChunks(dek, ITEM, chunks)).toEqual(data)
  })

  it('makes no empty trailing chunk when the size is a multiple of the chunk size', async () => {
    const exact = pattern(2048)
    const chunks = await encryptBlob(dek, ITEM, exact, 1024)
    expect(chunks).toHaveLength(2)
    expect(await decryptChunks(dek, ITEM, chunks)).toEqual(exact)
  })

  it('encrypts an empty file as one empty chunk marked last', async () => {
    const chunks = await encryptBlob(dek, ITEM, new Uint8Array())
    expect(chunks).toHaveLength(1)
    expect(chunks[0]).toHaveLength(29)
    expect(await decryptChunk(dek, ITEM, 0, true, chunks[0]!)).toEqual(new Uint8Array())
    expect(await decryptChunks(dek, ITEM, chunks)).toEqual(new Uint8Array())
  })

  it('fails when two chunks are swapped', async () => {
    const chunks = await encryptBlob(dek, ITEM, data, 1024)
    ;[chunks[2], chunks[3]] = [chunks[3]!, chunks[2]!]
    await expect(decryptChunks(dek, ITEM, chunks)).rejects.toBeInstanceOf(DecryptionError)
  })

  it('fails when the last chunk is dropped, or all of them', async () => {
    const chunks = await encryptBlob(dek, ITEM, data, 1024)
    await expect(decryptChunks(dek, ITEM, chunks.slice(0, -1))).rejects.toBeInstanceOf(DecryptionError)
    await expect(decryptChunks(dek, ITEM, [])).rejects.toBeInstanceOf(DecryptionError)
  })

  it('fails when a chunk is duplicated or comes from another item', async () => {
    const chunks = await encryptBlob(dek, ITEM, data, 1024)
    const other = await encryptBlob(dek, 'item-other', data, 1024)
    await expect(decryptChunks(dek, ITEM, [...chunks.slice(0, 4), other[4]!, ...chunks.slice(5)])).rejects.toBeInstanceOf(
      DecryptionError,
    )
    await expect(decryptChunks(dek, ITEM, [chunks[0]!, ...chunks])).rejects.toBeInstanceOf(DecryptionError)
  })

  it('refuses a chunk size that is not a positive integer', async () => {
    await expect(encryptBlob(dek, ITEM, data, 0)).rejects.toThrow(RangeError)
    await expect(collect(encryptStream(dek, ITEM, fromArray([data]), 1.5))).rejects.toThrow(RangeError)
  })
})

describe('streams', () => {
  const pieces = [pattern(1, 2), pattern(3 * MiB, 3), pattern(7, 4)]
  const whole = joined(pieces)
  let encrypted: Uint8Array[]

  beforeAll(async () => {
    encrypted = await collect(encryptStream(dek, ITEM, fromArray(pieces), 1024))
  })

  it('re-chunks odd-sized pieces into the same chunks a blob would have', () => {
    const expected = Math.ceil(whole.length / 1024)
    expect(encrypted).toHaveLength(expected)
    expect(encrypted.slice(0, -1).every((c) => c.length === encryptedChunkSize(1024))).toBe(true)
    expect(encrypted.at(-1)).toHaveLength(encryptedChunkSize(whole.length % 1024))
  })

  it('round-trips through decryptStream and decryptChunks', async () => {
    expectSameBytes(joined(await collect(decryptStream(dek, ITEM, fromArray(encrypted)))), whole)
    expectSameBytes(await decryptChunks(dek, ITEM, encrypted), whole)
  })

  it('decrypts what encryptBlob made', async () => {
    const chunks = await encryptBlob(dek, ITEM, whole.subarray(0, 5000), 1024)
    expect(joined(await collect(decryptStream(dek, ITEM, fromArray(chunks))))).toEqual(whole.subarray(0, 5000))
  })

  it('takes ReadableStreams on both sides', async () => {
    const data = pattern(5000, 9)
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(data.subarray(0, 1))
        controller.enqueue(data.subarray(1, 4000))
        controller.enqueue(data.subarray(4000))
        controller.close()
      },
    })
    const chunks = await collect(encryptStream(dek, ITEM, source, 1024))
    expect(chunks).toHaveLength(5)
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(c)
        controller.close()
      },
    })
    expect(joined(await collect(decryptStream(dek, ITEM, stream)))).toEqual(data)
  })

  it('handles an empty source: one empty chunk marked last', async () => {
    const chunks = await collect(encryptStream(dek, ITEM, fromArray([]), 1024))
    expect(chunks).toHaveLength(1)
    expect(chunks[0]).toHaveLength(29)
    expect(await decryptChunks(dek, ITEM, chunks)).toEqual(new Uint8Array())
    expect(joined(await collect(decryptStream(dek, ITEM, fromArray(chunks))))).toEqual(new Uint8Array())
  })

  it('handles a source whose size is an exact multiple of the chunk size, and empty pieces', async () => {
    const data = pattern(3072, 5)
    const chunks = await collect(encryptStream(dek, ITEM, fromArray([new Uint8Array(), data, new Uint8Array()]), 1024))
    expect(chunks).toHaveLength(3)
    expect(await decryptChunks(dek, ITEM, chunks)).toEqual(data)
  })

  it('reads only one piece ahead of what it has yielded', async () => {
    let pulled = 0
    async function* source(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 100; i++) {
        pulled++
        yield pattern(1024, i)
      }
    }
    const it = encryptStream(dek, ITEM, source(), 1024)
    await it.next()
    expect(pulled).toBe(2)
    await it.next()
    expect(pulled).toBe(3)
    await it.return()
  })

  it('fails when the last chunk is dropped (truncation)', async () => {
    await expect(collect(decryptStream(dek, ITEM, fromArray(encrypted.slice(0, -1))))).rejects.toThrow(
      new DecryptionError('Encrypted content is truncated: no last chunk'),
    )
    await expect(collect(decryptStream(dek, ITEM, fromArray([])))).rejects.toBeInstanceOf(DecryptionError)
  })

  it('fails when a chunk comes after the last', async () => {
    const small = await encryptBlob(dek, ITEM, pattern(3000), 1024)
    const extra = await encryptChunk(dek, ITEM, 3, false, pattern(10))
    await expect(collect(decryptStream(dek, ITEM, fromArray([...small, extra])))).rejects.toThrow(
      new DecryptionError('Encrypted content continues after its last chunk'),
    )
  })

  it('fails when two chunks are swapped, or one is from another item or altered', async () => {
    const small = await encryptBlob(dek, ITEM, pattern(5000), 1024)
    const swapped = [small[0]!, small[2]!, small[1]!, ...small.slice(3)]
    await expect(collect(decryptStream(dek, ITEM, fromArray(swapped)))).rejects.toBeInstanceOf(DecryptionError)

    const foreign = await encryptBlob(dek, 'item-other', pattern(5000), 1024)
    const mixed = [small[0]!, foreign[1]!, ...small.slice(2)]
    await expect(collect(decryptStream(dek, ITEM, fromArray(mixed)))).rejects.toBeInstanceOf(DecryptionError)

    const tampered = small.map((c) => c.slice())
    tampered[4]![40]! ^= 1
    await expect(collect(decryptStream(dek, ITEM, fromArray(tampered)))).rejects.toBeInstanceOf(DecryptionError)
  })

  it('cancels a ReadableStream source when the consumer stops early', async () => {
    let cancelled = false
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(pattern(1024))
      },
      cancel() {
        cancelled = true
      },
    })
    const it = encryptStream(dek, ITEM, source, 1024)
    await it.next()
    await it.return()
    expect(cancelled).toBe(true)
  })
})
