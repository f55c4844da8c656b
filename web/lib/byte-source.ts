// Both async iterables and WHATWG ReadableStreams are accepted as byte sources: File.stream() and
// fetch bodies are ReadableStreams, but not every browser makes them async-iterable yet.

export type ByteSource = AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>

/** Iterates a source; an early stop by the consumer cancels a ReadableStream rather than leaking it. */
export async function* byteSource(source: ByteSource): AsyncGenerator<Uint8Array, void, undefined> {
  if (!('getReader' in source)) {
    yield* source
    return
  }
  const reader = source.getReader()
  let done = false
  try {
    for (;;) {
      const result = await reader.read()
      if (result.done) {
        done = true
        return
      }
      yield result.value
    }
  } finally {
    if (done) reader.releaseLock()
    else await reader.cancel().catch(() => undefined)
  }
}

/**
 * Reads a stream in pieces that are only lent: each is valid until the next one is asked for.
 * Where the stream is a byte stream (a fetch body is), the browser writes into one buffer of
 * `scratchBytes` that every read reuses, so reading allocates nothing per piece; elsewhere the
 * pieces are the stream's own. For a consumer that copies each piece before it asks for the next.
 */
export async function* lentPieces(stream: ReadableStream<Uint8Array>, scratchBytes = 1 << 20): AsyncGenerator<Uint8Array, void, undefined> {
  let byob: ReadableStreamBYOBReader
  try {
    byob = stream.getReader({ mode: 'byob' })
  } catch {
    // Not a byte stream.
    yield* byteSource(stream)
    return
  }
  let scratch = new ArrayBuffer(scratchBytes)
  let done = false
  try {
    for (;;) {
      const result = await byob.read(new Uint8Array(scratch))
      if (result.done) {
        done = true
        return
      }
      // A read hands the buffer to the stream and back, as a new ArrayBuffer over the same memory.
      scratch = result.value.buffer as ArrayBuffer
      if (result.value.length > 0) yield result.value
    }
  } finally {
    if (done) byob.releaseLock()
    else await byob.cancel().catch(() => undefined)
  }
}
