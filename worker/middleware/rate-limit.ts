import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { AUTH_ERRORS } from '../../contract/messages'
import { tooManyRequests } from '../lib/errors'
import { withFacts } from '../openapi/facts'
import type { AppEnv } from '../types'

type LimiterName = 'LOGIN_LIMITER' | 'SIGNUP_LIMITER' | 'RESET_LIMITER' | 'LINK_LIMITER'

/** The client's address as Cloudflare's edge sets it (a client cannot forge it there). */
export function clientIp(c: Context<AppEnv>): string {
  return c.req.header('cf-connecting-ip') ?? 'unknown'
}

/** Fixed-window limit through a Workers rate-limiting binding; past it, 429 with a message. */
export async function enforceLimit(env: Env, binding: LimiterName, key: string): Promise<void> {
  const { success } = await env[binding].limit({ key })
  if (!success) throw tooManyRequests(AUTH_ERRORS.rateLimited)
}

/** Per-address limit for a purpose (login, signup, reset). */
export function rateLimitByIp(binding: LimiterName, purpose: string) {
  const middleware = createMiddleware<AppEnv>(async (c, next) => {
    await enforceLimit(c.env, binding, `${purpose}:ip:${clientIp(c)}`)
    await next()
  })
  return withFacts(middleware, { rateLimited: true })
}
