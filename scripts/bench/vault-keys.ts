// Run by vault-keys.mjs under tsx (with tsconfig.web.json, so the SPA's `@/` imports resolve):
// the passphrase change and the move of a format-1 vault to its vault key, timed with the
// product's own browser code run in Node (WebCrypto is the same API there): the vault session of
// web/features/vault/vault-session.ts (unlock, changePassphrase, create) and moveToVaultKey of
// web/features/vault/key-move.ts, against the server at argv[2]. Prints one JSON line of samples.
//
// Those two modules reach the SPA's `@/` imports, which the Node project does not compile, so they
// are loaded by URL and typed here by what this file uses of them; the format-1 wraps are made with
// web/crypto's own files, imported as usual.
import type { PassphraseChangeBody, VaultSetupBody } from '../../contract/vault'
import type { KeyMovePageBody, KeyMoveStartBody, KeyMoveState } from '../../contract/vault-key-move'
import { generateDataKey, unwrapDataKey, wrapDataKey } from '../../web/crypto/data-key'
import { toBase64 } from '../../web/crypto/encoding'
import type { MasterKey, PassphraseKey } from '../../web/crypto/keys'
import { derivePassphraseKey } from '../../web/crypto/master-key'
import { rewrapSigningKey } from '../../web/crypto/signing'
import { unwrapVaultKey } from '../../web/crypto/vault-key'

const origin = process.argv[2]
if (!origin) throw new Error('usage: vault-keys.ts <origin>')
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
const CHANGE_ITEMS = num('BENCH_VAULTKEYS_CHANGE_ITEMS', 10_000)
const MOVE_ITEMS = num('BENCH_VAULTKEYS_MOVE_ITEMS', 1_000)
const SMALL_ITEMS = 10
const CHANGE_RUNS = num('BENCH_VAULTKEYS_CHANGE_RUNS', 9)
const MOVE_RUNS = num('BENCH_VAULTKEYS_MOVE_RUNS', 5)
/** POST /api/dev/vault-fill takes at most this many items a call. */
const FILL_MAX = 5000
const PASSWORD = 'bench password 1'
const PASSPHRASES = ['Harbour Lantern 42 Orchard!', 'Copper kettle sings at dawn 97'] as const

// --- What this file uses of the SPA's modules ---------------------------------------------------

interface StoredVault {
  ownerId: string
  salt: string
  check: string
  signingKey: { publicKey: string; wrapped: string } | null
  vaultKey: string | null
}
interface KeyMoveApi {
  start(body: KeyMoveStartBody): Promise<KeyMoveState>
  stage(body: KeyMovePageBody): Promise<KeyMoveState>
  commit(): Promise<'done' | 'incomplete'>
}
type MoveToVaultKey = (api: KeyMoveApi, passphraseKey: PassphraseKey, master: MasterKey, signingWrap: string) => Promise<MasterKey>
interface VaultSession {
  unlock(
    passphrase: string,
    vault: StoredVault,
    addSigningKey: (body: unknown) => Promise<void>,
    moveToVaultKey?: (passphraseKey: PassphraseKey, master: MasterKey, signingWrap: string) => Promise<MasterKey>,
  ): Promise<boolean>
  changePassphrase(oldPassphrase: string, newPassphrase: string, vault: StoredVault, persist: (body: PassphraseChangeBody) => Promise<void>): Promise<boolean>
  create(passphrase: string, ownerId: string, persist: (setup: VaultSetupBody) => Promise<void>): Promise<void>
  vaultFormat(): 1 | 2 | null
  requireKey(): MasterKey
  lock(): void
}

const sessionModule = (await import(new URL('../../web/features/vault/vault-session.ts', import.meta.url).href)) as {
  createVaultSession(options: { storage: null; broadcast: false; idleMs: number }): VaultSession
}
const { moveToVaultKey } = (await import(new URL('../../web/features/vault/key-move.ts', import.meta.url).href)) as { moveToVaultKey: MoveToVaultKey }
/** A tab's vault session: nothing stored, no other tabs, no idle lock during the run. */
const newSession = () => sessionModule.createVaultSession({ storage: null, broadcast: false, idleMs: 3_600_000 })

// --- The API, as a client --------------------------------------------------------------------------

