#!/usr/bin/env node
// node scripts/fresh-mutate.mjs [--only id,id] [--wide --files f,f] [--out file.json]
//
// The independent mutation pass (0.3 · 7 of 7, part "fresh"): each mutation of
// scripts/fresh-mutations.mjs is applied alone to a scratch copy of the working tree (node_modules
// linked, as scripts/mutate.mjs does) and counts as killed when ANY test fails, whatever its name:
//   1. the test files of its area (TESTS below);
//   2. if they all pass, the files that guard rules across areas (worker: promise-pins and the
//      security suite; web: every web-unit file that imports the changed module);
//   3. if those pass too, `tsc -b`: a type error counts as "killed by the compiler", apart.
// `--wide --files a,b` re-checks a survivor against the files given (the whole suite, or as much of
// it as time allows) instead of stages 1–2. Every vitest run is niced and stops at the first failure.
// Results go to --out (default /tmp/fresh-results.json) as they come, so a long pass can be read.

import { spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { scratchCopy } from './lib/scratch-copy.mjs'
import { FRESH } from './fresh-mutations.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const RUN_TIMEOUT_MS = 15 * 60_000
const args = process.argv.slice(2)
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : null)
const only = opt('--only') ? new Set(opt('--only').split(',')) : null
const wide = args.includes('--wide')
const OUT = opt('--out') ?? '/tmp/fresh-results.json'

const w = (...names) => names.map((n) => `test/worker/${n}.test.ts`)
const web = (...names) => names.map((n) => `test/web/${n}.test.ts`)
const CROSS_WORKER = w('promise-pins', 'security-suite')

/** The area's test files for each mutation (chosen after the list was committed). */
const TESTS = {
  'fresh-clock-grace-from-due': w('release-engine', 'release-model'),
  'fresh-unlock-fires-at-threshold': w('failed-unlocks'),
  'fresh-plan-policy-skips-window': w('safety-window', 'release-model'),
  'fresh-fire-paused-fires': w('triggers', 'release-engine'),
  'fresh-fire-secrecy-mode': w('beneficiaries', 'release-engine', 'release-model'),
  'fresh-cancel-checkin-cancels-access-request': w('access-requests', 'safety-window'),
  'fresh-cancel-withdrawn-mail-untold': w('release-model', 'release-engine'),
  'fresh-advance-one-more-approval': w('release-engine', 'approvers'),
  'fresh-identity-unverified-reviewer': w('identity'),
  'fresh-access-approve-scope': w('access-requests'),
  'fresh-renewal-keeps-count': w('renewals'),
  'fresh-renewal-one-refusal-ends': w('renewals'),
  'fresh-proof-an-hour': w('fresh-proof'),
  'fresh-proof-all-sessions': w('fresh-proof', 'sessions'),
  'fresh-proof-key-removal': w('fresh-proof', 'security-keys'),
  'fresh-sooner-create-default': w('fresh-proof', 'triggers'),
  'fresh-proof-foreign-key': w('fresh-proof'),
  'fresh-signin-password-clears-code-failures': w('authenticator'),
  'fresh-reset-older-links-live': w('password-reset'),
  'fresh-reset-keeps-sessions': w('password-reset'),
  'fresh-totp-replay': w('authenticator'),
  'fresh-dunning-ended-grace-running': w('stripe-payments', 'billing'),
  'fresh-dunning-older-paid-ends': w('stripe-payments'),
  'fresh-stripe-first-invoice-grace': w('stripe-payments', 'stripe-billing'),
  'fresh-grace-never-ends': w('billing-lapsed', 'stripe-payments'),
  'fresh-link-any-purpose': w('links', 'link-privacy'),
  'fresh-link-verify-ttl': w('links'),
  'fresh-login-no-limit': w('rate-limits', 'auth-register-login'),
  'fresh-session-revoke-scope': w('sessions'),
  'fresh-download-other-heir': w('release-engine', 'release-model'),
  'fresh-audit-batch-prev': w('audit-chain-pages'),
  'fresh-upload-item-limit': w('vault-limits'),
  'fresh-usage-uploading-not-counted': w('vault-limits', 'vault-uploads'),
  'fresh-download-six': w('release-engine', 'release-model'),
  'fresh-readiness-unverified-approvers': w('readiness'),
  'fresh-mail-limit-case': w('mail-limits'),
  'fresh-invite-unsubscribed': w('beneficiaries', 'links'),
  'fresh-web-idle-lock-hours': web('vault-key', 'vault-passphrase'),
  'fresh-web-metadata-aad-item': web('crypto'),
  'fresh-web-can-cancel-twice': web('billing-logic'),
}

/** Stage 2 for web mutations: the other web-unit files that import the changed module. */
const CROSS_WEB = {
  'fresh-web-idle-lock-hours': web('key-move', 'policies-grants', 'recovery-code', 'trusted-keys', 'vault-key-format'),
  'fresh-web-metadata-aad-item': web('estate-bundle', 'policies-grants', 'policies-selectors', 'policies-upload', 'vault-items-upload', 'vault-key-format', 'vault-seal-items'),
  'fresh-web-can-cancel-twice': web('billing-plans'),
}

