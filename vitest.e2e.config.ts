import { defineConfig } from 'vitest/config'
import { slowFilesFirst } from './test/slow-files-first'

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
    // A page here is a production build served through workerd on a shared two-core machine, beside
    // the worker suite (scripts/test-all.mjs): a route's chunks can take seconds to arrive, so polls
    // wait up to fifteen (a poll that passes returns at once; only a failing one waits it out).
    expect: { poll: { timeout: 15_000 } },
    hookTimeout: 240_000,
    // The longest journeys (over a minute each in a quiet run) start first.
    sequence: { sequencer: slowFilesFirst(['test/e2e/accessibility.test.ts', 'test/e2e/vault-recovery.test.ts', 'test/e2e/circle.test.ts']) },
  },
})
