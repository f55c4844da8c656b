// `npm start`: build the SPA, apply the D1 migrations locally and serve the whole product (SPA,
// API, Durable Object, cron) with local D1/R2/DO state, on http://localhost:8787 or $PORT.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { ensureDevVars, inspectorArgs, persistArgs, port, root, run, startGroup, stopGroup, stripeVarArgs } from './lib/local-env.mjs'

const CRON = '*/5 * * * *'
const cronIntervalMs = Number(process.env.CRON_INTERVAL_SECONDS ?? 300) * 1000

// Tests build into a folder of their own (LEGACY_VAULT_BUILD_DIR), so runs never share dist/client.
const buildDir = process.env.LEGACY_VAULT_BUILD_DIR
const buildArgs = buildDir ? ['--outDir', buildDir, '--emptyOutDir'] : []
const assetsArgs = buildDir ? ['--assets', buildDir] : []

// A second server of the same checkout (a test's) may serve a build already made there:
// LEGACY_VAULT_SKIP_BUILD=1 with LEGACY_VAULT_BUILD_DIR holding one skips `vite build`.
const reuseBuild = process.env.LEGACY_VAULT_SKIP_BUILD === '1' && buildDir !== undefined && existsSync(join(buildDir, 'index.html'))

ensureDevVars()
// A production build of React whatever NODE_ENV the caller has (a test runner sets 'test').
if (!reuseBuild) {
  await run('vite', ['build', '--logLevel', 'warn', ...buildArgs], { env: { ...process.env, NODE_ENV: 'production', LEGACY_VAULT_DEV_TOOLS: '1' } })
}
await run('wrangler', ['d1', 'migrations', 'apply', 'DB', '--local', ...persistArgs], { env: { ...process.env, CI: 'true' } })

const origin = `http://localhost:${port}`
const server = startGroup('wrangler', [
  'dev',
  '--port',
  String(port),
  '--var',
  `APP_ORIGIN:${origin}`,
  '--show-interactive-dev-session=false',
  ...stripeVarArgs(),
  ...inspectorArgs,
  ...assetsArgs,
  ...persistArgs,
])

// `wrangler dev` does not fire Cron Triggers by itself; fire the sweep on the configured schedule,
// and once as soon as the server answers (so the monitor does not show a sweep that never ran).
const sweep = () => fetch(`${origin}/cdn-cgi/local/scheduled?cron=${encodeURIComponent(CRON)}`)
const cron = setInterval(() => sweep().catch(() => {}), cronIntervalMs)
void (async () => {
  for (let attempt = 0; attempt < 120; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return void (await sweep())
    } catch {
      // not up yet
    }
  }
})()

const stop = (code = 0) => {
  clearInterval(cron)
  stopGroup(server)
  process.exit(code)
}
process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))
server.on('exit', (code) => stop(code ?? 0))

console.log(`\nLegacy Vault is starting on ${origin} (state in ${process.env.PERSIST_TO ?? `${root}.wrangler/state`}).`)
console.log(`Local mailbox: ${origin}/dev/mailbox\n`)
