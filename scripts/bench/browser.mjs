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
 * The JS memory of every service worker in the browser (the download worker among them), read over
 * a browser-level CDP session: each worker target is attached (non-flat, messages relayed through
 * the browser session) and asked for Runtime.getHeapUsage. `refresh` attaches to workers started
 * since; a worker that stops drops out.
 */
export async function serviceWorkerHeaps(browser) {
  const session = await browser.newBrowserCDPSession()
  const attached = new Map() // targetId → sessionId
  const waiting = new Map() // message id → resolve
  let nextId = 1
  session.on('Target.receivedMessageFromTarget', ({ message }) => {
    const reply = JSON.parse(message)
    const resolve = waiting.get(reply.id)
    if (resolve) (waiting.delete(reply.id), resolve(reply))
  })
  session.on('Target.detachedFromTarget', ({ sessionId }) => {
    for (const [targetId, attachedId] of attached) if (attachedId === sessionId) attached.delete(targetId)
  })
  const call = (sessionId, method, params = {}) =>
    new Promise((resolve) => {
      const id = nextId++
      waiting.set(id, resolve)
      session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(() => (waiting.delete(id), resolve(null)))
      setTimeout(() => waiting.delete(id) && resolve(null), 2000)
    })
  return {
    async refresh() {
      const { targetInfos } = await session.send('Target.getTargets')
      for (const target of targetInfos) {
        if (target.type !== 'service_worker' || attached.has(target.targetId)) continue
        try {
          const { sessionId } = await session.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })
          attached.set(target.targetId, sessionId)
        } catch {}
      }
    },
    async collectGarbage() {
      for (const sessionId of attached.values()) await call(sessionId, 'HeapProfiler.collectGarbage')
    },
    async heap() {
      let sum = 0
      for (const sessionId of attached.values()) {
        const reply = await call(sessionId, 'Runtime.getHeapUsage')
        if (reply?.result) sum += reply.result.usedSize + (reply.result.backingStorageSize ?? 0)
      }
      return sum
    },
    close: () => session.detach().catch(() => {}),
  }
}

/**
 * Samples every `intervalMs` until stopped: the page's JS memory (Runtime.getHeapUsage: the V8
 * heap plus ArrayBuffer backing stores), the service workers' too when `workers`
 * (serviceWorkerHeaps) is given, and the summed RSS of Chromium's processes. A garbage collection
 * runs first, and the idle values just after it are the baseline the peaks are reported against.
 */
export async function startMemorySampler(page, rootPid, { intervalMs = 100, workers = null } = {}) {
  const cdp = await page.context().newCDPSession(page)
  await workers?.refresh()
  await cdp.send('HeapProfiler.collectGarbage')
  await workers?.collectGarbage()
  // The V8 heap and the ArrayBuffer backing stores outside it (where file chunks live).
  const pageHeap = async () => {
    const usage = await cdp.send('Runtime.getHeapUsage')
    return usage.usedSize + (usage.backingStorageSize ?? 0)
  }
  const heap = async () => (await pageHeap()) + ((await workers?.heap()) ?? 0)
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
      if (Date.now() - lastTree > 1000) {
        if (rootPid) pids = processTree(rootPid)
        await workers?.refresh().catch(() => {})
        lastTree = Date.now()
      }
      if (rootPid) peak.rss = Math.max(peak.rss, rssBytes(pids))
      samples++
      await new Promise((r) => setTimeout(r, intervalMs))
    }
  })()
  return {
    /** Stops sampling (again: a no-op) and returns the peaks above the baseline. */
    async stop() {
      if (running) {
        running = false
        await loop
        await cdp.detach().catch(() => {})
      }
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
  // The recovery code made with the vault: said to be saved, then on to the dashboard. Deriving the
  // vault key (PBKDF2, 600 000 rounds) and the signing key takes seconds on a busy machine.
  const kit = page.getByTestId('recovery-kit')
  await kit.waitFor({ timeout: 120_000 })
  await kit.getByLabel('I have printed or saved my recovery code').check()
  await kit.getByRole('button', { name: 'Continue' }).click()
  await page.waitForURL('**/dashboard', { timeout: 120_000 })
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
