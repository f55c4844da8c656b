import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import type { AuditEntry } from '../../../contract/audit'
import { apiJson } from '@/lib/api-client'
import { chainState, localCheck, readChain, type ReadChain, type ServerVerification } from './chain'
import { LIVE } from '@/lib/query-client'

// The audit log is always read fresh (staleTime 0): each visit reads what is new since the last
// verified entry, checks it, and asks the server for its own check of the whole chain.

export const auditChainKey = ['/api/audit', 'chain'] as const
export const auditVerifyKey = ['/api/audit/verify'] as const

export const auditVerifyQuery = queryOptions({
  queryKey: auditVerifyKey,
  queryFn: () => apiJson<ServerVerification>('GET', '/api/audit/verify'),
  ...LIVE,
})

const fetchPage = (from: number, limit: number) => apiJson<AuditEntry[]>('GET', `/api/audit?from=${from}&limit=${limit}`)

// Stable, so the newest-first copy is made once per read, not on every render.
const newestFirst = (chain: ReadChain) => ({ ...chain, newestFirst: [...chain.entries].reverse() })

/**
 * The whole chain (entries newest first), the browser's own check of every entry, the server's
 * check, and one verdict. What was verified stays in the query cache (memory only; cleared at
 * sign-out), so the next read starts after it.
 */
export function useAuditChain({ enabled = true }: { enabled?: boolean } = {}) {
  const queryClient = useQueryClient()
  const chain = useQuery({
    queryKey: auditChainKey,
    queryFn: () => readChain(queryClient.getQueryData<ReadChain>(auditChainKey), fetchPage),
    select: newestFirst,
    staleTime: 0,
    enabled,
  })
  const server = useQuery({ ...auditVerifyQuery, enabled })
  const read = chain.data
  const state = chainState(
    { result: read && !read.unverifiable ? localCheck(read) : undefined, failed: chain.isError || !!read?.unverifiable },
    { result: server.data, failed: server.isError },
  )
  const entries = {
    data: read?.newestFirst,
    isPending: chain.isPending,
    isError: chain.isError,
    isFetching: chain.isFetching,
    error: chain.error,
    refetch: () => chain.refetch(),
  }
  const refetch = () => Promise.all([chain.refetch(), server.refetch()])
  return { entries, server, state, refetch }
}
