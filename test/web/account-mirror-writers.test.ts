import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// An owner's requests are judged by the owner's object's copy of the account (worker/owner/account.ts
// mirrorAccount), not by D1. A write to a column that copy holds, with no mirrorAccount after it,
// leaves the gate judging by the old value (a paused owner still in, a lapsed plan still paid for)
// until the next sign-in. This reads the worker's source: every write to such a column must share
// a function with a mirrorAccount call, or be built by a function whose every caller in its file
// makes one.

const root = join(__dirname, '../..')
const read = (path: string) => readFileSync(join(root, path), 'utf8')
function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name)
    return statSync(join(root, path)).isDirectory() ? filesUnder(path) : /\.ts$/.test(name) ? [path] : []
  })
}

/** Writers that need no mirror, and why. */
const EXEMPT: Record<string, string> = {
  'worker/billing/subscriptions.ts claimGuestSubscription':
    'runs at registration before the first session opens; that session carries the account as it is then (worker/routes/auth.ts)',
}

/** The `users` fields accountOf copies (its `user.x` reads), as properties and as SQL columns. */
function accountColumns(): Set<string> {
  const src = read('worker/owner/account.ts')
  const start = src.indexOf('export function accountOf')
  const body = src.slice(start, src.indexOf('\n}\n', start))
  const fields = [...body.matchAll(/user\.(\w+)/g)].map((m) => m[1]!).filter((f) => f !== 'id')
  return new Set(fields.flatMap((f) => [f, f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]))
}

interface Write {
  node: ts.Node
  /** The columns it sets, or 'unknown' when they are not written out (`.set(patch)`). */
  columns: string[] | 'unknown'
}

/** The text of a template literal's parts (its SQL), without the `${…}` expressions. */
function templateText(node: ts.TemplateLiteral): string {
  return ts.isNoSubstitutionTemplateLiteral(node) ? node.text : [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ')
}

/** Property names of an object literal, spreads of literals (`...(x ? { a } : {})`) included. */
function objectKeys(node: ts.Node): string[] {
  const keys: string[] = []
  const visit = (n: ts.Node) => {
    if (ts.isPropertyAssignment(n) || ts.isShorthandPropertyAssignment(n)) keys.push(n.name.getText())
    if (!ts.isFunctionLike(n)) ts.forEachChild(n, visit)
  }
  visit(node)
  return keys
}

/** Every write to `users`: drizzle's `.update(users).set({…})` and SQL's `update users set … where`. */
function usersWrites(file: ts.SourceFile): Write[] {
  const writes: Write[] = []
  const visit = (node: ts.Node) => {
    // `x.update(users).set(arg)`: the call of `.set` on the call of `.update(users)`.
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'set') {
      const target = node.expression.expression
      if (
        ts.isCallExpression(target) &&
        ts.isPropertyAccessExpression(target.expression) &&
        target.expression.name.text === 'update' &&
        target.arguments[0]?.getText() === 'users'
      ) {
        const arg = node.arguments[0]
        writes.push({ node, columns: arg && ts.isObjectLiteralExpression(arg) ? objectKeys(arg) : 'unknown' })
      }
    }
    if (ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const set = /update\s+users\s+set\b([\s\S]*?)(?:\bwhere\b|$)/i.exec(templateText(node))
      if (set) writes.push({ node, columns: [...set[1]!.matchAll(/(\w+)\s*=/g)].map((m) => m[1]!) })
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return writes
}

type Fn = ts.FunctionLikeDeclaration

/** The functions around `node`, innermost first. */
function enclosingFunctions(node: ts.Node): Fn[] {
  const found: Fn[] = []
  for (let n = node.parent; n; n = n.parent) if (ts.isFunctionLike(n) && 'body' in n && n.body) found.push(n as Fn)
  return found
}

/** A function's name: its declaration's, or the variable's it is assigned to. */
function nameOf(fn: Fn): string | null {
  if (fn.name && ts.isIdentifier(fn.name)) return fn.name.text
  if (ts.isVariableDeclaration(fn.parent) && ts.isIdentifier(fn.parent.name)) return fn.parent.name.text
  return null
}

function calls(within: ts.Node, name: string): ts.CallExpression[] {
  const found: ts.CallExpression[] = []
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n)) {
      const callee = n.expression
      const called = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : null
      if (called === name) found.push(n)
    }
    ts.forEachChild(n, visit)
  }
  visit(within)
  return found
}

/**
 * The function a write or a call belongs to: the innermost around it, passing over anonymous
 * callbacks inside another function (`rows.map((r) => …)`, `db.batch([…])`); a route handler is
 * its own.
 */
