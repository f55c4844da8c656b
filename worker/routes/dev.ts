import { isDevelopment } from '../lib/environment'
import { Hono } from 'hono'
import { createMiddleware } from 'hono/factory'
import { z } from 'zod'
import { validate } from '../lib/validate'
import { ownerVault } from '../owner/client'
import { ask } from '../owner/outcome'
import { findUserByEmail } from '../services/users'
import { notFound } from '../lib/errors'
import { runSweeps } from '../cron'
import { listOutbox } from '../mail/outbox'
import { withFacts } from '../openapi/facts'
import type { AppEnv } from '../types'
import { GENERIC_ERRORS } from '../../contract/messages'
import { devPlantItemSchema } from '../owner/dev-plant'
import { mirrorAccount } from '../owner/account'

const devVaultFillSchema = z.object({ email: z.email(), items: z.number().int().min(1).max(5000) })
const devLegacyVaultSchema = z.object({ email: z.email() })
const devFormatOneSchema = z.object({
  email: z.email(),
  wrappedSigningKey: z.string(),
  wraps: z.array(z.object({ kind: z.enum(['item', 'policy']), id: z.string(), wrappedKey: z.string() })),
})
const devAuditFillSchema = z.object({ email: z.email(), count: z.number().int().min(1).max(20_000) })

export { isDevelopment }

const developmentOnly = withFacts(
  createMiddleware<AppEnv>(async (c, next) => {
    if (!isDevelopment(c.env)) throw notFound(GENERIC_ERRORS.apiRouteNotFound)
    await next()
  }),
  { developmentOnly: true },
)

