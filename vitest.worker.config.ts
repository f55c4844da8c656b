import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Files that take far longer than the rest start first, so that two workers do not end the run
 * with one of them alone on a minute-long file. The rest keep vitest's own order.
 */
const SLOW_FILES = ['test/worker/release-simulation.test.ts']
class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => (SLOW_FILES.some((slow) => file.moduleId.endsWith(slow)) ? 0 : 1)
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}

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
    sequence: { sequencer: SlowFilesFirst },
  },
}))
