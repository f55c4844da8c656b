import { gzipSync } from 'node:zlib'
import { build, type Rolldown } from 'vite'
import { beforeAll, describe, expect, it } from 'vitest'

// What a visitor's browser downloads to show a public page, read from a production build of the
// SPA (in memory, with the project's own vite.config.ts): index.html's entry chunk and the chunks
// it imports, plus the page's route chunk (TanStack's automatic code splitting: `?tsr-split`) and
// the chunks it imports, which Vite preloads with it. Dynamic imports are left out: they load on
// use (a security key, a validation error, an administrator's dashboard), not with the page.

type Chunk = Rolldown.OutputChunk

const PUBLIC_PAGES = { '/': 'index', '/login': 'login', '/pricing': 'pricing' } as const
const BUDGET_KIB = 150

// Code only the app areas need. A module path matching one of these in a public page's first load
// means an import chain from the page (or from the route tree, which is in the entry) reaches it.
const APP_ONLY: Array<[string, RegExp]> = [
  ['the vault', /\/web\/features\/vault\//],
  ['the crypto module', /\/web\/crypto\//],
  ['the admin back office (its charts too)', /\/web\/features\/admin\//],
  ['Stripe', /node_modules\/@stripe\//],
  ['zod', /node_modules\/zod\//],
  ['WebAuthn', /node_modules\/@simplewebauthn\//],
]

let chunks: Chunk[] = []

beforeAll(async () => {
  // As `npm start` and a deployment build it: production React (the test runner sets NODE_ENV to
  // 'test', which would bundle React's development build), no local tools.
  const previous = { NODE_ENV: process.env.NODE_ENV, LEGACY_VAULT_DEV_TOOLS: process.env.LEGACY_VAULT_DEV_TOOLS }
  process.env.NODE_ENV = 'production'
  delete process.env.LEGACY_VAULT_DEV_TOOLS
  try {
    const result = await build({ configFile: 'vite.config.ts', logLevel: 'silent', build: { write: false } })
    const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[]
    chunks = outputs.flatMap((o) => o.output).filter((o): o is Chunk => o.type === 'chunk')
  } finally {
    for (const [key, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  }
}, 120_000)

function firstLoad(routeFile: string): Chunk[] {
  const byName = new Map(chunks.map((c) => [c.fileName, c]))
  const entry = chunks.find((c) => c.isEntry)
  const route = chunks.find((c) => c.moduleIds.some((id) => id.endsWith(`/web/routes/${routeFile}.tsx?tsr-split=component`)))
  if (!entry || !route) throw new Error(`no entry or no route chunk for ${routeFile}`)
  const seen = new Map<string, Chunk>()
  const visit = (chunk: Chunk) => {
    if (seen.has(chunk.fileName)) return
    seen.set(chunk.fileName, chunk)
    for (const name of chunk.imports) {
      const next = byName.get(name)
      if (next) visit(next)
    }
  }
  visit(entry)
  visit(route)
  return [...seen.values()]
}

const gzipKiB = (list: Chunk[]) => list.reduce((sum, c) => sum + gzipSync(c.code, { level: 9 }).length, 0) / 1024

describe('the public first load', () => {
  it('/, /login and /pricing load no vault, crypto, admin, Stripe, zod or WebAuthn code', () => {
    for (const [page, file] of Object.entries(PUBLIC_PAGES)) {
      const modules = firstLoad(file).flatMap((c) => c.moduleIds)
      const found = APP_ONLY.flatMap(([what, pattern]) => modules.filter((id) => pattern.test(id)).map((id) => `${page}: ${what} (${id.replace(/^.*?(web|node_modules)\//, '$1/')})`))
      expect(found).toEqual([])
    }
  })

  it(`/, /login and /pricing each load at most ${BUDGET_KIB} KiB of JavaScript (gzip -9, every file counted)`, () => {
    const sizes = Object.fromEntries(Object.entries(PUBLIC_PAGES).map(([page, file]) => [page, Math.round(gzipKiB(firstLoad(file)))]))
    for (const [page, kib] of Object.entries(sizes)) expect(kib, `${page}: ${JSON.stringify(sizes)}`).toBeLessThanOrEqual(BUDGET_KIB)
  })

  it('leaves the app areas in chunks of their own, loaded on entry (the vault, the admin back office)', () => {
    const entryModules = firstLoad('index').flatMap((c) => c.moduleIds)
    const vault = chunks.find((c) => c.moduleIds.some((id) => id.endsWith('/web/routes/_app/vault.tsx?tsr-split=component')))
    const admin = chunks.find((c) => c.moduleIds.some((id) => id.endsWith('/web/routes/admin.tsx?tsr-split=component')))
    expect(vault && admin).toBeTruthy()
    expect(entryModules.some((id) => id.includes('/web/routes/_app/vault.tsx?tsr-split'))).toBe(false)
    expect(entryModules.some((id) => id.includes('/web/routes/admin.tsx?tsr-split'))).toBe(false)
  })
})