function ownerOf(node: ts.Node): Fn | null {
  const around = enclosingFunctions(node)
  const owner = around.find((fn, i) => nameOf(fn) !== null || i === around.length - 1 || !ts.isCallExpression(fn.parent))
  return owner ?? null
}

/** The write runs where it is written (awaited on the way up to its function), not handed back as a statement. */
function runsIn(node: ts.Node, fn: Fn): boolean {
  for (let n = node.parent; n && n !== fn; n = n.parent) if (ts.isAwaitExpression(n)) return true
  return false
}

/**
 * The writes to account columns in one file whose function makes no mirrorAccount call; a write a
 * function builds and hands back (a statement for a batch) counts as mirrored when every caller's does.
 */
export function unmirrored(path: string, src: string, columns: Set<string>): string[] {
  const file = ts.createSourceFile(path, src, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const mirrors = (fn: Fn | null) => fn !== null && calls(fn, 'mirrorAccount').length > 0
  const problems: string[] = []
  for (const write of usersWrites(file)) {
    if (write.columns !== 'unknown' && !write.columns.some((c) => columns.has(c))) continue
    const fn = ownerOf(write.node)
    if (mirrors(fn)) continue
    const name = fn ? nameOf(fn) : null
    if (name && EXEMPT[`${path} ${name}`]) continue
    if (fn && name && !runsIn(write.node, fn)) {
      const callers = calls(file, name)
      if (callers.length > 0 && callers.every((c) => mirrors(ownerOf(c)))) continue
    }
    const line = file.getLineAndCharacterOfPosition(write.node.getStart()).line + 1
    problems.push(`${path}:${line}${name ? ` (${name})` : ''}`)
  }
  return problems
}

describe("the owner's object's copy of the account", () => {
  const columns = accountColumns()

  it("is read from accountOf: the gate's columns are known", () => {
    for (const c of ['paused_at', 'subscriptionStatus', 'plan_tier', 'role', 'deletionRequestedAt', 'payment_grace_until']) expect(columns.has(c), c).toBe(true)
    expect(columns.has('password_hash')).toBe(false)
  })

  it('is written again by every writer of those columns in the worker', () => {
    const files = filesUnder('worker')
    const writes = files.flatMap((path) => usersWrites(ts.createSourceFile(path, read(path), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)))
    // The reader finds the writers (a reader that found none would pass whatever the code does).
    expect(writes.length).toBeGreaterThan(25)
    expect(files.flatMap((path) => unmirrored(path, read(path), columns))).toEqual([])
  })

  it('flags a writer that does not mirror, directly or through the callers of a statement builder', () => {
    const direct = `
      export async function pause(db: Db, id: string, now: number): Promise<{ ok: boolean }> {
        await db.update(users).set({ pausedAt: now }).where(eq(users.id, id))
        return { ok: true }
      }
      export async function rename(db: Db, id: string, passwordHash: string): Promise<void> {
        await db.update(users).set({ passwordHash }).where(eq(users.id, id))
      }`
    expect(unmirrored('a.ts', direct, columns)).toEqual(['a.ts:3 (pause)'])
    const mirrored = direct.replace('return { ok: true }', 'await mirrorAccount(id)\n        return { ok: true }')
    expect(unmirrored('a.ts', mirrored, columns)).toEqual([])

    const builder = (mirrorInCaller: boolean) => `
      function grant(id: string, now: number) {
        return sql\`update users set plan_tier = \${'premium'}, updated_at = \${now} where id = \${id}\`
      }
      export const routes = new Hono().post('/x', async (c) => {
        await batch(c.env, [grant(c.var.account.id, Date.now())])
        ${mirrorInCaller ? 'await mirrorAccount(c.var.account.id)' : ''}
        return c.json({})
      })`
    expect(unmirrored('b.ts', builder(false), columns)).toEqual(['b.ts:3 (grant)'])
    expect(unmirrored('b.ts', builder(true), columns)).toEqual([])

    // A helper inside a function that mirrors on another path is a writer of its own.
    const inner = (mirrorInHelper: boolean) => `
      export async function fail(db: Db, id: string, now: number): Promise<void> {
        const pastDue = async () => {
          await db.update(users).set({ subscriptionStatus: 'past_due' }).where(eq(users.id, id))
          ${mirrorInHelper ? 'await mirrorAccount(id)' : ''}
        }
        if (now > 0) return pastDue()
        const [row] = await db.update(users).set({ paymentGraceUntil: now }).where(eq(users.id, id)).returning()
        await mirrorAccount(id, row)
        await Promise.all([1, 2].map(async () => db.update(users).set({ role: 'owner' }).where(eq(users.id, id))))
      }`
    expect(unmirrored('c.ts', inner(false), columns)).toEqual(['c.ts:4 (pastDue)'])
    expect(unmirrored('c.ts', inner(true), columns)).toEqual([])
  })
})
