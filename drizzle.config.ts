import { defineConfig } from 'drizzle-kit'

// D1 (what spans owners): `npm run db:generate` writes SQL migrations that wrangler applies
// (`migrations_dir`). The owner's object has its own: drizzle.owner.config.ts.
export default defineConfig({
  dialect: 'sqlite',
  schema: './worker/db/schema.ts',
  out: './migrations',
  migrations: { prefix: 'index' },
})
