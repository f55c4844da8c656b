import type { AccountSubscription, InvoicePage, PaymentMethodSession, SubscriptionResult } from '../../contract/billing'
import { BILLING_MESSAGES } from '../../contract/billing'
import type { PaidPlan } from '../../contract/plans'
import type { Db } from '../db/client'
import type { UserRow } from '../db/schema'
import { ApiError, conflict } from '../lib/errors'
import { extendUser } from '../services/admin/users'
import { stripeBilling, stripeSettings } from './stripe'
import { accountView, cancelAtPeriodEnd, keepSubscription, subscribeGuest, subscribeOwner } from './subscriptions'

// ARCHITECTURE §6: billing sits behind this one interface. Stripe when STRIPE_SECRET_KEY is set,
// otherwise "no billing" (the embedded default: plans granted at once, and the UI says so).

export interface SubscribeRequest {
  plan: PaidPlan
  promoCode?: string
  /** A change of plan is made only when confirmed; before, the answer says what it would do. */
  confirm?: boolean
  prorationDate?: number
}

export interface BillingProvider {
  enabled: boolean
  /** Stripe's publishable key for the Payment Element, when billing is on. */
  publishableKey: string | null
  subscribeOwner(db: Db, owner: UserRow, req: SubscribeRequest): Promise<SubscriptionResult>
  subscribeGuest(db: Db, req: SubscribeRequest & { email: string }): Promise<SubscriptionResult>
  accountView(db: Db, user: UserRow): Promise<AccountSubscription>
  /** Stripe's page for changing the card (409 without billing, or before there is a customer). */
  paymentMethodSession(user: UserRow): Promise<PaymentMethodSession>
  /** Charges the open invoice again with the card on file (409 when nothing is due). */
  payOpenInvoice(db: Db, ctx: Pick<ExecutionContext, 'waitUntil'>, user: UserRow): Promise<{ paid: boolean }>
  /** A page of the owner's invoices, newest first. */
  invoices(user: UserRow, page: { after?: string; limit: number }): Promise<InvoicePage>
  /** An administrator's extension by `days`, charging nothing; the owner's row as it is after. */
  extend(db: Db, target: UserRow, days: number): Promise<UserRow>
  /** Cancels at the period's end; access continues until then. */
  cancel(db: Db, user: UserRow): Promise<{ user: UserRow; view: AccountSubscription }>
  /** Undoes a cancellation at the period's end: the same subscription renews (409 when none is pending). */
  resume(db: Db, user: UserRow): Promise<{ user: UserRow; view: AccountSubscription }>
  /** As the account is deleted (before anything is): ends any paid subscription at once, or throws. */
  cancelOnDelete(user: UserRow): Promise<void>
  /**
   * An administrator's refund (cents) to the owner. Without billing nothing was paid: it is recorded
   * as completed with no provider call. With Stripe, the owner's latest paid charge is refunded.
   * `idempotencyKey` (the refund record's id) makes a retried call refund once.
   */
  refund(user: UserRow, req: RefundRequest): Promise<RefundOutcome>
}

export interface RefundRequest {
  amountCents: number
  reason: string
  idempotencyKey: string
}

export interface RefundOutcome {
  status: 'completed' | 'pending' | 'failed'
  /** The provider's id for the refund (Stripe's re_…), null without billing. */
  providerRef: string | null
}

export function noBilling(env: Env): BillingProvider {
  return {
    enabled: false,
    publishableKey: null,
    subscribeOwner: (db, owner, req) => subscribeOwner(env, db, owner, req),
    subscribeGuest: (db, req) => subscribeGuest(env, db, req),
    accountView: async (_db, user) => accountView(user),
    // Nothing is charged here, so there is no card to change and nothing to pay.
    paymentMethodSession: async () => {
      throw conflict(BILLING_MESSAGES.billingOff)
    },
    payOpenInvoice: async () => {
      throw conflict(BILLING_MESSAGES.billingOff)
    },
    invoices: async () => ({ invoices: [], nextCursor: null, billingEnabled: false }),
    extend: (db, target, days) => extendUser(db, target, days),
    cancel: async (db, user) => {
      const row = await cancelAtPeriodEnd(db, user)
      return { user: row, view: accountView(row) }
    },
    resume: async (db, user) => {
      const row = await keepSubscription(db, user)
      return { user: row, view: accountView(row) }
    },
    cancelOnDelete: async (user) => {
      if (user.billingProvider === 'none') return
      // A Stripe subscription on a server whose Stripe keys are gone: nobody could cancel it after.
      throw new ApiError(503, BILLING_MESSAGES.cancelOnDeleteFailed)
    },
    refund: async (user) =>
      // A Stripe payment on a server whose Stripe keys are gone: recorded, left for someone with Stripe access.
      user.billingProvider === 'stripe' && user.stripeCustomerId ? { status: 'pending', providerRef: null } : { status: 'completed', providerRef: null },
  }
}

/** The provider for this deployment's settings. */
export function billingFor(env: Env): BillingProvider {
  const settings = stripeSettings(env)
  return settings ? stripeBilling(env, settings) : noBilling(env)
}
