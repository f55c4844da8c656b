import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// The worker's arrows run one way (0.3 · 7 of 7): routes and the host (the owner's Durable Object,
// worker/host) above, the domain's services and their RPC facades (worker/services, worker/engine,
// worker/billing) in the middle, the floor every act stands on (worker/owner: the unit of work, its
// database and schema, the account copy, the audit chain) below. Two rules, read from the source:
//
// | rule                                   | what it keeps out                                     |
// |----------------------------------------|-------------------------------------------------------|
// | the floor's run-time imports, followed | the floor reaching up into a service or the host      |
// | all the way, stay in FLOOR             |                                                       |
// | only worker/index.ts imports the host  | a service or route calling the object's code directly |
//
// Type-only imports do not count: they leave no arrow at run time (the RPC stub's type names the host).

const root = join(__dirname, '../..')

/** Where the floor and what it stands on may live. */
const FLOOR = ['worker/owner/', 'worker/lib/', 'worker/db/', 'worker/mail/', 'contract/']
const HOST = 'worker/host/'
const HOST_IMPORTERS = ['worker/index.ts']

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = `${dir}/${name}`
    return statSync(join(root, path)).isDirectory() ? filesUnder(path) : /\.ts$/.test(name) ? [path] : []
  })
}

/** The project files a module imports at run time (relative specifiers, resolved; type-only ones left out). */
export function runtimeImports(path: string, source: string, exists: (p: string) => boolean): string[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, false)
  const found: string[] = []
  for (const statement of file.statements) {
    let specifier: ts.Expression | undefined
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause
      if (clause?.isTypeOnly) continue
      const bindings = clause?.namedBindings
      if (clause && !clause.name && bindings && ts.isNamedImports(bindings) && bindings.elements.every((e) => e.isTypeOnly)) continue
      specifier = statement.moduleSpecifier
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      specifier = statement.moduleSpecifier
    }
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue
    const base = normalize(join(dirname(path), specifier.text))
    const resolved = [`${base}.ts`, `${base}/index.ts`, base].find(exists)
    if (resolved) found.push(resolved)
  }
  return found
}

/** Breaches of the two rules in a tree of sources (path → text). */
export function layerBreaches(sources: Map<string, string>): string[] {
  const exists = (p: string) => sources.has(p)
  const imports = new Map([...sources].map(([path, text]) => [path, runtimeImports(path, text, exists)]))
  const breaches: string[] = []
  // The floor's closure: every module the floor reaches at run time.
  const seen = new Set<string>()
  const stack = [...sources.keys()].filter((p) => p.startsWith('worker/owner/')).map((p) => [p, p] as const)
  while (stack.length) {
    const [path, via] = stack.pop()!
    if (seen.has(path)) continue
    seen.add(path)
    if (!FLOOR.some((dir) => path.startsWith(dir))) breaches.push(`the floor reaches ${path} (through ${via})`)
    for (const next of imports.get(path) ?? []) stack.push([next, path])
  }
  for (const [path, targets] of imports) {
    if (HOST_IMPORTERS.includes(path) || path.startsWith(HOST)) continue
    for (const target of targets) if (target.startsWith(HOST)) breaches.push(`${path} imports the host (${target})`)
  }
  return breaches
}

describe('the worker’s layers', () => {
  it('the floor imports nothing above it, and only the entry point imports the host', () => {
    const paths = [...filesUnder('worker'), ...filesUnder('contract')]
    const sources = new Map(paths.map((p) => [p, readFileSync(join(root, p), 'utf8')]))
    expect(layerBreaches(sources)).toEqual([])
  })

  it('catches a floor module that reaches a service, even through another module, and a service that imports the host', () => {
    const sources = new Map([
      ['worker/owner/unit.ts', "import { helper } from '../lib/helper'\nimport type { Row } from '../services/rows'\n"],
      ['worker/lib/helper.ts', "export { mailOf } from '../services/mail-of'\n"],
      ['worker/services/mail-of.ts', 'export const mailOf = 1\n'],
      ['worker/services/rows.ts', 'export type Row = number\n'],
      ['worker/services/items-facade.ts', "import { OwnerVault } from '../host/vault-object'\nimport type { OwnerHost } from '../owner/host'\n"],
      ['worker/host/vault-object.ts', "import { unit } from '../owner/unit'\n"],
      ['worker/index.ts', "export { OwnerVault } from './host/vault-object'\n"],
    ])
    expect(layerBreaches(sources)).toEqual([
      'the floor reaches worker/services/mail-of.ts (through worker/lib/helper.ts)',
      'worker/services/items-facade.ts imports the host (worker/host/vault-object.ts)',
    ])
  })
})