export const devRoutes = new Hono<AppEnv>()
  .use(developmentOnly)
  .get('/outbox', async (c) => c.json(await listOutbox(c.var.db)))
  // The bench's reference for the back office's pages: the users list as it was read before it was
  // paged (every account newest first, or the substring search), with D1's rows read. Only the ids
  // come back (100 000 whole rows would crowd the worker's memory); every row is read all the same.
  // `not indexed`: the plan it had before the paging indexes existed (a scan of the table).
  .get('/users-before-paging', validate('query', z.object({ q: z.string().max(254).optional() })), async (c) => {
    const q = c.req.valid('query').q?.trim().toLowerCase()
    const like = q ? `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : null
    const { results, meta } = await (like
      ? c.env.DB.prepare(`select id from users not indexed where lower(email) like ?1 escape '\\' or lower(display_name) like ?1 escape '\\' order by created_at desc, id desc`).bind(like)
      : c.env.DB.prepare('select id from users not indexed order by created_at desc, id desc')
    ).all()
    return c.json({ accounts: results.length, rowsRead: meta.rows_read })
  })
  // Fills an owner's audit chain with `count` entries in one transaction: long chains for the
  // browser tests and the bench, seeded in the object's SQL rather than through thousands of acts.
  .post('/audit-fill', validate('json', devAuditFillSchema), async (c) => {
    const { email, count } = c.req.valid('json')
    const user = await findUserByEmail(c.var.db, email)
    if (!user) throw notFound('No account with that e-mail address.')
    const entries = Array.from({ length: count }, (_, i) => ({ actor: 'system' as const, action: 'dev.filled', details: { n: i + 1 } }))
    const appended = await ownerVault(c.env, user.id).audit().appendAuditMany(entries)
    return c.json({ appended })
  })
  // A large vault for the bench: `items` contentless items, each granted to every beneficiary.
  .post('/vault-fill', validate('json', devVaultFillSchema), async (c) => {
    const { email, items } = c.req.valid('json')
    const user = await findUserByEmail(c.var.db, email)
    if (!user) throw notFound('No account with that e-mail address.')
    return c.json({ items: await ownerVault(c.env, user.id).dev().devFillItems(items) })
  })
  // A vault as one set up before signing keys (no signing key, no signed beneficiary key): for the
  // browser test of its first unlock and of confirming each key.
  .post('/legacy-vault', validate('json', devLegacyVaultSchema), async (c) => {
    const user = await findUserByEmail(c.var.db, c.req.valid('json').email)
    if (!user) throw notFound('No account with that e-mail address.')
    return c.json(await ownerVault(c.env, user.id).dev().devMakeLegacy())
  })
  // A vault of format 1 (before vault keys): the browser test computes the passphrase-key wraps
  // (it knows the passphrase) and this writes them in place of the vault key's, for its move at unlock.
  .post('/format-one-vault', validate('json', devFormatOneSchema), async (c) => {
    const body = c.req.valid('json')
    const user = await findUserByEmail(c.var.db, body.email)
    if (!user) throw notFound('No account with that e-mail address.')
    return c.json(await ask(ownerVault(c.env, user.id).dev().devMakeFormatOne(body.wrappedSigningKey, body.wraps)))
  })
  // The owner's items as if stored before manifests (not yet sealed): for the browser test of sealing at unlock.
  .post('/unsealed-items', validate('json', devLegacyVaultSchema), async (c) => {
    const user = await findUserByEmail(c.var.db, c.req.valid('json').email)
    if (!user) throw notFound('No account with that e-mail address.')
    return c.json({ items: await ownerVault(c.env, user.id).dev().devUnsealItems() })
  })
  // An item planted in an owner's vault as a hostile server could (worker/owner/dev-plant.ts): for
  // the browser test of the heir's seal check.
  .post('/plant-item', validate('json', devPlantItemSchema), async (c) => {
    const { email, ...item } = c.req.valid('json')
    const user = await findUserByEmail(c.var.db, email)
    if (!user) throw notFound('No account with that e-mail address.')
    await ownerVault(c.env, user.id).dev().devPlantItem({ email, ...item })
    return c.json({ id: item.id })
  })
  // Every beneficiary's kit as one printed before kits carried the vault's fingerprint: for the
  // browser test of the Beneficiaries page's offer of new kits.
  .post('/older-kits', validate('json', devLegacyVaultSchema), async (c) => {
    const user = await findUserByEmail(c.var.db, c.req.valid('json').email)
    if (!user) throw notFound('No account with that e-mail address.')
    return c.json(await ownerVault(c.env, user.id).dev().devOlderKits())
  })
  // Access on request: the waiting time of every waiting request of this owner runs out now (the
  // browser test of request-to-release has no week to wait); the engine's tick then releases them.
  .post('/access-requests/elapse', validate('json', devLegacyVaultSchema), async (c) => {
    const user = await findUserByEmail(c.var.db, c.req.valid('json').email)
    if (!user) throw notFound('No account with that e-mail address.')
    return c.json({ released: await ownerVault(c.env, user.id).dev().devElapseAccessRequests() })
  })
  // Every session of this owner as if its proof were long past (sessions live in the owner's
  // object, out of reach of SQL on D1): for the browser tests of asking for the password again.
  .post('/age-proof', validate('json', devLegacyVaultSchema), async (c) => {
    const user = await findUserByEmail(c.var.db, c.req.valid('json').email)
    if (!user) throw notFound('No account with that e-mail address.')
    return c.json({ sessions: await ownerVault(c.env, user.id).dev().devAgeProof() })
  })
  // The account's row as D1 now holds it, copied into its owner's object as every writer of those
  // columns does (mirrorAccount): for browser tests that set a state with SQL on D1 (a billing
  // provider's past-due, a plan that ended) and then use the session they already had.
  .post('/mirror-account', validate('json', devLegacyVaultSchema), async (c) => {
    const user = await findUserByEmail(c.var.db, c.req.valid('json').email)
    if (!user) throw notFound('No account with that e-mail address.')
    await mirrorAccount(user.id, user)
    return c.json({ mirrored: true })
  })
  // The cron's sweeps, now, with what they did and how long they took (npm run bench's sweep figures).
  .post('/sweep', async (c) => {
    const started = performance.now()
    const result = await runSweeps(c.env)
    return c.json({ ...result, ms: performance.now() - started })
  })
