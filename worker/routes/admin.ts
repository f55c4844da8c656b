import { Hono } from 'hono'
import { billingFor } from '../billing/provider'
import {
  ADMIN_MESSAGES,
  adminUsersQuerySchema,
  extendBodySchema,
  pauseBodySchema,
  promoCreateBodySchema,
  refundBodySchema,
  type AdminDeleteUserResult,
  type AdminUserPage,
} from '../../contract/admin'
import { cancelBillingOnDelete } from '../billing/on-delete'
import { ApiError, conflict } from '../lib/errors'
import { isDevelopment } from '../lib/environment'
import { validate } from '../lib/validate'
import { requireAdmin, requireUser, userOf } from '../middleware/auth'
import { jsonBodyLimit } from '../middleware/body-limit'
import { ownerVault } from '../owner/client'
import { assertAccountDeletable, deleteAccount } from '../services/account-deletion'
import { auditOwner } from '../services/audit'
import { listAdminActions, recordAdminAction } from '../services/admin/actions'
import { createPromoCode, deletePromoCode, issueRefund, listPromoCodes, listRefunds } from '../services/admin/billing'
import { analytics, dashboardData } from '../services/admin/stats'
import { findTarget, listUsers, pauseUser, resumeUser, toAdminUser } from '../services/admin/users'
import type { AppEnv } from '../types'

// /api/admin/*: the back office. Every call needs a live session (401 otherwise) whose user is an
// administrator in the database as it is now (requireUser reads the users row with the session),
// else 403. Each change is written to the administrators' trail (admin_actions).
export const adminRoutes = new Hono<AppEnv>()

adminRoutes.use('*', requireUser, requireAdmin, jsonBodyLimit)

adminRoutes.get('/dashboard', async (c) => c.json(await dashboardData(c.var.db)))
adminRoutes.get('/analytics', async (c) => c.json(await analytics(c.var.db)))
adminRoutes.get('/actions', async (c) => c.json(await listAdminActions(c.var.db, 100)))

// --- Users ---

adminRoutes.get('/users', validate('query', adminUsersQuerySchema), async (c) => {
  const { rowsRead, ...page } = await listUsers(c.env, c.req.valid('query'))
  // Locally, for the bench: how many rows D1 read for this page (never sent by a deployed worker).
  if (isDevelopment(c.env)) c.header('x-d1-rows-read', String(rowsRead))
  return c.json(page satisfies AdminUserPage)
})

adminRoutes.post('/users/:id/pause', validate('json', pauseBodySchema), async (c) => {
  const target = await findTarget(c.var.db, c.req.param('id'))
  const row = await pauseUser(c.env, c.var.db, target, c.req.valid('json').reason)
  await recordAdminAction(c.var.db, c.var.account.id, 'user.pause', target.id)
  return c.json(toAdminUser(row))
})

adminRoutes.post('/users/:id/resume', async (c) => {
  const target = await findTarget(c.var.db, c.req.param('id'))
  const row = await resumeUser(c.var.db, target)
  await recordAdminAction(c.var.db, c.var.account.id, 'user.resume', target.id)
  return c.json(toAdminUser(row))
})

adminRoutes.post('/users/:id/extend', validate('json', extendBodySchema), async (c) => {
  const target = await findTarget(c.var.db, c.req.param('id'))
  const { days } = c.req.valid('json')
  const row = await billingFor(c.env).extend(c.var.db, target, days)
  await recordAdminAction(c.var.db, c.var.account.id, 'user.extend', target.id, {
    days,
    // A Stripe subscription is extended by its trial end at Stripe (nothing charged until then).
    provider: row.billingProvider,
    periodEnd: row.subscriptionPeriodEnd === null ? null : new Date(row.subscriptionPeriodEnd).toISOString(),
  })
  return c.json(toAdminUser(row))
})

/**
 * For support: the owner's vault as their object stores it, ciphertext and metadata only (it holds
 * no secret). Entered in the owner's own audit chain first, so the owner sees it and the export
 * shows it.
 */
adminRoutes.get('/users/:id/vault-export', async (c) => {
  const target = await findTarget(c.var.db, c.req.param('id'))
  await auditOwner(c.env, target.id, 'account.vault_exported', {}, 'system')
  const data = await ownerVault(c.env, target.id).exportVault()
  await recordAdminAction(c.var.db, c.var.account.id, 'user.vault_export', target.id, { auditEntries: (data.tables.audit ?? []).length })
  c.header('content-disposition', `attachment; filename="vault-export-${target.id}.json"`)
  return c.json(data)
})

/** The owner's own full purge (worker/services/account-deletion.ts), billing cancelled first. */
adminRoutes.delete('/users/:id', async (c) => {
  const target = await findTarget(c.var.db, c.req.param('id'))
  if (target.id === c.var.account.id) throw conflict(ADMIN_MESSAGES.cannotDeleteSelf)
  try {
    await assertAccountDeletable(c.var.db, target)
    await cancelBillingOnDelete(c.env, target)
    await deleteAccount(c.env, c.var.db, target)
  } catch (error) {
    if (error instanceof ApiError) throw error
    console.error(`admin ${c.var.account.id}: deleting user ${target.id} failed`, error)
    throw new ApiError(500, ADMIN_MESSAGES.deleteFailed)
  }
  await recordAdminAction(c.var.db, c.var.account.id, 'user.delete', target.id, { planTier: target.planTier, role: target.role })
  return c.json({ message: ADMIN_MESSAGES.userDeleted, deletedUserEmail: target.email } satisfies AdminDeleteUserResult)
})

// --- Promotion codes ---

adminRoutes.get('/promo-codes', async (c) => c.json(await listPromoCodes(c.var.db)))

adminRoutes.post('/promo-codes', validate('json', promoCreateBodySchema), async (c) => {
  const promo = await createPromoCode(c.var.db, c.req.valid('json'))
  await recordAdminAction(c.var.db, c.var.account.id, 'promo.create', null, {
    promoCodeId: promo.id,
    code: promo.code,
    type: promo.type,
    value: promo.value,
    maxUses: promo.maxUses,
  })
  return c.json(promo, 201)
})

adminRoutes.delete('/promo-codes/:id', async (c) => {
  const deleted = await deletePromoCode(c.var.db, c.req.param('id'))
  await recordAdminAction(c.var.db, c.var.account.id, 'promo.delete', null, { promoCodeId: deleted.id, code: deleted.code })
  return c.json({ message: 'Promo code deleted.', id: deleted.id })
})

// --- Refunds ---

adminRoutes.get('/refunds', async (c) => c.json(await listRefunds(c.var.db)))

adminRoutes.post('/refunds', validate('json', refundBodySchema), async (c) => {
  const body = c.req.valid('json')
  const target = await findTarget(c.var.db, body.userId)
  const refund = await issueRefund(c.env, c.var.db, (await userOf(c)), target, { amountCents: body.amountCents, reason: body.reason })
  await recordAdminAction(c.var.db, c.var.account.id, 'refund.create', target.id, { refundId: refund.id, amount: refund.amount, status: refund.status })
  return c.json(refund, 201)
})
