#!/usr/bin/env node
// npm run mutate [-- --only id,id] [-- --list] [-- --check] [-- --no-baseline]
//
// Proves the tests guard the rules that matter. Each mutation in scripts/mutations.mjs is a small,
// realistic bug in one rule; it is applied alone to a scratch copy of the working tree, only the
// test files that cover that rule run, and the mutation counts as killed when a test whose name
// names the rule (`by`) fails. A mutation killed only by some other test was caught by chance, and
// counts as surviving. Prints a table and the score; exits 1 below 100%.
//
// Not part of `npm test` or CI: it runs vitest once per mutation (about 20 minutes on 2 cores).

import { spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { scratchCopy } from './lib/scratch-copy.mjs'
import { MUTATIONS } from './mutations.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const RUN_TIMEOUT_MS = 10 * 60_000
const args = process.argv.slice(2)
const only = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1].split(',')) : null
const chosen = MUTATIONS.filter((m) => !only || only.has(m.id))

if (args.includes('--list')) {
  for (const m of MUTATIONS) console.log(`${m.id.padEnd(34)} ${m.rule}`)
  process.exit(0)
}

/** A mutation is one edit (`file`, `from`, `to`) or, for a rule guarded in two places, `edits`. */
const editsOf = (m) => m.edits ?? [{ file: m.file, from: m.from, to: m.to }]

const configOf = (file) => (file.startsWith('test/web/') ? 'vitest.web.config.ts' : file.startsWith('test/e2e/') ? 'vitest.e2e.config.ts' : 'vitest.worker.config.ts')

/** Every mutation must name text that occurs exactly once in its file: a stale entry is an error, not a kill. */
function checkList() {
  const ids = new Set()
  const problems = []
  for (const m of MUTATIONS) {
    if (ids.has(m.id)) problems.push(`${m.id}: duplicate id`)
    ids.add(m.id)
    for (const e of editsOf(m)) {
      const text = readFileSync(join(ROOT, e.file), 'utf8')
      const n = text.split(e.from).length - 1
      if (n !== 1) problems.push(`${m.id}: "${e.from.slice(0, 60)}" occurs ${n} times in ${e.file}`)
      if (e.from === e.to) problems.push(`${m.id}: changes nothing`)
    }
    for (const t of m.tests) if (!existsSync(join(ROOT, t))) problems.push(`${m.id}: no test file ${t}`)
    if (!(m.by instanceof RegExp)) problems.push(`${m.id}: 'by' must be a RegExp naming the rule`)
  }
  if (problems.length) {
    console.error(`The mutation list is out of date:\n  ${problems.join('\n  ')}`)
    process.exit(2)
  }
}

/** Runs the files under one vitest config; resolves to the failing tests' full names (or a crash). */
function runVitest(dir, config, files) {
  const out = join(dir, `.mutate-${process.pid}-${Date.now()}.json`)
  return new Promise((resolve) => {
    const child = spawn(join(dir, 'node_modules/.bin/vitest'), ['run', '--config', config, '--reporter=json', `--outputFile=${out}`, ...files], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    })
    let stderr = ''
    child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)))
    const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), RUN_TIMEOUT_MS)
    child.on('exit', (code) => {
      clearTimeout(timer)
      let failed = []
      let crashed = null
      try {
        const report = JSON.parse(readFileSync(out, 'utf8'))
        for (const file of report.testResults) {
          for (const a of file.assertionResults) if (a.status === 'failed') failed.push(a.fullName)
          if (file.status === 'failed' && file.assertionResults.every((a) => a.status !== 'failed')) crashed = `${file.name}: ${file.message?.split('\n')[0] ?? 'failed to run'}`
        }
        rmSync(out, { force: true })
      } catch {
        crashed = code === null ? 'timed out' : `no report (exit ${code}): ${stderr.split('\n').filter(Boolean).slice(-2).join(' | ')}`
      }
      resolve({ code, failed, crashed })
    })
  })
}

async function runTests(dir, tests) {
  const byConfig = new Map()
  for (const t of tests) byConfig.set(configOf(t), [...(byConfig.get(configOf(t)) ?? []), t])
  const result = { failed: [], crashed: null, code: 0 }
  for (const [config, files] of byConfig) {
    const r = await runVitest(dir, config, files)
    result.failed.push(...r.failed)
    result.crashed ??= r.crashed
    if (r.code !== 0) result.code = r.code ?? 1
  }
  return result
}

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)))
  return rows.map((r) => r.map((c, i) => String(c).padEnd(widths[i])).join('  ')).join('\n')
}

checkList()
if (args.includes('--check')) {
  console.log(`${MUTATIONS.length} mutations, each naming text found once in its file.`)
  process.exit(0)
}
const dir = scratchCopy(ROOT, 'mutate-', ['.dev.vars'])
console.log(`Scratch copy: ${dir}\n${chosen.length} mutation(s)\n`)
try {
  if (!args.includes('--no-baseline')) {
    const all = [...new Set(chosen.flatMap((m) => m.tests))].sort()
    process.stdout.write(`Baseline: ${all.length} test file(s) unmutated … `)
    const base = await runTests(dir, all)
    if (base.code !== 0 || base.failed.length || base.crashed) {
      console.log(`failing before any mutation:\n  ${[...base.failed, base.crashed].filter(Boolean).join('\n  ')}`)
      process.exit(2)
    }
    console.log('all pass')
  }
  const rows = [['mutation', 'rule', 'result', 'killed by']]
  let killed = 0
  for (const [i, m] of chosen.entries()) {
    const originals = new Map()
    for (const e of editsOf(m)) {
      const path = join(dir, e.file)
      if (!originals.has(path)) originals.set(path, readFileSync(path, 'utf8'))
      writeFileSync(path, readFileSync(path, 'utf8').replace(e.from, () => e.to))
    }
    const started = Date.now()
    process.stdout.write(`[${i + 1}/${chosen.length}] ${m.id} … `)
    let r
    try {
      r = await runTests(dir, m.tests)
    } finally {
      for (const [path, text] of originals) writeFileSync(path, text)
    }
    const naming = r.failed.filter((name) => m.by.test(name))
    const result = naming.length ? 'killed' : r.code !== 0 ? 'by chance' : 'SURVIVED'
    if (result === 'killed') killed++
    console.log(`${result} (${Math.round((Date.now() - started) / 1000)} s)`)
    const by = naming[0] ?? r.failed[0] ?? r.crashed ?? ''
    rows.push([m.id, m.rule, result, by.length > 110 ? `${by.slice(0, 107)}...` : by])
  }
  const score = Math.round((killed / chosen.length) * 1000) / 10
  console.log(`\n${table(rows)}\n\nKilled ${killed} of ${chosen.length} by a test naming the rule: ${score}%`)
  process.exitCode = killed === chosen.length ? 0 : 1
} finally {
  rmSync(dir, { recursive: true, force: true })
}
