import { setupServer } from 'msw/native'

// The worker tests' one network mock (msw's fetch interceptor, as @msw/cloudflare's setupNetwork
// does it; that package is not on the registry this project installs from). Only Stripe's API is
// intercepted, and a call to it that no handler answers fails the test; any other request goes
// out untouched (the worker tests make none).
export function setupNetwork() {
  const server = setupServer()
  return {
    enable: () =>
      server.listen({
        onUnhandledRequest(request, print) {
          if (new URL(request.url).hostname === 'api.stripe.com') print.error()
        },
      }),
    disable: () => server.close(),
    use: server.use.bind(server),
    resetHandlers: server.resetHandlers.bind(server),
  }
}

export const network = setupNetwork()
