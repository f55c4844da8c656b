// Lighthouse (mobile, its default simulated throttling) on the public pages a newcomer sees first:
// accessibility, best practices and performance scores out of 100, each page its own row (the
// performance row with its FCP, LCP, TBT and CLS; what cost points under Findings). Runs
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
      // What cost points, so docs/measured.md can say why (an audit below 1 in its category).
      for (const ref of report.categories[id]?.auditRefs ?? []) {
        const audit = report.audits[ref.id]
        if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1 && id !== 'performance') findings.push(`${page} ${label}: ${audit.title}`)
      }
    }
    const metrics = report.audits
    raw[page].fcp = metrics['first-contentful-paint']?.numericValue
    raw[page].lcp = metrics['largest-contentful-paint']?.numericValue
    raw[page].tbt = metrics['total-blocking-time']?.numericValue
    raw[page].cls = metrics['cumulative-layout-shift']?.numericValue
    // The performance score is the weighted metrics: each one, and what cost points.
    const perf = rows.find((r) => r.id === `lighthouse.performance.${page}`)
    if (perf) perf.detail = `FCP ${(raw[page].fcp / 1000).toFixed(1)} s, LCP ${(raw[page].lcp / 1000).toFixed(1)} s, TBT ${Math.round(raw[page].tbt)} ms, CLS ${raw[page].cls.toFixed(3)}`
    for (const ref of report.categories.performance?.auditRefs ?? []) {
      const audit = metrics[ref.id]
      if (ref.weight > 0 && audit && audit.score !== null && audit.score < 0.9) findings.push(`${page} performance: ${audit.title} ${audit.displayValue ?? ''} (score ${audit.score.toFixed(2)}, weight ${ref.weight})`)
    }
    // And the diagnostics that estimate a saving on those metrics (unused JavaScript, render-blocking CSS, …).
    for (const audit of Object.values(metrics)) {
      const savings = Object.entries(audit.metricSavings ?? {}).filter(([, v]) => v > 0)
      if (audit.score !== null && audit.score < 1 && savings.length) findings.push(`${page} performance: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}: ${savings.map(([m, v]) => (m === 'CLS' ? `CLS −${v.toFixed(3)}` : `${m} −${Math.round(v)} ms`)).join(', ')}`)
    }
    log(`lighthouse ${page}: ${CATEGORIES.map(([id]) => `${id} ${raw[page][id]}`).join(', ')}`)
  }
  return { rows, findings, raw }
}
