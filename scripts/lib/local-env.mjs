// Shared by `npm start` and `npm run dev`: the local secrets file and the child-process plumbing.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { prepareLocalD1 } from './local-d1.mjs'

export const root = fileURLToPath(new URL('../..', import.meta.url))
const devVarsPath = `${root}/.dev.vars`

/**
 * Writes .dev.vars with random secrets the first time. It is git-ignored, never deployed, and is
 * also what switches the worker into local mode (ENVIRONMENT=development: the local mailbox).
 */
export function ensureDevVars() {
  const wanted = {
    ENVIRONMENT: 'development',
    JWT_SECRET: randomBytes(48).toString('base64url'),
    // The mail provider's signing secret for its bounce events (POST /api/mail/events).
    MAIL_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
  }
  const current = existsSync(devVarsPath) ? readFileSync(devVarsPath, 'utf8') : ''
  const missing = Object.entries(wanted).filter(([key]) => !new RegExp(`^${key}=`, 'm').test(current))
  if (missing.length === 0) return
  const lines = missing.map(([key, value]) => `${key}=${value}`).join('\n')
  writeFileSync(devVarsPath, `${current}${current && !current.endsWith('\n') ? '\n' : ''}${lines}\n`, { mode: 0o600 })
  console.log(`Wrote ${missing.map(([k]) => k).join(', ')} to .dev.vars (local secrets, git-ignored).`)
}

export function ensureAssetsDir() {
  mkdirSync(`${root}/dist/client`, { recursive: true })
}

/** Runs a command to completion; rejects on a non-zero exit. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options })
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))))
  })
}

/**
 * Starts a long-running child in its own process group, so that stopping it also stops the
 * workerd it spawns (wrangler leaves workerd running when only wrangler is killed).
 */
export function startGroup(command, args, options = {}) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', detached: true, ...options })
  return child
}

export function stopGroup(child, signal = 'SIGTERM') {
  if (!child || child.exitCode !== null) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // already gone
  }
}

export const port = Number(process.env.PORT ?? 8787)
export const persistArgs = process.env.PERSIST_TO ? ['--persist-to', process.env.PERSIST_TO] : []

/**
 * Stripe's settings from the environment (STRIPE_SECRET_KEY, STRIPE_PRICE_BASIC, …, and locally
 * STRIPE_API_BASE), each passed to the worker as `--var NAME:value`: `npm start` with them set
 * runs with billing against that Stripe account (or a test's stand-in). Without any, no billing.
 * A var is shown by wrangler and visible in the process list; a secret key can live in .dev.vars instead.
 */
export function stripeVarArgs(env = process.env) {
  return Object.entries(env)
    .filter(([name, value]) => /^STRIPE_[A-Z0-9_]+$/.test(name) && value)
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([name, value]) => ['--var', `${name}:${value}`])
}

/** INSPECTOR_PORT: the devtools port of this `wrangler dev` (two servers at once need two). */
export const inspectorArgs = process.env.INSPECTOR_PORT ? ['--inspector-port', process.env.INSPECTOR_PORT] : []

/**
 * Brings the local D1 database up to date (scripts/lib/local-d1.mjs): a new one from the squashed
 * schema, one that lacks a migration through `wrangler d1 migrations apply`.
 */
export async function prepareDatabase() {
  const done = await prepareLocalD1({
    root,
    stateDir: process.env.PERSIST_TO ?? join(root, '.wrangler/state'),
    migrate: () => run('wrangler', ['d1', 'migrations', 'apply', 'DB', '--local', ...persistArgs], { env: { ...process.env, CI: 'true' } }),
  })
  console.log(`Local database: ${done}.`)
}
