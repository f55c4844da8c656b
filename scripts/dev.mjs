// `npm run dev`: wrangler dev (worker, D1, R2, DO; reloads on change) on $PORT (8787) and Vite with
// hot reload on 5173, which proxies /api to the worker. Open http://localhost:5173.
import { ensureAssetsDir, ensureDevVars, persistArgs, port, prepareDatabase, startGroup, stopGroup } from './lib/local-env.mjs'

ensureDevVars()
ensureAssetsDir()
await prepareDatabase()

const env = { ...process.env, LEGACY_VAULT_DEV_TOOLS: '1' }
const vitePort = Number(process.env.VITE_PORT ?? 5173)
const worker = startGroup(
  'wrangler',
  ['dev', '--port', String(port), '--var', `APP_ORIGIN:http://localhost:${vitePort}`, '--show-interactive-dev-session=false', ...persistArgs],
  { env },
)
const web = startGroup('vite', [], { env })

const stop = () => {
  stopGroup(worker)
  stopGroup(web)
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
worker.on('exit', stop)
web.on('exit', stop)
