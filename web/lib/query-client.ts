import { QueryClient } from '@tanstack/react-query'
import { getQueryFn } from './api-client'

/**
 * For data that changes outside this tab (a beneficiary verifying from their mailbox, an approver's
 * review, the engine firing a trigger, another administrator): fetched again on every entry to a
 * page that shows it and when the owner comes back to the tab, so a list is never stale.
 */
export const LIVE = { staleTime: 0, refetchOnWindowFocus: true } as const

// Seeds 000 §7: queries never refetch on their own, never go stale, never retry; nor do mutations.
// The exception is LIVE data, above.
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  })
}
