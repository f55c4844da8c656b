import { defineConfig } from 'vitest/config'

// Browser journeys: Debian's Chromium driven by playwright-core against the app exactly as
// `npm start` serves it (a fresh local state per run). One file at a time: two cores here.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['./test/e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    // A page here is a production build served through workerd on a shared two-core machine: a
    // route's chunks can take over a second to arrive, so polls wait up to five.
    expect: { poll: { timeout: 5_000 } },
    hookTimeout: 240_000,
  },
})
