import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

// axe-core in a page, for the accessibility layer. It is evaluated through the DevTools protocol,
// which the page's CSP does not govern, so the product's real headers stay in force while it runs.

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface AxeResult {
  violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }>
}

const SERIOUS = ['serious', 'critical']
const MODERATE = ['moderate', ...SERIOUS]

/** The serious and critical violations axe finds on the page as it is now, one line each, prefixed by `where`. */
export function seriousViolations(page: Page, where: string): Promise<string[]> {
  return violationsAtLeast(page, where, SERIOUS)
}

/** The accessibility layer's bar: moderate findings (heading order, landmarks) fail too. */
export function moderateViolations(page: Page, where: string): Promise<string[]> {
  return violationsAtLeast(page, where, MODERATE)
}

async function violationsAtLeast(page: Page, where: string, impacts: string[]): Promise<string[]> {
  await page.waitForLoadState('networkidle').catch(() => undefined)
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE)
  const found = await page.evaluate(async (impacts) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResult> } }).axe
    const result = await axe.run(document, { resultTypes: ['violations'] })
    return result.violations
      .filter((v) => v.impact !== null && impacts.includes(v.impact))
      .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`)
  }, impacts)
  return found.map((line) => `${where}: ${line}`)
}
