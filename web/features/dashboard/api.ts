import { queryOptions } from '@tanstack/react-query'
import type { EngineStatus } from '../../../contract/triggers'
import { apiJson } from '@/lib/api-client'

export const engineStatusKey = ['/api/trigger-engine/status'] as const

/** The owner's trigger engine; read fresh on each visit since the clock moves on its own. */
export const engineStatusQuery = queryOptions({
  queryKey: engineStatusKey,
  queryFn: () => apiJson<EngineStatus>('GET', '/api/trigger-engine/status'),
  staleTime: 0,
})
