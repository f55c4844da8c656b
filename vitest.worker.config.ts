import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'
import { slowFilesFirst } from './test/slow-files-first'

// Worker tests run inside workerd with the real bindings of wrangler.toml: local D1 (migrations
// applied by the setup file), R2, the Durable Object and the rate limiters. Storage is per file.
export default defineConfig(async () => ({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        bindings: {
          ENVIRONMENT: 'development',
          APP_ORIGIN: 'http://localhost:8787',
          JWT_SECRET: 'test-only-secret-that-is-long-enough-for-hs256-0123456789',
          TEST_MIGRATIONS: await readD1Migrations('./migrations'),
        },
      },
    }),
  ],
  test: {
    name: 'worker',
    include: ['test/worker/**/*.test.ts'],
    setupFiles: ['./test/worker/setup.ts'],
    // vitest's default on two cores is one file at a time; two keep both busy (each file has its
    // own storage, so files running side by side share nothing).
    maxWorkers: 2,
    // A bound for a hung test, not a speed check: on a shared two-core machine a test of a few
    // hundred milliseconds can take seconds (vitest's default of 5 s failed 13 tests under load).
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The one file of over a minute (the simulation) first, not last on a worker of its own.
    sequence: { sequencer: slowFilesFirst(['test/worker/release-simulation.test.ts']) },
  },
}))
