import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Unit tests of the SPA's rules (API client, validation, toasts, navigation) in Node.
export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./web', import.meta.url)) } },
  test: {
    name: 'web',
    include: ['test/web/**/*.test.ts'],
    environment: 'node',
    // Two files at a time (vitest's default on two cores is one).
    maxWorkers: 2,
    // A bound for a hung test, not a speed check: a shared two-core machine makes a PBKDF2 or a
    // build of a second take several.
    testTimeout: 30_000,
  },
})
