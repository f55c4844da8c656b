import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { AccessRefuseView, AccessRequest, AccessRequestResult, OwnerAccessRequests, RequesterView } from '../../../contract/access-requests'
import { apiJson } from '@/lib/api-client'
import { linkJson } from '@/features/releases/http'

// Access on request (contract/access-requests.ts): the owner's list and decisions (signed in), the
// owner's Refuse link, and the requester's side (the heir's portal link, an approver's own link).

export const ownerRequestsKey = ['/api/access-requests'] as const

export function useOwnerAccessRequests() {
  return useQuery(queryOptions({ queryKey: ownerRequestsKey, queryFn: () => apiJson<OwnerAccessRequests>('GET', '/api/access-requests') }))
}

/** Approve now (fresh proof: the API asks, the app's dialog answers) or Refuse. */
export function useDecideAccessRequest() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: 'approve' | 'refuse' }) =>
      apiJson<AccessRequest>('POST', `/api/access-requests/${encodeURIComponent(id)}/${decision}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ownerRequestsKey })
      void queryClient.invalidateQueries({ queryKey: ['/api/trigger-engine/status'] })
    },
  })
}

export const refuseViewQuery = (token: string) =>
  queryOptions({
    queryKey: ['/api/access-requests/refuse', token],
    queryFn: () => linkJson<AccessRefuseView>('GET', `/api/access-requests/refuse?token=${encodeURIComponent(token)}`),
    retry: false,
  })

export function useRefuseByLink() {
  return useMutation({ mutationFn: (token: string) => linkJson<{ message: string; request: AccessRequest }>('POST', '/api/access-requests/refuse', { token }) })
}

/** Who asks, through which link: an heir's portal link, or an approver's own. */
export type RequesterLink = { kind: 'beneficiary'; id: string; token: string } | { kind: 'approver'; token: string }

const viewUrl = (link: RequesterLink) =>
  link.kind === 'beneficiary'
    ? `/api/beneficiaries/${encodeURIComponent(link.id)}/access-requests?token=${encodeURIComponent(link.token)}`
    : `/api/access-requests/by-link?token=${encodeURIComponent(link.token)}`

const requesterKey = (link: RequesterLink) => ['access-requests', link.kind, link.token] as const

export function useRequesterView(link: RequesterLink) {
  return useQuery({ queryKey: requesterKey(link), queryFn: () => linkJson<RequesterView>('GET', viewUrl(link)), retry: false })
}

export function useAskForAccess(link: RequesterLink) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (policyId: string) =>
      link.kind === 'beneficiary'
        ? linkJson<AccessRequestResult>('POST', viewUrl(link), { policyId })
        : linkJson<AccessRequestResult>('POST', '/api/access-requests/by-link', { token: link.token, policyId }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: requesterKey(link) }),
  })
}
