import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type {
  Approver,
  ApproverForm,
  Beneficiary,
  BeneficiaryCreateBody,
  BeneficiaryUpdateBody,
  NotificationPreferences,
  WithEmailSent,
} from '../../../contract/circle'
import { CIRCLE_MESSAGES } from '../../../contract/circle'
import { ApiRequestError, apiJson, apiRequest } from '@/lib/api-client'
import { LIVE } from '@/lib/query-client'

// The owner's circle (beneficiaries and approvers) and the pages opened from e-mailed links.
// Every mutation invalidates exactly the list it changes.

export const beneficiariesKey = ['/api/beneficiaries'] as const
export const approversKey = ['/api/approvers'] as const

export const beneficiariesQuery = queryOptions({
  queryKey: beneficiariesKey,
  queryFn: () => apiJson<Beneficiary[]>('GET', '/api/beneficiaries'),
  // Beneficiaries verify, opt in and unsubscribe from their mailbox; held invitations go out when
  // the owner confirms from theirs.
  ...LIVE,
})

/** How often the approvers are read again while one has not verified yet (they do so from their mailbox). */
export const PENDING_APPROVER_REFETCH_MS = 15_000

export const approversQuery = queryOptions({
  queryKey: approversKey,
  queryFn: () => apiJson<Approver[]>('GET', '/api/approvers'),
  ...LIVE,
  // A verification happens in another tab or on another device: without this, "Pending" stayed
  // until a reload when the owner never left this tab.
  refetchInterval: (query) => (query.state.data?.some((a) => !a.verified) ? PENDING_APPROVER_REFETCH_MS : false),
})

export function useBeneficiaries() {
  return useQuery(beneficiariesQuery)
}

export function useApprovers() {
  return useQuery(approversQuery)
}

function useInvalidate(queryKey: readonly string[]) {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey, exact: true })
}

/**
 * Adds a beneficiary. The body carries the public key only: the type has no room for a private
 * key, and the server refuses one (ARCHITECTURE.md §3).
 */
export function useCreateBeneficiary() {
  const invalidate = useInvalidate(beneficiariesKey)
  return useMutation({
    mutationFn: (body: Omit<BeneficiaryCreateBody, 'privateKey' | 'verified'>) =>
      apiJson<WithEmailSent<Beneficiary>>('POST', '/api/beneficiaries', body),
    onSuccess: invalidate,
  })
}

export function useUpdateBeneficiary() {
  const invalidate = useInvalidate(beneficiariesKey)
  return useMutation({
    mutationFn: ({ id, ...body }: Omit<BeneficiaryUpdateBody, 'verified' | 'privateKey'> & { id: string }) =>
      apiJson<WithEmailSent<Beneficiary>>('PUT', `/api/beneficiaries/${encodeURIComponent(id)}`, body),
    onSuccess: invalidate,
  })
}

/** A fresh verification link. The spec's client PUT `{verified: true}`; only the link may verify. */
export function useResendBeneficiaryVerification() {
  const invalidate = useInvalidate(beneficiariesKey)
  return useMutation({
    mutationFn: (id: string) =>
      apiJson<WithEmailSent<Beneficiary>>('POST', `/api/beneficiaries/${encodeURIComponent(id)}/resend-verification`),
    onSuccess: invalidate,
  })
}

export function useDeleteBeneficiary() {
  const invalidate = useInvalidate(beneficiariesKey)
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/beneficiaries/${encodeURIComponent(id)}`),
    onSuccess: invalidate,
  })
}

export function useCreateApprover() {
  const invalidate = useInvalidate(approversKey)
  return useMutation({
    mutationFn: (body: ApproverForm) => apiJson<WithEmailSent<Approver>>('POST', '/api/approvers', body),
    onSuccess: invalidate,
  })
}

/** A fresh verification link for an approver who has not verified yet (older links stop working). */
export function useResendApproverVerification() {
  const invalidate = useInvalidate(approversKey)
  return useMutation({
    mutationFn: (id: string) => apiJson<WithEmailSent<Approver>>('POST', `/api/approvers/${encodeURIComponent(id)}/resend-verification`),
    onSuccess: invalidate,
  })
}

export function useDeleteApprover() {
  const invalidate = useInvalidate(approversKey)
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/approvers/${encodeURIComponent(id)}`),
    onSuccess: invalidate,
  })
}

// ---- Pages opened from e-mailed links (no session: the token is the credential) ----

/** The words for a failed link action: the server's message, or the spec's network/fallback text. */
export function linkErrorText(error: unknown, fallback: string = CIRCLE_MESSAGES.verificationFailed): string {
  if (error instanceof ApiRequestError) return error.detail || fallback
  // fetch rejects with a TypeError when the request never reached the server.
  if (error instanceof TypeError) return CIRCLE_MESSAGES.networkError
  return fallback
}

/** A 409 from a verify call: the address was verified before, which is a success to the visitor. */
export function isAlreadyVerified(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 409
}

export function useVerifyBeneficiary() {
  return useMutation({
    mutationFn: (body: { token: string; id?: string }) =>
      apiJson<{ message: string; beneficiary: { fullName: string; ownerName: string } }>('POST', '/api/beneficiaries/verify', body),
  })
}

export function useVerifyApprover() {
  return useMutation({
    mutationFn: (body: { token: string }) =>
      apiJson<{ message: string; approver: { fullName: string } }>('POST', '/api/approvers/verify', body),
  })
}

export const notificationPreferencesKey = (token: string) => ['/api/beneficiary-notifications', token] as const

export function useNotificationPreferences(token: string | undefined) {
  return useQuery({
    queryKey: notificationPreferencesKey(token ?? ''),
    queryFn: () =>
      apiJson<NotificationPreferences>('GET', `/api/beneficiary-notifications?token=${encodeURIComponent(token ?? '')}`),
    enabled: !!token,
  })
}

export function useOptInToNotifications() {
  return useMutation({
    mutationFn: (token: string) =>
      apiJson<{ status: 'opted_in' }>('POST', '/api/beneficiary-notifications/opt-in', { token }),
  })
}

export function useUnsubscribeFromNotifications() {
  return useMutation({
    mutationFn: (token: string) =>
      apiJson<{ status: 'unsubscribed'; alreadyUnsubscribed: boolean }>('POST', '/api/beneficiary-notifications/unsubscribe', {
        token,
      }),
  })
}

export interface EmailPreview {
  subject: string
  text: string
  html: string
}

export function useBeneficiaryInvitationPreview(secrecy: boolean) {
  return useQuery({
    queryKey: ['/api/email-preview/beneficiary-invitation', secrecy ? 'secrecy' : 'standard'],
    queryFn: () =>
      apiJson<EmailPreview>('GET', `/api/email-preview/beneficiary-invitation${secrecy ? '?secrecy=1' : ''}`),
    // Keep showing one version while the other loads.
    placeholderData: keepPreviousData,
  })
}
