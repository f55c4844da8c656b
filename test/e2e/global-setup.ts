import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

/** One product server of the suite: a browser-test worker uses the one of its pool slot. */
export interface SuiteServer {
  baseUrl: string
  stateDir: string
  /** The client build every server of the suite serves (made once, by the first). */
  buildDir: string
}

declare module 'vitest' {
  export interface ProvidedContext {
    servers: SuiteServer[]
  }
}

const children: ChildProcess[] = []
const stateDirs: string[] = []

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited early with code ${child.exitCode}`)
    try {
      const res = await fetch(url)
      if (res.ok) return
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`the server did not answer ${url} within ${timeoutMs} ms`)
}

/** A TCP port free now, as the system hands one out. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** Starts the product the way `npm start` does, on `port` with a fresh state folder. */
async function startServer(port: number, buildDir: string | undefined): Promise<SuiteServer> {
  const stateDir = mkdtempSync(join(tmpdir(), 'legacy-vault-e2e-'))
  stateDirs.push(stateDir)
  // The suite's servers have no billing, whatever Stripe settings the caller's shell has (start.mjs
  // passes any STRIPE_* on to the worker); billing-stripe.test.ts starts one with billing.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('STRIPE_')))
  const server = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...env,
      PORT: String(port),
      // Two `wrangler dev` at once need two devtools ports.
      INSPECTOR_PORT: String(await freePort()),
      PERSIST_TO: stateDir,
      LEGACY_VAULT_BUILD_DIR: buildDir ?? join(stateDir, 'client'),
      ...(buildDir ? { LEGACY_VAULT_SKIP_BUILD: '1' } : {}),
    },
    stdio: ['ignore', process.env.E2E_VERBOSE ? 'inherit' : 'ignore', 'inherit'],
  })
  children.push(server)
  const baseUrl = `http://localhost:${port}`
  // A bound for a start that hangs: on a two-core machine busy with other suites the build, the
  // migrations and workerd's start have taken over four minutes.
  await waitForHealth(`${baseUrl}/api/health`, server, 600_000)
  return { baseUrl, stateDir, buildDir: buildDir ?? join(stateDir, 'client') }
}

/** One server for each file that may run at once (vitest.e2e.config.ts's maxWorkers). */
export default async function setup(project: TestProject) {
  const workers = project.vitest.config.maxWorkers
  try {
    // Any free port unless E2E_PORT names one: two browser suites may share a machine.
    const first = await startServer(process.env.E2E_PORT ? Number(process.env.E2E_PORT) : await freePort(), undefined)
    const others = await Promise.all(
      Array.from({ length: workers - 1 }, async () => startServer(await freePort(), first.buildDir)),
    )
    project.provide('servers', [first, ...others])
  } catch (error) {
    // vitest runs no teardown for a setup that threw: stop what started, or it outlives the run.
    await stopAll()
    throw error
  }
  return stopAll
}

async function stopAll() {
  await Promise.all(
    children.map(async (server) => {
      if (server.exitCode !== null) return
      const exited = new Promise((resolve) => server.once('exit', resolve))
      server.kill('SIGTERM')
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
    }),
  )
  for (const dir of stateDirs) rmSync(dir, { recursive: true, force: true })
}
