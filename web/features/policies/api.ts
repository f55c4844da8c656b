import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Policy, PolicyCreateBody } from '../../../contract/policies'
import { apiJson, apiRequest } from '@/lib/api-client'

// The owner's access policies (seeds 001 §7: GET/POST /api/policies, PUT {status}, DELETE). The
// Identity page reads the same list under the same key, so every change here shows there too.

export const policiesKey = ['/api/policies'] as const

export const policiesQuery = queryOptions({
  queryKey: policiesKey,
  queryFn: () => apiJson<Policy[]>('GET', '/api/policies'),
})

export function usePolicies() {
  return useQuery(policiesQuery)
}

function useInvalidatePolicies() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: policiesKey, exact: true })
}

/** Creates a policy. The body's selectors are sealed in the browser (selectors.ts); the server refuses clear ones. */
export function useCreatePolicy() {
  const invalidate = useInvalidatePolicies()
  return useMutation({
    mutationFn: (body: PolicyCreateBody) => apiJson<Policy>('POST', '/api/policies', body),
    onSuccess: invalidate,
  })
}

export function useSetPolicyStatus() {
  const invalidate = useInvalidatePolicies()
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: Policy['status'] }) =>
      apiJson<Policy>('PUT', `/api/policies/${encodeURIComponent(id)}`, { status }),
    onSuccess: invalidate,
  })
}

export function useDeletePolicy() {
  const invalidate = useInvalidatePolicies()
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/policies/${encodeURIComponent(id)}`),
    onSuccess: invalidate,
  })
}
