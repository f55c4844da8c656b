import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { AccountSubscription, BillingConfig, SubscriptionResult } from '../../../contract/billing'
import type { PaidPlan } from '../../../contract/plans'
import { currentUserKey } from '@/features/auth/api'
import { apiJson } from '@/lib/api-client'

// Billing calls (seeds 000 §7).

export const billingConfigKey = ['/api/billing/config'] as const
export const accountSubscriptionKey = ['/api/account/subscription'] as const

/** GET /api/billing/config: whether cards are taken here, and the publishable key if so. */
export function useBillingConfig() {
  return useQuery<BillingConfig | null>({ queryKey: billingConfigKey })
}

export interface SubscribeRequest {
  plan: PaidPlan
  promoCode?: string
  /** A guest's e-mail: present means the guest call. */
  email?: string
}

/** POST /api/create-subscription (signed in) or /api/create-subscription-guest (with an e-mail). */
export function useCreateSubscription() {
  return useMutation({
    mutationFn: ({ plan, promoCode, email }: SubscribeRequest) =>
      email !== undefined
        ? apiJson<SubscriptionResult>('POST', '/api/create-subscription-guest', { plan, promoCode, email })
        : apiJson<SubscriptionResult>('POST', '/api/create-subscription', { plan, promoCode }),
  })
}

/** POST /api/create-payment-intent (the checkout page). */
export function useCreatePaymentIntent() {
  return useMutation({
    mutationFn: (body: { amount: number; description: string }) => apiJson<{ clientSecret: string }>('POST', '/api/create-payment-intent', body),
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

/** DELETE /api/account/delete; the caller logs out on success. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: () => apiJson<{ message: string; deletedUserEmail: string }>('DELETE', '/api/account/delete'),
  })
}
