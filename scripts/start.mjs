// `npm start`: build the SPA, bring the local D1 database up to date and serve the whole product
// (SPA, API, Durable Object, cron) with local D1/R2/DO state, on http://localhost:8787 or $PORT.
// A start with nothing changed reuses the build (scripts/lib/build-reuse.mjs) and leaves the
// database alone; a new database gets its schema in one step (scripts/lib/local-d1.mjs).
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { checkBuild } from './lib/build-reuse.mjs'
import { ensureDevVars, inspectorArgs, persistArgs, port, prepareDatabase, root, run, startGroup, stopGroup, stripeVarArgs } from './lib/local-env.mjs'

const CRON = '*/5 * * * *'
const cronIntervalMs = Number(process.env.CRON_INTERVAL_SECONDS ?? 300) * 1000

// Tests build into a folder of their own (LEGACY_VAULT_BUILD_DIR), so runs never share dist/client.
const buildDir = process.env.LEGACY_VAULT_BUILD_DIR
const outDir = buildDir ?? join(root, 'dist/client')
const buildArgs = buildDir ? ['--outDir', buildDir, '--emptyOutDir'] : []
const assetsArgs = buildDir ? ['--assets', buildDir] : []
// A production build of React whatever NODE_ENV the caller has (a test runner sets 'test'), with
// the local mailbox page.
const buildEnv = { NODE_ENV: 'production', LEGACY_VAULT_DEV_TOOLS: '1' }
const buildCommand = ['build', '--logLevel', 'warn', ...buildArgs]

// A second server of the same checkout (a test's) may serve a build already made there:
// LEGACY_VAULT_SKIP_BUILD=1 with LEGACY_VAULT_BUILD_DIR holding one skips `vite build`.
const skipBuild = process.env.LEGACY_VAULT_SKIP_BUILD === '1' && buildDir !== undefined && existsSync(join(buildDir, 'index.html'))

// Node keeps the code it compiled for wrangler (a 15 MB bundle) and vite: about a tenth less CPU
// for wrangler dev's start (3.3 to 3.0 s measured here) from the second start on.
process.env.NODE_COMPILE_CACHE ??= join(root, '.wrangler/node-compile-cache')

const began = performance.now()
const seconds = () => `${((performance.now() - began) / 1000).toFixed(1)} s`
ensureDevVars()

async function build() {
  if (skipBuild) return
  const check = checkBuild({ root, outDir, recipe: JSON.stringify({ buildCommand, buildEnv }) })
  if (check.reason === null) return console.log(`Reusing the SPA build in ${outDir} (its sources have not changed).`)
  console.log(`Building the SPA (${check.reason})…`)
  check.forget()
  await run('vite', buildCommand, { env: { ...process.env, ...buildEnv } })
  check.record()
  console.log(`Built the SPA in ${seconds()}.`)
}

// The two touch different things: the build its folder, the database its file.
await Promise.all([build(), prepareDatabase()])

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
  for (let attempt = 0; attempt < 480; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    try {
      if ((await fetch(`${origin}/api/health`)).ok) {
        console.log(`\nLegacy Vault is ready on ${origin} (${seconds()} after the start).\n`)
        return void (await sweep())
      }
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
