// `npm run db:squash`: writes migrations/squashed/schema.sql, the D1 migrations applied to an empty
// database as one script, which `npm start` gives a new local database in one step
// (scripts/lib/local-d1.mjs). Run after adding a migration; a test fails while it is out of date.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { root } from './lib/local-env.mjs'
import { SQUASHED_SCHEMA, squashedSchema } from './lib/local-d1.mjs'

const file = join(root, SQUASHED_SCHEMA)
mkdirSync(dirname(file), { recursive: true })
writeFileSync(file, await squashedSchema(root))
console.log(`Wrote ${SQUASHED_SCHEMA}.`)
