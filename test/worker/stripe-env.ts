import { env } from 'cloudflare:test'

// The worker's env with Stripe configured (test keys): requests made with it take the Stripe
// billing path. Stripe's HTTP API itself is answered at the fetch boundary by the tests that need it.

export const WEBHOOK_SECRET = 'whsec_test_secret'

export const stripeEnv: Env = {
  ...env,
  STRIPE_SECRET_KEY: 'sk_test_x',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
  STRIPE_PRICE_BASIC: 'price_basic',
  STRIPE_PRICE_PREMIUM: 'price_premium',
  STRIPE_PRICE_ENTERPRISE: 'price_enterprise',
}

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(message)))
  return [...mac].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** The `Stripe-Signature` header Stripe sends: `t=…,v1=HMAC_SHA256(secret, t + '.' + body)`. */
export async function stripeSignature(payload: string, t = Math.floor(Date.now() / 1000), secret = WEBHOOK_SECRET): Promise<string> {
  return `t=${t},v1=${await hmacHex(secret, `${t}.${payload}`)}`
}
