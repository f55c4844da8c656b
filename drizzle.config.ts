import { defineConfig } from 'drizzle-kit'

// `npm run db:generate` writes SQL migrations that wrangler applies (`migrations_dir`).
export default defineConfig({
  dialect: 'sqlite',
  schema: './worker/db/schema.ts',
  out: './migrations',
  migrations: { prefix: 'index' },
})
