import { keepPreviousData, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  DASHBOARD_REFETCH_MS,
  type AdminAction,
  type AdminAnalytics,
  type AdminDeleteUserResult,
  type AdminDashboardData,
  type AdminPromoCode,
  type AdminRefund,
  type AdminUserPage,
} from '../../../contract/admin'
import { apiJson, apiRequest } from '@/lib/api-client'
import type { promoBody } from './logic'
import { LIVE } from '@/lib/query-client'

// The /api/admin calls (seeds 001 §7). The server checks the admin role on every one of them.

export const adminKeys = {
  dashboard: ['/api/admin/dashboard'] as const,
  users: ['/api/admin/users'] as const,
  promoCodes: ['/api/admin/promo-codes'] as const,
  refunds: ['/api/admin/refunds'] as const,
  analytics: ['/api/admin/analytics'] as const,
  actions: ['/api/admin/actions'] as const,
}

export const dashboardQuery = queryOptions({
  queryKey: adminKeys.dashboard,
  queryFn: () => apiJson<AdminDashboardData>('GET', '/api/admin/dashboard'),
  refetchInterval: DASHBOARD_REFETCH_MS,
  retry: false,
})

export const useAdminDashboard = () => useQuery(dashboardQuery)

/** GET /api/admin/users for one page: the search as typed (trimmed), after the page before. */
export function adminUsersPath(search: string, cursor: string | null): string {
  const query = new URLSearchParams()
  const q = search.trim()
  if (q) query.set('q', q)
  if (cursor) query.set('cursor', cursor)
  const text = query.toString()
  return text ? `${adminKeys.users[0]}?${text}` : adminKeys.users[0]
}

/**
 * The accounts, a page at a time (newest first, or searched on the server by the start of an
 * e-mail or name). The page before stays on screen while a new search loads.
 */
export const useAdminUsers = (search: string) =>
  useInfiniteQuery({
    queryKey: [...adminKeys.users, search.trim()],
    queryFn: ({ pageParam }) => apiJson<AdminUserPage>('GET', adminUsersPath(search, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    retry: false,
    ...LIVE,
  })
export const usePromoCodes = () =>
  useQuery({ queryKey: adminKeys.promoCodes, queryFn: () => apiJson<AdminPromoCode[]>('GET', '/api/admin/promo-codes'), retry: false, ...LIVE })
export const useRefunds = () =>
  useQuery({ queryKey: adminKeys.refunds, queryFn: () => apiJson<AdminRefund[]>('GET', '/api/admin/refunds'), retry: false, ...LIVE })
export const useAnalytics = ({ enabled }: { enabled: boolean }) =>
  useQuery({ queryKey: adminKeys.analytics, queryFn: () => apiJson<AdminAnalytics>('GET', '/api/admin/analytics'), retry: false, enabled, ...LIVE })

/** The admin audit trail: optional on the server; shown only when it answers. */
export const useAdminActions = () =>
  useQuery({ queryKey: adminKeys.actions, queryFn: () => apiJson<AdminAction[]>('GET', '/api/admin/actions'), retry: false, ...LIVE })

/**
 * After any act of an administrator: what it changed is read again, and the trail with it (every
 * act is written there), so "Recent admin actions" shows it without a reload.
 */
function useAfterAct(...changed: ReadonlyArray<readonly string[]>) {
  const queryClient = useQueryClient()
  return () => Promise.all([...changed, adminKeys.actions].map((queryKey) => queryClient.invalidateQueries({ queryKey })))
}

/** After any act on a user: users, dashboard and the trail are read again. */
const useRefreshUsers = () => useAfterAct(adminKeys.users, adminKeys.dashboard)

const userUrl = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`

export function usePauseUser() {
  const refresh = useRefreshUsers()
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) => apiRequest('POST', `${userUrl(id)}/pause`, { reason }),
    onSettled: refresh,
  })
}

export function useResumeUser() {
  const refresh = useRefreshUsers()
  return useMutation({
    mutationFn: ({ id }: { id: string }) => apiRequest('POST', `${userUrl(id)}/resume`),
    onSettled: refresh,
  })
}

export function useExtendUser() {
  const refresh = useRefreshUsers()
  return useMutation({
    mutationFn: ({ id, days }: { id: string; days: number }) => apiRequest('POST', `${userUrl(id)}/extend`, { days }),
    onSettled: refresh,
  })
}

export function useDeleteUser() {
  const refresh = useRefreshUsers()
  return useMutation({
    mutationFn: ({ id }: { id: string }) => apiJson<AdminDeleteUserResult>('DELETE', userUrl(id)),
    onSettled: refresh,
  })
}

/** Manual refunds carry a fixed marker instead of a Stripe subscription id (seeds 001 §7). */
export const MANUAL_REFUND_MARKER = 'manual_refund'

export function useIssueRefund() {
  const refresh = useAfterAct(adminKeys.users, adminKeys.dashboard, adminKeys.refunds)
  return useMutation({
    // `amount` is dollars; the server converts it to cents once (contract/admin.ts refundBodySchema).
    mutationFn: (body: { userId: string; amount: number; reason: string }) =>
      apiRequest('POST', '/api/admin/refunds', { ...body, subscriptionId: MANUAL_REFUND_MARKER }),
    onSettled: refresh,
  })
}

export function useCreatePromo() {
  const refresh = useAfterAct(adminKeys.promoCodes)
  return useMutation({
    mutationFn: (body: ReturnType<typeof promoBody>) => apiJson<AdminPromoCode>('POST', '/api/admin/promo-codes', body),
    onSettled: refresh,
  })
}

export function useDeletePromo() {
  const refresh = useAfterAct(adminKeys.promoCodes)
  return useMutation({
    mutationFn: ({ id }: { id: string }) => apiRequest('DELETE', `/api/admin/promo-codes/${encodeURIComponent(id)}`),
    onSettled: refresh,
  })
}
