import { queryOptions, useQuery } from '@tanstack/react-query'
import type { ReleaseReadiness } from '../../../contract/readiness'
import { apiJson } from '@/lib/api-client'
import { LIVE } from '@/lib/query-client'

// Release readiness: read fresh on every visit (staleTime 0), since any change anywhere in the
// vault, the circle or the triggers can change it.

export const readinessKey = ['/api/release-readiness'] as const

export const readinessQuery = queryOptions({
  queryKey: readinessKey,
  queryFn: () => apiJson<ReleaseReadiness>('GET', '/api/release-readiness'),
  ...LIVE,
})

export function useReleaseReadiness(options: { enabled?: boolean } = {}) {
  return useQuery({ ...readinessQuery, enabled: options.enabled ?? true })
}
