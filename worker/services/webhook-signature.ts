import { fromBase64, timingSafeEqual } from '../lib/crypto'

/** How far a webhook's timestamp may be from now (either way), as Standard Webhooks advises. */
export const WEBHOOK_TOLERANCE_MS = 5 * 60_000

/**
 * Verifies a Standard Webhooks signature (the framing Resend, Svix and others send): the HMAC-SHA256
 * of `${id}.${timestamp}.${body}` under the secret (`whsec_` then base64), sent base64 as one of the
 * space-separated `v1,<signature>` entries of `webhook-signature`. Refuses a stale timestamp, so a
 * captured event cannot be replayed later.
 */
export async function verifyStandardWebhook(
  secret: string,
  body: string,
  headers: { id?: string; timestamp?: string; signature?: string },
  now = Date.now(),
): Promise<boolean> {
  const { id, timestamp, signature } = headers
  if (!id || !timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false
  if (Math.abs(now - Number(timestamp) * 1000) > WEBHOOK_TOLERANCE_MS) return false
  let keyBytes: Uint8Array<ArrayBuffer>
  try {
    keyBytes = fromBase64(secret.startsWith('whsec_') ? secret.slice(6) : secret)
  } catch {
    return false
  }
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const expected = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`)))
  return signature.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2)
    if (version !== 'v1' || !value) return false
    try {
      return timingSafeEqual(fromBase64(value), expected)
    } catch {
      return false
    }
  })
}