let ip = Math.floor(Math.random() * 0xffff)
async function call(method: string, path: string, { token, body }: { token?: string; body?: unknown } = {}): Promise<Response> {
  ip++
  // Each call from its own address, so the per-address rate limiters stay out of the figures.
  const headers: Record<string, string> = { 'cf-connecting-ip': `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}` }
  if (token) headers.authorization = `Bearer ${token}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  return fetch(`${origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
}
async function json<T>(method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<T> {
  const res = await call(method, path, options)
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`)
  return JSON.parse(text) as T
}

interface Me {
  id: string
  vaultSalt: string | null
  vaultCheck: string | null
  vaultSigningKey: { publicKey: string; wrapped: string } | null
  vaultKey: string | null
}
interface Owner {
  email: string
  token: string
}
const me = async (o: Owner) => (await json<{ user: Me }>('GET', '/api/auth/me', { token: o.token })).user
const storedVault = (u: Me): StoredVault => ({ ownerId: u.id, salt: u.vaultSalt!, check: u.vaultCheck!, signingKey: u.vaultSigningKey, vaultKey: u.vaultKey })

let owners = 0
/** A premium owner whose vault the product's own session created, holding `items` contentless items seeded in SQL. */
async function ownerWithVault(label: string, items: number): Promise<Owner> {
  const email = `vaultkeys-${label}-${++owners}-${Date.now().toString(36)}@example.com`
  const { token, user } = await json<{ token: string; user: Me }>('POST', '/api/auth/register', { body: { email, password: PASSWORD, displayName: 'Bench Owner' } })
  await json('POST', '/api/create-subscription', { token, body: { plan: 'premium' } })
  const session = newSession()
  await session.create(PASSPHRASES[0], user.id, async (body) => void (await json('POST', '/api/vault/setup', { token, body })))
  session.lock()
  for (let left = items; left > 0; left -= FILL_MAX) await json('POST', '/api/dev/vault-fill', { body: { email, items: Math.min(left, FILL_MAX) } })
  const held = (await json<unknown[]>('GET', '/api/vault/items', { token })).length
  if (held !== items) throw new Error(`the vault holds ${held} items, expected ${items}`)
  return { email, token }
}

/** A sign-in moments before the act: the fresh proof the passphrase change and the move's commit need. */
async function signIn(o: Owner): Promise<void> {
  o.token = (await json<{ token: string }>('POST', '/api/auth/login', { body: { email: o.email, password: PASSWORD } })).token
}

/**
 * The vault as format 1 had it: the passphrase's key wraps the signing key and every item's data
 * key (a fresh key each, as the items were seeded without one), and no vault key is stored.
 */
async function makeFormatOne(o: Owner): Promise<number> {
  const u = await me(o)
  const passphraseKey = await derivePassphraseKey(PASSPHRASES[0], u.vaultSalt!)
  const vaultKey = await unwrapVaultKey(u.vaultKey!, passphraseKey)
  const formatOneKey = passphraseKey as unknown as MasterKey
  const items = await json<Array<{ id: string }>>('GET', '/api/vault/items', { token: o.token })
  const wraps = await Promise.all(items.map(async (item) => ({ kind: 'item' as const, id: item.id, wrappedKey: await wrapDataKey(await generateDataKey(), formatOneKey) })))
  const wrappedSigningKey = await rewrapSigningKey(u.vaultSigningKey!.wrapped, vaultKey, formatOneKey)
  await json('POST', '/api/dev/format-one-vault', { body: { email: o.email, wrappedSigningKey, wraps } })
  if ((await me(o)).vaultKey !== null) throw new Error('the vault still has a vault key after format-one-vault')
  return items.length
}

// --- The passphrase change ----------------------------------------------------------------------

/** One change as the Settings card makes it (vaultSession.changePassphrase, then its POST), the vault unlocked first. */
async function changeOnce(o: Owner, from: string, to: string): Promise<{ total: number; post: number }> {
  const vault = storedVault(await me(o))
  const session = newSession()
  if (!(await session.unlock(from, vault, async () => {}))) throw new Error('unlock refused the passphrase')
  await signIn(o)
  let post = 0
  const t0 = performance.now()
  const changed = await session.changePassphrase(from, to, vault, async (body) => {
    const p0 = performance.now()
    const answer = await json<{ user: Me }>('POST', '/api/vault/passphrase', { token: o.token, body })
    post = performance.now() - p0
    if (answer.user.vaultKey !== body.wrappedVaultKey || answer.user.vaultSalt !== body.vaultSalt) throw new Error('the server did not keep the new wrap')
  })
  const total = performance.now() - t0
  session.lock()
  if (!changed) throw new Error('changePassphrase refused the current passphrase')
  return { total, post }
}

async function measureChange() {
  const large = await ownerWithVault('change-large', CHANGE_ITEMS)
  const small = await ownerWithVault('change-small', SMALL_ITEMS)
  const samples = { large: [] as Array<{ total: number; post: number }>, small: [] as Array<{ total: number; post: number }> }
  // One warm-up change each, then alternating, so both vaults see the same machine; the
  // passphrase goes back and forth.
  for (let i = 0; i <= CHANGE_RUNS; i++) {
    const [from, to] = i % 2 === 0 ? PASSPHRASES : [PASSPHRASES[1], PASSPHRASES[0]]
    const s = await changeOnce(small, from, to)
    const l = await changeOnce(large, from, to)
    if (i > 0) {
      samples.small.push(s)
      samples.large.push(l)
    }
  }
  // The large vault opens with the last passphrase (its check, then the vault key under it).
  const last = CHANGE_RUNS % 2 === 0 ? PASSPHRASES[1] : PASSPHRASES[0]
  const check = newSession()
  if (!(await check.unlock(last, storedVault(await me(large)), async () => {}))) throw new Error('the vault does not open with its new passphrase')
  check.lock()
  return samples
}

// --- The move of a format-1 vault ----------------------------------------------------------------

interface MoveSample {
  /** moveToVaultKey: start, every page, the commit. */
  move: number
  /** The whole first unlock that makes it (vaultSession.unlock with the move). */
  unlock: number
  /** The next unlock of the same vault, moved. */
  unlockAfter: number
  pages: number
  moved: number
}

async function moveOnce(items: number): Promise<MoveSample> {
  const o = await ownerWithVault(`move-${items}`, items)
  const wraps = await makeFormatOne(o)
  if (wraps !== items) throw new Error(`format-one-vault wrapped ${wraps} items, expected ${items}`)
  const vault = storedVault(await me(o))
  await signIn(o)
  let pages = 0
  const api: KeyMoveApi = {
    start: (body) => json<KeyMoveState>('POST', '/api/vault/key-move', { token: o.token, body }),
    stage: (body) => {
      pages++
      return json<KeyMoveState>('PUT', '/api/vault/key-move/pages', { token: o.token, body })
    },
    // As keyMoveApi: 409 means something still lacks its wrap.
    async commit() {
      const res = await call('POST', '/api/vault/key-move/commit', { token: o.token })
      if (res.status === 409) return 'incomplete'
      if (!res.ok) throw new Error(`POST /api/vault/key-move/commit: ${res.status} ${await res.text()}`)
      return 'done'
    },
  }
  const session = newSession()
  let move = 0
  let failure: unknown = null
  const t0 = performance.now()
  const opened = await session.unlock(PASSPHRASES[0], vault, async () => {}, async (passphraseKey, master, signingWrap) => {
    const m0 = performance.now()
    try {
      return await moveToVaultKey(api, passphraseKey, master, signingWrap)
    } catch (error) {
      // The session opens with the old key when the move fails: a failure here must not pass unseen.
      failure = error
      throw error
    } finally {
      move = performance.now() - m0
    }
  })
  const unlock = performance.now() - t0
  if (failure) throw failure
  if (!opened || session.vaultFormat() !== 2) throw new Error('the unlock did not move the vault to its vault key')
  // Every data key now opens under the vault key the session holds.
  const vaultKey = session.requireKey()
  const moved = await json<Array<{ id: string; wrappedKey: string }>>('GET', '/api/vault/items', { token: o.token })
  await Promise.all(moved.map((item) => unwrapDataKey(item.wrappedKey, vaultKey)))
  session.lock()

  const after = storedVault(await me(o))
  if (!after.vaultKey) throw new Error('no vault key stored after the move')
  const next = newSession()
  const u0 = performance.now()
  if (!(await next.unlock(PASSPHRASES[0], after, async () => {}))) throw new Error('the moved vault does not open')
  const unlockAfter = performance.now() - u0
  next.lock()
  return { move, unlock, unlockAfter, pages, moved: moved.length }
}

async function measureMove() {
  const samples = { large: [] as MoveSample[], small: [] as MoveSample[] }
  // One warm-up move of a small vault, then alternating.
  await moveOnce(SMALL_ITEMS)
  for (let i = 0; i < MOVE_RUNS; i++) {
    samples.small.push(await moveOnce(SMALL_ITEMS))
    samples.large.push(await moveOnce(MOVE_ITEMS))
  }
  return samples
}

/** PBKDF2 alone (derivePassphraseKey, the product's parameters), to read the figures by: one warm-up run first. */
async function measurePbkdf2(): Promise<number[]> {
  const samples: number[] = []
  for (let i = 0; i <= 5; i++) {
    const t0 = performance.now()
    await derivePassphraseKey(PASSPHRASES[0], toBase64(crypto.getRandomValues(new Uint8Array(32))))
    if (i > 0) samples.push(performance.now() - t0)
  }
  return samples
}

// `vault-keys.ts <origin> format-one <email> <password> <items>`: only make an owner's vault (its
// passphrase PASSPHRASES[0]) one of format 1 holding `items` items, for the move through the vault
// page in Chromium (vault-keys.mjs).
if (process.argv[3] === 'format-one') {
  const o: Owner = { email: process.argv[4]!, token: '' }
  const items = Number(process.argv[6])
  o.token = (await json<{ token: string }>('POST', '/api/auth/login', { body: { email: o.email, password: process.argv[5] } })).token
  for (let left = items; left > 0; left -= FILL_MAX) await json('POST', '/api/dev/vault-fill', { body: { email: o.email, items: Math.min(left, FILL_MAX) } })
  console.log(JSON.stringify({ wraps: await makeFormatOne(o) }))
  process.exit(0)
}

const began = performance.now()
const pbkdf2 = await measurePbkdf2()
const change = await measureChange()
console.error(`passphrase changes measured in ${((performance.now() - began) / 1000).toFixed(0)} s`)
const move = await measureMove()
console.error(`moves measured in ${((performance.now() - began) / 1000).toFixed(0)} s`)
console.log(JSON.stringify({ changeItems: CHANGE_ITEMS, moveItems: MOVE_ITEMS, smallItems: SMALL_ITEMS, pbkdf2, change, move }))
// Something the SPA's modules hold open would keep Node running; the figures are out.
process.exit(0)
