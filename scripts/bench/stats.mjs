// Small numeric helpers shared by the measurements.

export function quantile(samples, q) {
  const sorted = [...samples].sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
}

export const median = (samples) => quantile(samples, 0.5)

/** Runs fn n times one after another; returns the durations in ms. */
export async function timeRuns(fn, n) {
  const samples = []
  for (let i = 0; i < n; i++) {
    const start = performance.now()
    await fn(i)
    samples.push(performance.now() - start)
  }
  return samples
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

export const MiB = 1024 * 1024

/** figure / reference, or null when either is missing. */
export function ratio(figure, reference) {
  if (!Number.isFinite(figure) || !Number.isFinite(reference) || reference === 0) return null
  return figure / reference
}

/** Runs `fn(i)` for i in [0, n) with at most `limit` in flight; resolves with the results in order. */
export async function pool(n, limit, fn) {
  const results = new Array(n)
  let next = 0
  async function worker() {
    for (;;) {
      const i = next++
      if (i >= n) return
      results[i] = await fn(i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, n) }, worker))
  return results
}
