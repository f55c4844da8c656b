import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    stateDir: string
  }
}

let server: ChildProcess | undefined
let stateDir: string | undefined

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

/** Starts the product the way `npm start` does, on its own port and with a fresh state folder. */
export default async function setup(project: TestProject) {
  const port = Number(process.env.E2E_PORT ?? 8797)
  stateDir = mkdtempSync(join(tmpdir(), 'legacy-vault-e2e-'))
  // The suite's server has no billing, whatever Stripe settings the caller's shell has (start.mjs
  // passes any STRIPE_* on to the worker); billing-stripe.test.ts starts one with billing.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('STRIPE_')))
  server = spawn(process.execPath, ['scripts/start.mjs'], {
    env: { ...env, PORT: String(port), PERSIST_TO: stateDir, LEGACY_VAULT_BUILD_DIR: join(stateDir, 'client') },
    stdio: ['ignore', process.env.E2E_VERBOSE ? 'inherit' : 'ignore', 'inherit'],
  })
  const baseUrl = `http://localhost:${port}`
  await waitForHealth(`${baseUrl}/api/health`, server, 180_000)
  project.provide('baseUrl', baseUrl)
  project.provide('stateDir', stateDir)

  return async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve))
      server.kill('SIGTERM')
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
    }
    if (stateDir) rmSync(stateDir, { recursive: true, force: true })
  }
}
