// Chromium for the bench (Debian's, driven by playwright-core as the e2e tests do), the UI steps
// the browser measurements share, and a memory sampler: the page's JS memory over CDP and the
// resident memory of every Chromium process, read from /proc every 100 ms.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { chromium } from 'playwright-core'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export function chromiumVersion() {
  const out = spawnSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8' })
  return (out.stdout || '').trim() || 'unknown'
}

export async function launch() {
  const before = new Set(childPids(process.pid))
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  // playwright-core starts Chromium as a child of this process.
  const pid = childPids(process.pid).find((p) => !before.has(p) && /chrom/i.test(comm(p)))
  return { browser, pid }
}

export async function newPage(browser, origin) {
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 1280, height: 800 }, acceptDownloads: true })
  const page = await context.newPage()
  return { context, page }
}

function comm(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim()
  } catch {
    return ''
  }
}

function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return -1
  }
}

function allPids() {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number)
}

function childPids(parent) {
  return allPids().filter((p) => parentOf(p) === parent)
}

/** The process and all its descendants. */
export function processTree(root) {
  const parents = new Map(allPids().map((p) => [p, parentOf(p)]))
  const tree = new Set([root])
  for (let grew = true; grew; ) {
    grew = false
    for (const [p, parent] of parents) {
      if (!tree.has(p) && tree.has(parent)) {
        tree.add(p)
        grew = true
      }
    }
  }
  return [...tree]
}

function rssBytes(pids) {
  let kb = 0
  for (const p of pids) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))
      if (m) kb += Number(m[1])
    } catch {}
  }
  return kb * 1024
}

/**
 * Samples every `intervalMs` until stopped: the page's JS memory (Runtime.getHeapUsage: the V8
 * heap plus ArrayBuffer backing stores) and the summed RSS of Chromium's processes. A garbage collection runs first, and the idle values
 * just after it are the baseline the peaks are reported against.
 */
export async function startMemorySampler(page, rootPid, intervalMs = 100) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('HeapProfiler.collectGarbage')
  // The V8 heap and the ArrayBuffer backing stores outside it (where file chunks live).
  const heap = async () => {
    const usage = await cdp.send('Runtime.getHeapUsage')
    return usage.usedSize + (usage.backingStorageSize ?? 0)
  }
  let pids = rootPid ? processTree(rootPid) : []
  const base = { heap: await heap(), rss: rssBytes(pids) }
  const peak = { ...base }
  let running = true
  let samples = 0
  const loop = (async () => {
    let lastTree = Date.now()
    while (running) {
      try {
        peak.heap = Math.max(peak.heap, await heap())
      } catch {}
      if (rootPid) {
        if (Date.now() - lastTree > 1000) {
          pids = processTree(rootPid)
          lastTree = Date.now()
        }
        peak.rss = Math.max(peak.rss, rssBytes(pids))
      }
      samples++
      await new Promise((r) => setTimeout(r, intervalMs))
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      await cdp.detach().catch(() => {})
      return { base, peak, samples, heapAbove: peak.heap - base.heap, rssAbove: peak.rss - base.rss }
    },
  }
}

// ---- The UI steps (as test/e2e/browser.ts drives them) ----

export async function registerThroughUi(page, { email, password, passphrase }) {
  await page.goto('/register')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Display name').fill('Bench Owner')
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByLabel('Confirm password').fill(password)
  await page.getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Create Account' }).click()
  await page.getByRole('heading', { name: 'Set Up Security' }).waitFor()
  await page.getByRole('button', { name: /Choose a secure passphrase/ }).click()
  await page.getByLabel('Vault passphrase', { exact: true }).fill(passphrase)
  await page.getByLabel('Confirm vault passphrase').fill(passphrase)
  await page.getByRole('button', { name: 'Create Passphrase' }).click()
  await page.waitForURL('**/dashboard')
}

export async function addBeneficiaryThroughUi(page, { fullName, email }) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Beneficiaries' }).click()
  await page.getByRole('heading', { name: 'Beneficiaries', level: 1 }).waitFor()
  await page.getByRole('button', { name: 'Add Beneficiary' }).first().click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Full name').fill(fullName)
  await dialog.getByLabel('Email').fill(email)
  await dialog.getByLabel('Relationship').fill('Daughter')
  await dialog.getByRole('button', { name: 'Add Beneficiary' }).click()
  await dialog.getByRole('heading', { name: 'Beneficiary Access Kit' }).waitFor()
  await dialog.getByLabel('I have saved the kit').check()
  await dialog.getByRole('button', { name: 'Done' }).click()
  await dialog.waitFor({ state: 'detached' })
}

export async function openVault(page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vault' }).click()
  await page.waitForURL('**/vault')
}

let counter = 0
export const uniqueEmail = (prefix) => `${prefix}-${Date.now().toString(36)}-${++counter}@example.com`
