import { env, exports } from 'cloudflare:workers'
import type { AuthResponse, OutboxMessage } from '../../contract/auth'

let ipCounter = 0
/** A distinct client address per call, so the per-address rate limits do not couple tests. */
export function freshIp(): string {
  ipCounter++
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`
}

export interface CallOptions {
  method?: string
  body?: unknown
  token?: string
  cookie?: string
  ip?: string
  headers?: Record<string, string>
  rawBody?: string
}

export async function call(path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { 'cf-connecting-ip': options.ip ?? freshIp(), ...options.headers }
  if (options.body !== undefined || options.rawBody !== undefined) headers['content-type'] ??= 'application/json'
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.cookie) headers.cookie = options.cookie
  return exports.default.fetch(
    new Request(`http://localhost${path}`, {
      method: options.method ?? (options.body !== undefined || options.rawBody !== undefined ? 'POST' : 'GET'),
      headers,
      body: options.rawBody ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
    }),
  )
}

let userCounter = 0
export function uniqueEmail(prefix = 'owner'): string {
  userCounter++
  return `${prefix}-${userCounter}-${crypto.randomUUID().slice(0, 8)}@example.com`
}

export async function register(overrides: Partial<{ email: string; password: string; displayName: string }> = {}) {
  const body = {
    email: overrides.email ?? uniqueEmail(),
    password: overrides.password ?? 'correct horse battery',
    displayName: overrides.displayName ?? 'Ada Owner',
  }
  const res = await call('/api/auth/register', { body })
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`)
  const data = (await res.json()) as AuthResponse
  return { ...data, password: body.password, email: body.email }
}

export async function outbox(): Promise<OutboxMessage[]> {
  const res = await call('/api/dev/outbox')
  return (await res.json()) as OutboxMessage[]
}

export { env }
