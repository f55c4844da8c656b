import { applyD1Migrations } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { network } from './network'

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)

// Outbound requests to Stripe's API are answered by the handlers a test installs (network.use).
beforeAll(() => network.enable())
afterEach(() => network.resetHandlers())
afterAll(() => network.disable())
