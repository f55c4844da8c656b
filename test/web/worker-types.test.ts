import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// `npm start` asks wrangler whether worker-configuration.d.ts still matches wrangler.toml, and
// prints "Your types might be out of date" when it does not: a line a newcomer cannot act on.
// The Env type is made from wrangler.toml and the secrets named in .dev.vars.example (not from a
// developer's own .dev.vars, whose optional secrets would become required types).

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

describe('the Env type', () => {
  it('is up to date with wrangler.toml and .dev.vars.example (npm run cf-typegen makes it)', { timeout: 60_000 }, () => {
    const check = spawnSync('npx', ['wrangler', 'types', '--check', '--env-file=.dev.vars.example'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' } })
    expect(`${check.stdout}${check.stderr}`).toContain('up to date')
    expect(check.status).toBe(0)
  })
})
