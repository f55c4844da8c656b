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
