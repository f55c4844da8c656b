// `npm test`: the type check and the three suites in two lanes at once, on two cores.
// - the browser suite, which mostly waits (on its servers, the page's PBKDF2, mail), starts at once:
//   its global setup builds the SPA and starts its servers while the type check runs;
// - beside it, the type check, then the worker suite, then the web unit suite, one after another.
// Each lane's output is kept in a file and printed whole when the lane ends, so the two do not
// interleave; the run fails if any step fails (every step still runs, so one run shows every failure).
import { spawn } from 'node:child_process'
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { root } from './lib/local-env.mjs'

const logs = mkdtempSync(join(tmpdir(), 'legacy-vault-test-'))

function step(name, args, log) {
  return new Promise((resolve) => {
    const started = Date.now()
    const out = openSync(log, 'a')
    const child = spawn('npx', args, { cwd: root, stdio: ['ignore', out, out], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } })
    child.on('exit', (code, signal) => {
      const seconds = Math.round((Date.now() - started) / 1000)
      console.log(`${name}: ${code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds} s`)
      resolve(code === 0)
    })
  })
}

async function lane(name, steps) {
  const log = join(logs, `${name}.log`)
  const results = []
  for (const [stepName, args] of steps) results.push(await step(stepName, args, log))
  process.stdout.write(`\n===== ${name} =====\n${readFileSync(log, 'utf8')}\n`)
  return results.every(Boolean)
}

const started = Date.now()
const results = await Promise.all([
  lane('browser suite', [['browser suite (vitest.e2e.config.ts)', ['vitest', 'run', '--config', 'vitest.e2e.config.ts']]]),
  lane('type check, worker and web suites', [
    ['type check (tsc -b)', ['tsc', '-b']],
    ['worker suite (vitest.worker.config.ts)', ['vitest', 'run', '--config', 'vitest.worker.config.ts']],
    ['web suite (vitest.web.config.ts)', ['vitest', 'run', '--config', 'vitest.web.config.ts']],
  ]),
])
rmSync(logs, { recursive: true, force: true })
const ok = results.every(Boolean)
console.log(`\nnpm test ${ok ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`)
process.exit(ok ? 0 : 1)
