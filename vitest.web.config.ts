import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Unit tests of the SPA's rules (API client, validation, toasts, navigation) in Node.
export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./web', import.meta.url)) } },
  test: {
    name: 'web',
    include: ['test/web/**/*.test.ts'],
    environment: 'node',
  },
})
