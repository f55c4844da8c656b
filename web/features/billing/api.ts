import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type {
  AccountSubscription,
  BillingConfig,
  InvoicePage,
  PayInvoiceResult,
  PaymentMethodSession,
  SubscriptionResult,
} from '../../../contract/billing'
import type { PaidPlan } from '../../../contract/plans'
import { currentUserKey } from '@/features/auth/api'
import { apiJson, ApiRequestError } from '@/lib/api-client'

// Billing calls (seeds 000 §7). No zod and none of logic.ts here.

import { billingConfigKey } from './config-key'
export { billingConfigKey }
export const accountSubscriptionKey = ['/api/account/subscription'] as const
export const invoicesKey = ['/api/account/invoices'] as const

/** How many invoices a page of the billing history holds. */
export const INVOICES_PAGE_SIZE = 10

/** GET /api/billing/config: whether cards are taken here, and the publishable key if so. */
export function useBillingConfig() {
  return useQuery<BillingConfig | null>({ queryKey: billingConfigKey })
}

export interface SubscribeRequest {
  plan: PaidPlan
  promoCode?: string
  /** A guest's e-mail: present means the guest call. */
  email?: string
  /** A change of plan, confirmed (with the proration that was shown). */
  confirm?: boolean
  prorationDate?: number
}

/** POST /api/create-subscription (signed in) or /api/create-subscription-guest (with an e-mail). */
export function useCreateSubscription() {
  return useMutation({
    mutationFn: ({ plan, promoCode, email, confirm, prorationDate }: SubscribeRequest) =>
      email !== undefined
        ? apiJson<SubscriptionResult>('POST', '/api/create-subscription-guest', { plan, promoCode, email })
        : apiJson<SubscriptionResult>('POST', '/api/create-subscription', { plan, promoCode, confirm, prorationDate }),
  })
}

/** GET /api/account/subscription */
export function useAccountSubscription() {
  return useQuery<AccountSubscription | null>({ queryKey: accountSubscriptionKey })
}

/** POST /api/account/cancel-subscription; success re-fetches the subscription (and the user). */
export function useCancelSubscription() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => apiJson<{ message: string; subscription: AccountSubscription }>('POST', '/api/account/cancel-subscription'),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: accountSubscriptionKey }),
        queryClient.invalidateQueries({ queryKey: currentUserKey }),
      ])
    },
  })
}

/** POST /api/account/resume-subscription ("Keep my subscription"); success re-fetches the subscription (and the user). */
export function useResumeSubscription() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => apiJson<{ message: string; subscription: AccountSubscription }>('POST', '/api/account/resume-subscription'),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: accountSubscriptionKey }),
        queryClient.invalidateQueries({ queryKey: currentUserKey }),
      ])
    },
  })
}

/** DELETE /api/account/delete; the caller logs out on success. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: () => apiJson<{ message: string; deletedUserEmail: string }>('DELETE', '/api/account/delete'),
  })
}

/** GET /api/account/invoices: the page after `after` (an invoice id from `nextCursor`), or the first. */
export function invoicesPath(after: string | null, limit = INVOICES_PAGE_SIZE): string {
  const query = new URLSearchParams({ limit: String(limit) })
  if (after) query.set('after', after)
  return `${invoicesKey[0]}?${query}`
}

/**
 * The billing history, a page at a time, newest first. Not asked for on a server without billing
 * (`enabled` false): it issues no invoices, and the page says so without a call.
 */
export function useInvoices(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: invoicesKey,
    queryFn: ({ pageParam }) => apiJson<InvoicePage>('GET', invoicesPath(pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
  })
}

/**
 * POST /api/account/payment-method: Stripe's page for changing the card. The caller sends the
 * browser there (`goTo`); Stripe brings the owner back to /account?payment=updated.
 */
export function useUpdatePaymentMethod() {
  return useMutation({
    mutationFn: () => apiJson<PaymentMethodSession>('POST', '/api/account/payment-method'),
  })
}

/**
 * POST /api/account/pay-invoice: the open invoice charged again, to the payment method on file.
 * Paid (or refused because nothing is due any more), what the account shows has changed: the
 * subscription, its invoices and the user (whose status the app-wide banner reads) are read again.
 */
export function usePayInvoice() {
  const queryClient = useQueryClient()
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: accountSubscriptionKey }),
      queryClient.invalidateQueries({ queryKey: invoicesKey }),
      queryClient.invalidateQueries({ queryKey: currentUserKey }),
    ])
  return useMutation({
    mutationFn: () => apiJson<PayInvoiceResult>('POST', '/api/account/pay-invoice'),
    onSuccess: async (result) => {
      queryClient.setQueryData(accountSubscriptionKey, result.subscription)
      await refresh()
    },
    onError: async (error) => {
      if (error instanceof ApiRequestError && error.status === 409) await refresh()
    },
  })
}
