import { spawnSync } from 'node:child_process'
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Request, type Route } from 'playwright-core'
import { inject } from 'vitest'
import type { OutboxMessage } from '../../contract/auth'
import { RECOVERY_MESSAGES } from '../../contract/vault-recovery'
import type { SuiteServer } from './global-setup'

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

/**
 * The suite's server this file runs against: files run two at a time (vitest.e2e.config.ts), each
 * on the server of its pool slot, so a file never shares a database or mailbox with one running beside it.
 */
export function suiteServer(): SuiteServer {
  const servers = inject('servers')
  const slot = Number(process.env.VITEST_POOL_ID ?? 1) - 1
  return servers[slot % servers.length]!
}

export function baseUrl(): string {
  return suiteServer().baseUrl
}

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
}

/** A page of a new context on the suite's server, or on `options.baseURL` (another server a test started). */
let addresses = 0
/** A documentation-range address (RFC 5737) of its own for each browser context. */
function nextAddress(): string {
  addresses++
  return `198.51.${100 + Math.floor(addresses / 250)}.${(addresses % 250) + 1}`
}

export async function newPage(
  browser: Browser,
  options: { width?: number; height?: number; baseURL?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: options.baseURL ?? baseUrl(),
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    // Each context is a person at a machine of their own: the owner, the heir and the approver of
    // one test do not share one address's per-minute link limit, as they never would.
    extraHTTPHeaders: { 'cf-connecting-ip': nextAddress() },
  })
  const page = await context.newPage()
  return { context, page }
}

/**
 * What Playwright throws at a route handler whose page, context or browser closed while it ran
 * (`route.fetch: Request context disposed.`, `Target page, context or browser has been closed`).
 */
export function isClosedError(error: unknown): boolean {
  return error instanceof Error && /Request context disposed|Target page, context or browser has been closed|Browser has been closed/.test(error.message)
}

/**
 * `page.route` / `context.route`, but a handler still in flight when the test closes its context
 * (or a failed test leaves it to the browser's close) cannot fail the run: Playwright would report
 * its `route.fetch`/`fulfill`/`continue`/`abort` error as an unhandled rejection, and vitest exits
 * non-zero for one even with every test green. Only closure errors are swallowed; any other error
 * reaches Playwright as before. Pair it with `closeContext`.
 */
export async function safeRoute(
  target: Page | BrowserContext,
  url: Parameters<Page['route']>[0],
  handler: (route: Route, request: Request) => unknown,
  options?: { times?: number },
): Promise<void> {
  await target.route(
    url,
    async (route, request) => {
      try {
        await handler(route, request)
      } catch (error) {
        if (!isClosedError(error)) throw error
        // Settle the route so Playwright's bookkeeping for it ends (a no-op if already handled).
        await route.fallback().catch(() => undefined)
      }
    },
    options,
  )
}

/**
 * Closes a context that intercepted requests: first ends its routes and its pages' routes with
 * `unrouteAll({ behavior: 'ignoreErrors' })` (handlers still running have whatever they throw
 * from then on ignored, and no new request reaches them), then closes it.
 */
export async function closeContext(context: BrowserContext): Promise<void> {
  const ignoreClosed = (error: unknown) => {
    if (!isClosedError(error)) throw error
  }
  for (const page of context.pages()) await page.unrouteAll({ behavior: 'ignoreErrors' }).catch(ignoreClosed)
  await context.unrouteAll({ behavior: 'ignoreErrors' }).catch(ignoreClosed)
  await context.close()
}

let counter = 0
export function uniqueEmail(prefix = 'e2e'): string {
  counter++
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`
}

/** The local mailbox of the suite's server, or of the server at `base`. */
export async function outbox(base = baseUrl()): Promise<OutboxMessage[]> {
  const res = await fetch(`${base}/api/dev/outbox`)
  if (!res.ok) throw new Error(`outbox: ${res.status}`)
  return (await res.json()) as OutboxMessage[]
}

/** Waits for the newest message to an address whose subject matches. */
export async function waitForMail(to: string, subject: RegExp, timeoutMs = 10_000, base = baseUrl()): Promise<OutboxMessage> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const found = (await outbox(base)).find((m) => m.to === to && subject.test(m.subject))
    if (found) return found
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`no mail to ${to} matching ${subject}`)
}

export function firstLink(text: string, pathPrefix: string): string {
  const match = text.match(new RegExp(`https?://[^\\s]+${pathPrefix.replace(/[/?]/g, '\\$&')}[^\\s]*`))
  if (!match) throw new Error(`no ${pathPrefix} link in: ${text}`)
  return match[0]
}

