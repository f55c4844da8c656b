// The product as `npm start` runs it, on the bench's own port with a fresh state folder (D1, R2,
// Durable Objects) and its own SPA build, so nothing is shared with a running dev server or tests.
import { spawn } from 'node:child_process'
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { root } from '../lib/local-env.mjs'

/** `cwd`: the checkout to serve (another release's, for the before/after rows), this one by default. */
export async function startServer({ port, logPath, cwd = root }) {
  const origin = `http://localhost:${port}`
  const state = mkdtempSync(join(tmpdir(), 'legacy-vault-bench-'))
  const buildDir = join(state, 'client')
  const log = createWriteStream(logPath)
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd,
    // Without billing, whatever Stripe settings the shell exports (start.mjs passes STRIPE_* on).
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('STRIPE_'))),
      PORT: String(port),
      PERSIST_TO: state,
      LEGACY_VAULT_BUILD_DIR: buildDir,
      CI: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout.pipe(log)
  child.stderr.pipe(log)
  const started = performance.now()
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}; see ${logPath}`)
    try {
      if ((await fetch(`${origin}/api/health`)).ok) break
    } catch {}
    if (i > 720) throw new Error(`the server did not answer within 6 minutes; see ${logPath}`)
    await new Promise((r) => setTimeout(r, 500))
  }
  const startupSeconds = (performance.now() - started) / 1000

  async function stop() {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r))
      // start.mjs stops wrangler's whole process group (workerd included) on SIGTERM.
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))])
    }
    rmSync(state, { recursive: true, force: true })
  }
  return { origin, state, buildDir, startupSeconds, stop, pid: child.pid }
}
