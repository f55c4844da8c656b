// What a visitor downloads first and what Cloudflare runs: the JavaScript that index.html loads
// at once (its module script and modulepreload links) in a production build of the SPA; what each
// public page loads in all (index.html's part, plus the page's route chunk and the chunks it imports,
// which Vite preloads with it: read from the build manifest's import graph), against the 150 KiB
// goal; and the worker as `wrangler deploy` would upload it. Each file gzipped at level 9, in KiB.
// Dynamic imports are not counted: they load on use (a key, a validation error, a toast).
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { root } from '../lib/local-env.mjs'

const KiB = 1024
// Cloudflare's limit on a Worker's compressed size on the Free plan (10 MB on Paid plans).
const WORKER_FREE_LIMIT = 3 * 1024 * KiB
// Issue 19: a public page's first load, JavaScript gzipped.
const FIRST_LOAD_GOAL = 150 * KiB
// The public pages and their route files (TanStack's automatic code splitting names each route's
// component chunk after its file, with `?tsr-split=component`).
const PUBLIC_PAGES = { '/': 'routes/index.tsx', '/login': 'routes/login.tsx', '/pricing': 'routes/pricing.tsx' }

function run(command, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(join(root, 'node_modules/.bin', command), args, { cwd: root, env: { ...process.env, CI: 'true', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${out.slice(-2000)}`))))
  })
}

const gz = (path) => gzipSync(readFileSync(path), { level: 9 }).length

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })
}

export async function measureBundle({ log }) {
  const dir = mkdtempSync(join(tmpdir(), 'legacy-vault-bench-bundle-'))
  try {
    const client = join(dir, 'client')
    // A production build (no local tools), into a folder of its own.
    await run('vite', ['build', '--logLevel', 'warn', '--outDir', client, '--emptyOutDir', '--manifest'], { LEGACY_VAULT_DEV_TOOLS: '0' })
    const html = readFileSync(join(client, 'index.html'), 'utf8')
    const initial = [
      ...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
      ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
    ].map((m) => join(client, m[1]))
    const css = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((m) => join(client, m[1]))
    const allJs = walk(client).filter((p) => p.endsWith('.js'))
    const sum = (paths) => paths.reduce((n, p) => n + gz(p), 0)
    const firstJs = sum(initial)
    const totalJs = sum(allJs)
    const firstCss = sum(css)
    log(`bundle: first-load JS ${initial.length} files, ${(firstJs / KiB).toFixed(0)} KiB gzipped`)

    // Per page: the manifest's static import graph from index.html and from the page's route chunk.
    const manifest = JSON.parse(readFileSync(join(client, '.vite/manifest.json'), 'utf8'))
    const closure = (keys) => {
      const seen = new Set()
      const visit = (key) => {
        if (seen.has(key) || !manifest[key]) return
        seen.add(key)
        for (const next of manifest[key].imports ?? []) visit(next)
      }
      keys.forEach(visit)
      return [...seen].map((key) => join(client, manifest[key].file))
    }
    const pages = Object.entries(PUBLIC_PAGES).map(([page, file]) => {
      const routeKey = `${file}?tsr-split=component`
      if (!manifest[routeKey]) throw new Error(`no chunk for ${routeKey} in the build manifest`)
      const files = closure(['index.html', routeKey])
      return { page, files: files.length, js: sum(files) }
    })
    for (const p of pages) log(`bundle: ${p.page} loads ${p.files} JS files, ${(p.js / KiB).toFixed(0)} KiB gzipped`)

    const out = join(dir, 'worker')
    await run('wrangler', ['deploy', '--dry-run', '--outdir', out, '--assets', client])
    const workerFiles = walk(out).filter((p) => /\.(m?js)$/.test(p))
    const worker = sum(workerFiles)
    const workerRaw = workerFiles.reduce((n, p) => n + statSync(p).size, 0)
    log(`bundle: worker ${(worker / KiB).toFixed(0)} KiB gzipped`)
    return {
      rows: [
        {
          id: 'bundle.first',
          measurement: `SPA first-load JavaScript (${initial.length} files index.html loads, gzip -9)`,
          value: firstJs / KiB,
          unit: 'KiB',
          detail: `+ ${(firstCss / KiB).toFixed(0)} KiB CSS`,
          reference: { label: `all ${allJs.length} JS files`, value: totalJs / KiB },
        },
        ...pages.map((p) => ({
          id: `bundle.page.${p.page}`,
          measurement: `First-load JavaScript of ${p.page} (index.html's + the page's route chunks, gzip -9)`,
          value: p.js / KiB,
          unit: 'KiB',
          detail: `${p.files} files + ${(firstCss / KiB).toFixed(0)} KiB CSS`,
          reference: { label: 'goal', value: FIRST_LOAD_GOAL / KiB },
        })),
        {
          id: 'bundle.worker',
          measurement: 'Worker bundle (wrangler deploy --dry-run, gzip -9)',
          value: worker / KiB,
          unit: 'KiB',
          detail: `${(workerRaw / KiB).toFixed(0)} KiB raw`,
          reference: { label: 'Workers Free plan limit', value: WORKER_FREE_LIMIT / KiB },
        },
      ],
      raw: { initial: initial.map((p) => p.slice(client.length)), firstJs, pages, totalJs, firstCss, worker, workerRaw },
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
