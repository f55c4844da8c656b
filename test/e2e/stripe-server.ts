import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suiteServer } from './browser'

// A second product server with Stripe billing on, for the one test file that needs it (the suite's
// shared server has no billing). It is started as `npm start` is, by scripts/start.mjs, with:
// - STRIPE_* in its environment, which start.mjs passes to the worker as vars, STRIPE_API_BASE
//   pointing the worker's Stripe SDK at the test's stand-in (honoured locally only);
// - the client build the global setup already made (LEGACY_VAULT_SKIP_BUILD), so only the D1
//   migrations and `wrangler dev` itself cost time;
// - its own port, devtools (inspector) port and state folder.

export const STRIPE_TEST_SETTINGS = {
  STRIPE_SECRET_KEY: 'sk_test_e2e',
  STRIPE_WEBHOOK_SECRET: 'whsec_e2e',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e',
  STRIPE_PRICE_BASIC: 'price_basic',
  STRIPE_PRICE_PREMIUM: 'price_premium',
  STRIPE_PRICE_ENTERPRISE: 'price_enterprise',
} as const

/** The ports this file's servers may take (the suite's own servers use E2E_PORT and ports the system hands out). */
export const PORT_RANGE = [8822, 8830] as const

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    // The unspecified address: taken on IPv4 or IPv6 (wrangler listens on localhost, either) means taken.
    probe.listen(port, () => probe.close(() => resolve(true)))
  })
}

const claimed = new Set<number>()

/** A port of PORT_RANGE free now (and not handed out before in this process). */
export async function freePort(): Promise<number> {
  for (let port = PORT_RANGE[0]; port <= PORT_RANGE[1]; port++) {
    if (claimed.has(port)) continue
    if (await isFree(port)) {
      claimed.add(port)
      return port
    }
  }
  throw new Error(`no free port in ${PORT_RANGE.join('–')}`)
}

export interface ProductServer {
  baseUrl: string
  /** Its local state (D1, R2, Durable Objects): pass to executeSql. */
  stateDir: string
  /** Milliseconds from spawn to a healthy answer. */
  startMs: number
  stop(): Promise<void>
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`scripts/start.mjs exited early with code ${child.exitCode}`)
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`the server did not answer ${url} within ${timeoutMs} ms`)
}

/**
 * Starts the product with Stripe configured to talk to `stripeApiBase`. Stop it with `stop()`
 * (start.mjs stops its `wrangler dev` process group, workerd included, on SIGTERM).
 */
export async function startStripeServer(stripeApiBase: string, options: { port?: number; timeoutMs?: number } = {}): Promise<ProductServer> {
  const port = options.port ?? (await freePort())
  const inspectorPort = await freePort()
  const stateDir = mkdtempSync(join(tmpdir(), 'legacy-vault-e2e-stripe-'))
  const buildDir = suiteServer().buildDir
  if (!existsSync(join(buildDir, 'index.html'))) throw new Error(`no client build in ${buildDir} (the global setup makes it)`)
  // Nothing of a developer's own Stripe settings leaks in: only this test's.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('STRIPE_')))
  const started = Date.now()
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...env,
      ...STRIPE_TEST_SETTINGS,
      STRIPE_API_BASE: stripeApiBase,
      PORT: String(port),
      INSPECTOR_PORT: String(inspectorPort),
      PERSIST_TO: stateDir,
      LEGACY_VAULT_BUILD_DIR: buildDir,
      LEGACY_VAULT_SKIP_BUILD: '1',
    },
    stdio: ['ignore', process.env.E2E_VERBOSE ? 'inherit' : 'ignore', 'inherit'],
  })
  const baseUrl = `http://localhost:${port}`
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
    }
    rmSync(stateDir, { recursive: true, force: true })
  }
  try {
    await waitForHealth(`${baseUrl}/api/health`, child, options.timeoutMs ?? 120_000)
    const config = (await (await fetch(`${baseUrl}/api/billing/config`)).json()) as { billingEnabled: boolean; publishableKey: string | null }
    if (!config.billingEnabled || config.publishableKey !== STRIPE_TEST_SETTINGS.STRIPE_PUBLISHABLE_KEY) {
      throw new Error(`the second server runs without Stripe billing: ${JSON.stringify(config)}`)
    }
  } catch (error) {
    await stop()
    throw error
  }
  return { baseUrl, stateDir, startMs: Date.now() - started, stop }
}
