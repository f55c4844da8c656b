import { QueryClient } from '@tanstack/react-query'
import { getQueryFn } from './api-client'

// Seeds 000 §7: queries never refetch on their own, never go stale, never retry; nor do mutations.
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
