import { defineConfig } from 'drizzle-kit'

// The owner's Durable Object (worker/owner/): its SQL migrations and the `migrations.js` bundle
// that the object applies to itself when it starts (`npm run db:generate`).
export default defineConfig({
  dialect: 'sqlite',
  driver: 'durable-sqlite',
  schema: './worker/owner/schema.ts',
  out: './worker/owner/migrations',
  migrations: { prefix: 'index' },
})
