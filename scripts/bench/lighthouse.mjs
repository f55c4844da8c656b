// Lighthouse (mobile, its default simulated throttling) on the public pages a newcomer sees first:
// accessibility, best practices and performance scores out of 100, each page its own row. Runs
// the `lighthouse` CLI (a dev dependency) against the bench's server with Debian's Chromium.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const PAGES = ['/', '/login', '/pricing']
const CATEGORIES = [
  ['accessibility', 'accessibility'],
  ['best-practices', 'best practices'],
  ['performance', 'performance'],
]
const CHROME_FLAGS = '--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync'

function lighthouse(url, outputPath) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        'node_modules/lighthouse/cli/index.js',
        url,
        '--quiet',
        '--output=json',
        `--output-path=${outputPath}`,
        `--only-categories=${CATEGORIES.map(([id]) => id).join(',')}`,
        `--chrome-flags=${CHROME_FLAGS}`,
      ],
      { env: { ...process.env, CHROME_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' }, stdio: ['ignore', 'ignore', 'pipe'] },
    )
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`lighthouse ${url} exited ${code}: ${stderr.slice(-500)}`))))
  })
}

export async function measureLighthouse({ origin, log }) {
  const dir = mkdtempSync(join(tmpdir(), 'legacy-vault-lighthouse-'))
  const rows = []
  const findings = []
  const raw = {}
  for (const page of PAGES) {
    const path = join(dir, `${page.replace(/\W+/g, '_') || 'home'}.json`)
    await lighthouse(`${origin}${page}`, path)
    const report = JSON.parse(readFileSync(path, 'utf8'))
    raw[page] = {}
    for (const [id, label] of CATEGORIES) {
      const score = Math.round((report.categories[id]?.score ?? NaN) * 100)
      raw[page][id] = score
      rows.push({ id: `lighthouse.${id}.${page}`, measurement: `Lighthouse ${label}, mobile, ${page}`, value: score, unit: '/100' })
      // What cost points, so the README can say why (an audit scored below 1 in that category).
      for (const ref of report.categories[id]?.auditRefs ?? []) {
        const audit = report.audits[ref.id]
        if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1 && id !== 'performance') findings.push(`${page} ${label}: ${audit.title}`)
      }
    }
    const metrics = report.audits
    raw[page].fcp = metrics['first-contentful-paint']?.numericValue
    raw[page].lcp = metrics['largest-contentful-paint']?.numericValue
    log(`lighthouse ${page}: ${CATEGORIES.map(([id]) => `${id} ${raw[page][id]}`).join(', ')}`)
  }
  return { rows, findings, raw }
}
