import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'

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
  },
}))
