import { defineConfig } from 'vitest/config'

// Browser journeys: Debian's Chromium driven by playwright-core against the app exactly as
// `npm start` serves it (a fresh local state per run). Two files at a time, each against a server
// of its own (test/e2e/global-setup.ts): a journey mostly waits (on workerd, on the page's PBKDF2,
// on mail), so two keep two cores busier than one. E2E_WORKERS=1 runs them one by one.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['./test/e2e/global-setup.ts'],
    maxWorkers: Math.max(1, Number(process.env.E2E_WORKERS ?? 2)),
    testTimeout: 60_000,
    // A page here is a production build served through workerd on a shared two-core machine: a
    // route's chunks can take over a second to arrive, so polls wait up to five.
    expect: { poll: { timeout: 5_000 } },
    hookTimeout: 240_000,
  },
})
