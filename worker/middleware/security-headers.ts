import { createMiddleware } from 'hono/factory'
import { secureHeaders } from 'hono/secure-headers'

// One policy for every response, HTML, assets and API alike. No inline script is allowed; inline
// styles are, because the accessible UI primitives position popovers with style attributes.
function policy(stripe: boolean) {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      // With billing on, Stripe's Payment Element: its script, its frames and its API, nothing else.
      scriptSrc: ["'self'", ...(stripe ? ['https://js.stripe.com'] : [])],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'", ...(stripe ? ['https://api.stripe.com'] : [])],
      ...(stripe ? { frameSrc: ['https://js.stripe.com', 'https://hooks.stripe.com'] } : {}),
      workerSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    strictTransportSecurity: 'max-age=63072000; includeSubDomains; preload',
    xFrameOptions: 'DENY',
    xContentTypeOptions: 'nosniff',
    // Token-bearing links (reset, verification) must never leak through a Referer header.
    referrerPolicy: 'no-referrer',
    crossOriginOpenerPolicy: 'same-origin',
    crossOriginResourcePolicy: 'same-origin',
    permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: stripe ? ['self', 'https://js.stripe.com'] : [] },
  })
}

const plain = policy(false)
const withStripe = policy(true)

/** Stripe's origins are allowed only on a server with billing on (a publishable key configured). */
export const securityHeaders = createMiddleware<{ Bindings: Env }>((c, next) =>
  ((c.env as { STRIPE_PUBLISHABLE_KEY?: string }).STRIPE_PUBLISHABLE_KEY ? withStripe : plain)(c, next),
)