const chosen = FRESH.filter((m) => !only || only.has(m.id))
for (const m of chosen) {
  const text = readFileSync(join(ROOT, m.file), 'utf8')
  if (text.split(m.from).length !== 2) throw new Error(`${m.id}: "from" must occur exactly once in ${m.file}`)
  if (!TESTS[m.id]) throw new Error(`${m.id}: no test files chosen`)
}

function run(dir, cmd, cmdArgs) {
  return new Promise((resolve) => {
    const child = spawn('nice', ['-n', '10', cmd, ...cmdArgs], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let out = ''
    child.stdout.on('data', (d) => (out = (out + d).slice(-8000)))
    child.stderr.on('data', (d) => (out = (out + d).slice(-8000)))
    const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), RUN_TIMEOUT_MS)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, out })
    })
  })
}

/** Runs test files under their config; resolves to the failing tests' full names and files (or a crash). */
async function runTests(dir, files, extra = []) {
  const config = files[0].startsWith('test/web/') ? 'vitest.web.config.ts' : 'vitest.worker.config.ts'
  const report = join(dir, `.fresh-${Date.now()}.json`)
  const { code, out } = await run(dir, join(dir, 'node_modules/.bin/vitest'), ['run', '--config', config, '--bail=1', '--reporter=json', `--outputFile=${report}`, ...extra, ...files])
  const failed = []
  let crashed = null
  try {
    const json = JSON.parse(readFileSync(report, 'utf8'))
    for (const file of json.testResults) {
      const name = file.name.slice(file.name.indexOf('test/'))
      for (const a of file.assertionResults) {
        if (a.status === 'failed') failed.push({ file: name, test: a.fullName, message: (a.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300) })
      }
      if (file.status === 'failed' && file.assertionResults.every((a) => a.status !== 'failed')) crashed = `${name}: ${file.message?.split('\n')[0] ?? 'failed to run'}`
    }
    rmSync(report, { force: true })
  } catch {
    crashed = code === null ? 'timed out' : `no report (exit ${code}): ${out.split('\n').filter(Boolean).slice(-3).join(' | ')}`
  }
  return { code, failed, crashed }
}

const results = existsSync(OUT) ? JSON.parse(readFileSync(OUT, 'utf8')) : {}
const save = () => writeFileSync(OUT, JSON.stringify(results, null, 2))
const dir = scratchCopy(ROOT, 'fresh-mutate-')
console.log(`Scratch copy: ${dir}\n${chosen.length} mutation(s)${wide ? ' (wide re-check)' : ''}\n`)
try {
  for (const [i, m] of chosen.entries()) {
    const path = join(dir, m.file)
    const original = readFileSync(path, 'utf8')
    writeFileSync(path, original.replace(m.from, () => m.to))
    const started = Date.now()
    process.stdout.write(`[${i + 1}/${chosen.length}] ${m.id} … `)
    const isWeb = m.file.startsWith('web/')
    const stages = wide
      ? [['wide', opt('--files').split(',')]]
      : [
          ['area', TESTS[m.id]],
          ['cross', isWeb ? CROSS_WEB[m.id] : CROSS_WORKER],
        ]
    let verdict = { result: 'survived', by: null, stage: null }
    try {
      for (const [stage, files] of stages) {
        if (!files?.length) continue
        let r = await runTests(dir, files)
        // A test that only ran out of its 5 s may be the loaded machine (the load average is often
        // 6 times the cores): the stage runs again with a minute a test, and counts only then.
        const timedOut = (x) => x.failed.length > 0 && x.failed.every((f) => /timed out/i.test(f.message))
        if (timedOut(r)) r = await runTests(dir, files, ['--testTimeout=60000', '--hookTimeout=60000'])
        if (r.failed.length || r.crashed || r.code !== 0) {
          verdict = { result: 'killed', stage, by: r.failed.length ? r.failed.slice(0, 3) : [{ file: null, test: r.crashed ?? `exit ${r.code}` }] }
          break
        }
      }
      if (verdict.result === 'survived') {
        const tsc = await run(dir, join(dir, 'node_modules/.bin/tsc'), ['-b'])
        if (tsc.code !== 0) verdict = { result: 'killed by the compiler', stage: 'tsc', by: [{ file: null, test: tsc.out.split('\n').find((l) => l.includes('error TS')) ?? 'tsc failed' }] }
      }
    } finally {
      writeFileSync(path, original)
    }
    const secs = Math.round((Date.now() - started) / 1000)
    const key = wide ? `${m.id}#wide` : m.id
    results[key] = { ...verdict, file: m.file, rule: m.rule, seconds: secs }
    save()
    console.log(`${verdict.result}${verdict.by ? ` by ${verdict.by[0].file ?? ''} “${verdict.by[0].test}”` : ''} (${secs}s)`)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
const all = Object.entries(results).filter(([k]) => !k.endsWith('#wide'))
const killed = all.filter(([, r]) => r.result !== 'survived').length
console.log(`\n${killed}/${all.length} killed (${all.filter(([, r]) => r.result === 'killed by the compiler').length} by the compiler)`)
