import { mirrorAccount } from '../owner/account'
import { eq } from 'drizzle-orm'
import { Hono } from 'hono'
import { pingSettingsBodySchema, SAFETY_WINDOW_MESSAGES, safetyWindowBodySchema, settingsFrequencyDays } from '../../contract/settings'
import { users } from '../db/schema'
import { validate } from '../lib/validate'
import { requireUser, userOf } from '../middleware/auth'
import { requireSubscription } from '../middleware/subscription'
import { jsonBodyLimit } from '../middleware/body-limit'
import { askWithProof, assertFreshProof, hasFreshProof } from '../middleware/fresh-proof'
import { TRUST_DETAILS } from '../mail/trust-templates'
import { tellOwner } from '../services/trust-mail'
import { accountOf } from '../owner/account'
import { accountIn, vaultOf } from '../middleware/owner-vault'
import { ownerVault } from '../owner/client'
import { audit } from '../services/audit'
import { publicUserOf } from '../services/users'
import type { AppEnv } from '../types'

export const userRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(requireSubscription)
  .use(jsonBodyLimit)
  // The frequency is where a new inactivity trigger starts (the clock runs on the trigger's own
  // schedule); the request's grace period is fixed (3 days) and not stored.
  .put('/ping-settings', validate('json', pingSettingsBodySchema), async (c) => {
    const { pingFrequency } = c.req.valid('json')
    // A shorter frequency for the next inactivity trigger brings a release sooner.
    const before = settingsFrequencyDays((await userOf(c)).pingFrequency)
    if (pingFrequency < before) await assertFreshProof(c)
    const [user] = await c.var.db
      .update(users)
      .set({ pingFrequency, updatedAt: Date.now() })
      .where(eq(users.id, c.var.account.id))
      .returning()
    await mirrorAccount(user!.id, user)
    await audit(c, 'account.settings_updated', { pingFrequency })
    if (pingFrequency < before) await tellOwner(c, user!, 'release_sooner', { detail: TRUST_DETAILS.frequencyShortened(before, pingFrequency) })
    // The alarm is set again exactly, as after every change to what the engine reads.
    await ownerVault(c.env, user!.id).tick(Date.now(), accountOf(user!))
    return c.json({ message: 'Settings updated.', user: await publicUserOf(c.env, c.var.db, user!) })
  })
  // The safety window before a release nobody on the owner's side started makes anything available.
  .get('/safety-window', async (c) => c.json(await vaultOf(c).engine().safetyWindow()))
  .put('/safety-window', validate('json', safetyWindowBodySchema), async (c) => {
    const { hours, shortenedFrom } = await askWithProof(c, vaultOf(c).engine().setSafetyWindow(accountIn(c), c.req.valid('json').hours, hasFreshProof(c)))
    if (shortenedFrom !== null) await tellOwner(c, c.var.account, 'release_sooner', { detail: TRUST_DETAILS.windowShortened(shortenedFrom, hours) })
    return c.json({ hours, message: SAFETY_WINDOW_MESSAGES.saved })
  })
