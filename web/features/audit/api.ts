import { queryOptions, useQuery } from '@tanstack/react-query'
import type { AuditEntry } from '../../../contract/audit'
import { apiJson } from '@/lib/api-client'
import { chainState, verifyNewestFirst, type ServerVerification } from './chain'

// The audit log is always read fresh (staleTime 0): each visit re-fetches and re-verifies it.

export const auditEntriesKey = ['/api/audit'] as const
export const auditVerifyKey = ['/api/audit/verify'] as const

export const auditEntriesQuery = queryOptions({
  queryKey: auditEntriesKey,
  queryFn: () => apiJson<AuditEntry[]>('GET', '/api/audit'),
  staleTime: 0,
})

export const auditVerifyQuery = queryOptions({
  queryKey: auditVerifyKey,
  queryFn: () => apiJson<ServerVerification>('GET', '/api/audit/verify'),
  staleTime: 0,
})

/** The entries (newest first), the browser's own check of them, the server's check, and one verdict. */
export function useAuditChain({ enabled = true }: { enabled?: boolean } = {}) {
  const entries = useQuery({ ...auditEntriesQuery, enabled })
  const server = useQuery({ ...auditVerifyQuery, enabled })
  const local = useQuery({
    // Keyed by fetch time, not content: every fetched copy is checked, whatever it looks like.
    queryKey: ['audit-chain-local', entries.dataUpdatedAt],
    queryFn: () => verifyNewestFirst(entries.data ?? []),
    enabled: enabled && !!entries.data,
    staleTime: Infinity,
    gcTime: 0,
  })
  const state = chainState(
    { result: local.data, failed: entries.isError || local.isError },
    { result: server.data, failed: server.isError },
  )
  const refetch = () => Promise.all([entries.refetch(), server.refetch()])
  return { entries, server, local, state, refetch }
}
