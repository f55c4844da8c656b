import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { isDevelopment } from '../lib/environment'
import type { AppEnv } from '../types'

// Where an API request's time goes, locally: a `Server-Timing` header with the hops to the owner's
// object (`session`, the session check made there; `owner`, the route's calls) and the whole
// (`total`), in milliseconds. Only where the local tools are (it would tell anyone how long another owner's
// checks take); `npm run bench -- api` reads it. Timers in workerd move only across I/O, so these
// are the waits; the worker's own computing shows as the client's time minus them.

export const serverTiming = createMiddleware<AppEnv>(async (c, next) => {
  if (!isDevelopment(c.env)) return next()
  const timings = new Map<string, number>()
  c.set('timings', timings)
  const started = performance.now()
  await next()
  timings.set('total', performance.now() - started)
  c.res.headers.set('Server-Timing', [...timings].map(([name, ms]) => `${name};dur=${ms.toFixed(2)}`).join(', '))
})

/** Runs `run`, adding its time to `name` when timings are being kept. */
export async function timed<T>(c: Context<AppEnv>, name: string, run: () => Promise<T>): Promise<T> {
  const timings = c.get('timings')
  if (!timings) return run()
  const started = performance.now()
  try {
    return await run()
  } finally {
    addTiming(c, name, performance.now() - started)
  }
}

/** Adds `ms` to `name` when timings are being kept. */
export function addTiming(c: Context<AppEnv>, name: string, ms: number): void {
  const timings = c.get('timings')
  if (timings) timings.set(name, (timings.get(name) ?? 0) + ms)
}