/** Runs a project script (`npm run <name>`) against the e2e server's local state. */
export function runScript(name: string, args: string[]): string {
  const result = spawnSync('npm', ['run', '--silent', name, '--', ...args], {
    env: { ...process.env, PERSIST_TO: suiteServer().stateDir, CI: 'true' },
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`npm run ${name} failed: ${result.stderr}`)
  return result.stdout
}

/**
 * Executes SQL on the e2e server's local D1 database (to set up states the UI cannot reach yet),
 * or on that of the server whose state is in `stateDir`.
 */
export function executeSql(sql: string, stateDir = suiteServer().stateDir): void {
  const result = spawnSync('npx', ['wrangler', 'd1', 'execute', 'DB', '--local', '--persist-to', stateDir, '--command', sql], {
    env: { ...process.env, CI: 'true' },
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`d1 execute failed: ${result.stderr}`)
}

async function devPost<T>(path: string, body: unknown, base: string): Promise<T> {
  const res = await fetch(`${base}/api/dev/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

/**
 * Every session of the owner at `email` as if its proof were long past (sessions live in the
 * owner's object, beyond SQL on D1): the next sensitive act asks for the password again.
 */
export async function ageProof(email: string, base = baseUrl()): Promise<void> {
  const { sessions } = await devPost<{ sessions: number }>('age-proof', { email }, base)
  if (sessions === 0) throw new Error(`age-proof: ${email} has no session`)
}

/**
 * After SQL on D1 changed an account's row (executeSql): the owner's object gets the row as it now
 * is, as every writer of those columns in the product does, so the sessions already open see it.
 */
export async function mirrorAccount(email: string, base = baseUrl()): Promise<void> {
  await devPost('mirror-account', { email }, base)
}

export interface OwnerDetails {
  email: string
  password: string
  displayName?: string
  /** With a passphrase, registration's step 3 creates the vault; without, step 2 is skipped. */
  passphrase?: string
  /** Leave the address unconfirmed (invitations then wait); confirmed through its link unless told. */
  unconfirmed?: boolean
}

/**
 * The owner follows the confirmation link sent to their address at registration, through the API
 * (the page it opens is tested on its own): invitations go out from then on.
 */
export async function confirmOwnerEmail(email: string, base = baseUrl()): Promise<void> {
  const mail = await waitForMail(email, /^Confirm your e-mail address/, 10_000, base)
  const token = new URL(firstLink(mail.text, '/confirm-email')).searchParams.get('token')
  const res = await fetch(`${base}/api/auth/confirm-email`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) })
  if (!res.ok) throw new Error(`confirm-email: ${res.status} ${await res.text()}`)
}

/**
 * Registration steps 1–3 through the form, ending on the dashboard; the address confirmed unless
 * `unconfirmed`. With a passphrase, answers the recovery code the vault was made with.
 */
export async function registerOwner(page: Page, owner: OwnerDetails): Promise<string | null> {
  await fillRegistrationForm(page, owner)
  await page.getByRole('heading', { name: 'Set Up Security' }).waitFor()
  let recoveryCode: string | null = null
  if (owner.passphrase) {
    await page.getByRole('button', { name: /Choose a secure passphrase/ }).click()
    await page.getByLabel('Vault passphrase', { exact: true }).fill(owner.passphrase)
    await page.getByLabel('Confirm vault passphrase').fill(owner.passphrase)
    await page.getByRole('button', { name: 'Create Passphrase' }).click()
    recoveryCode = await keepRecoveryKit(page, 'Continue')
  } else {
    await page.getByRole('button', { name: 'Skip for now (less secure)' }).click()
  }
  await page.waitForURL('**/dashboard')
  // The server the page is on (the suite's, or another one a test started).
  if (!owner.unconfirmed) await confirmOwnerEmail(owner.email, new URL(page.url()).origin)
  return recoveryCode
}

/** A recovery code just made, as its panel shows it: read, said to be saved, and left with `doneLabel`. */
export async function keepRecoveryKit(page: Page, doneLabel: string): Promise<string> {
  const kit = page.getByTestId('recovery-kit')
  await kit.waitFor()
  const code = (await kit.getByTestId('recovery-code').textContent())!.trim()
  await kit.getByLabel(RECOVERY_MESSAGES.savedConfirmation).check()
  await kit.getByRole('button', { name: doneLabel }).click()
  return code
}

/** Registration step 1 only (for tests of the form itself). */
export async function fillRegistrationForm(page: Page, owner: OwnerDetails): Promise<void> {
  await page.goto('/register')
  await page.getByLabel('Email').fill(owner.email)
  await page.getByLabel('Display name').fill(owner.displayName ?? 'Grace Owner')
  await page.getByLabel('Password', { exact: true }).fill(owner.password)
  await page.getByLabel('Confirm password').fill(owner.password)
  await page.getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Create Account' }).click()
}

export const toastText = (page: Page) => page.getByTestId('toast').textContent()

/** The sign-in form at /login, filled and sent; where it leads is the test's to check. */
export async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
}

/** The account menu's Sign Out, back on the home page. */
export async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click()
  await page.getByRole('menuitem', { name: 'Sign Out' }).click()
  await page.waitForURL((url) => url.pathname === '/')
}

export interface BeneficiaryDetails {
  fullName: string
  email?: string
  relationship?: string
}

/**
 * Clicks the Add Beneficiary dialog's submit button. The vault signs the new key: a locked vault
 * asks for its passphrase (`passphrase`, or the test fails saying why) and the dialog carries on.
 */
export async function submitBeneficiaryDialog(page: Page, dialog: Locator, passphrase?: string): Promise<void> {
  await dialog.getByRole('button', { name: 'Add Beneficiary' }).click()
  const unlock = page.getByRole('dialog', { name: 'Unlock Your Vault' })
  const kit = dialog.getByRole('heading', { name: 'Beneficiary Access Kit' })
  // The kit, the passphrase prompt, or (a refusal) a toast.
  await unlock.or(kit).or(page.getByTestId('toast').filter({ hasText: 'Failed to add beneficiary' })).first().waitFor()
  if (await unlock.isVisible()) {
    if (!passphrase) throw new Error('the vault is locked and the test gave no passphrase to unlock it')
    await unlock.getByLabel('Vault passphrase').fill(passphrase)
    await unlock.getByRole('button', { name: 'Unlock Vault' }).click()
    await unlock.waitFor({ state: 'detached' })
  }
}

/**
 * Adds a beneficiary through the /beneficiaries dialog (opened from the main navigation, which
 * keeps an unlocked vault unlocked) and closes the Access Kit step with 'I have saved the kit'.
 */
export async function addBeneficiaryThroughUi(page: Page, b: BeneficiaryDetails, passphrase?: string): Promise<void> {
  if (!new URL(page.url()).pathname.startsWith('/beneficiaries')) {
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Beneficiaries' })
    // On a phone the main navigation is the menu behind "Open navigation".
    const menu = page.getByRole('button', { name: 'Open navigation' })
    await link.or(menu).filter({ visible: true }).first().waitFor()
    if (await link.isVisible()) await link.click()
    else {
      await menu.click()
      await page.getByRole('menuitem', { name: 'Beneficiaries' }).click()
    }
  }
  await page.getByRole('heading', { name: 'Beneficiaries', level: 1 }).waitFor()
  await page.getByRole('button', { name: 'Add Beneficiary' }).first().click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Full name').fill(b.fullName)
  await dialog.getByLabel('Email').fill(b.email ?? uniqueEmail('heir'))
  await dialog.getByLabel('Relationship').fill(b.relationship ?? 'Daughter')
  await submitBeneficiaryDialog(page, dialog, passphrase)
  await dialog.getByRole('heading', { name: 'Beneficiary Access Kit' }).waitFor()
  await dialog.getByLabel('I have saved the kit').check()
  await dialog.getByRole('button', { name: 'Done' }).click()
  await dialog.waitFor({ state: 'detached' })
}
