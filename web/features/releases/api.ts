import { queryOptions, useMutation } from '@tanstack/react-query'
import type { CancelLinkResult, CancelView, DeathReportView, ReleaseApprovalView } from '../../../contract/releases'
import type { RenewalDecisionView, RenewalRequested } from '../../../contract/renewals'
import { ApiRequestError } from '@/lib/api-client'
import { linkJson } from './http'
import { fetchAssets, fetchPortal, portalUrls, type BeneficiaryLink } from './portal'

// The release pages' calls (docs: notes/engine-api.md, "Links"). Each is keyed by its token; the
// beneficiary portal's queries never retry a refused link.

const noRetryOnClientError = (failures: number, error: unknown) => failures < 2 && !(error instanceof ApiRequestError && error.status < 500)

export const portalKey = (link: BeneficiaryLink) => ['/api/beneficiaries', link.id, 'portal', link.token] as const
export const assetsKey = (link: BeneficiaryLink) => ['/api/beneficiaries', link.id, 'assets', link.token] as const

export const portalQuery = (link: BeneficiaryLink) =>
  queryOptions({ queryKey: portalKey(link), queryFn: () => fetchPortal(link), retry: noRetryOnClientError })

export const assetsQuery = (link: BeneficiaryLink) =>
  queryOptions({ queryKey: assetsKey(link), queryFn: () => fetchAssets(link), retry: noRetryOnClientError })

export function useCheckIn() {
  return useMutation({ mutationFn: (token: string) => linkJson<{ message: string }>('POST', '/api/inactivity/check-in', { token }) })
}

export const cancelViewQuery = (token: string) =>
  queryOptions({
    queryKey: ['/api/releases/cancel', token] as const,
    queryFn: () => linkJson<CancelView>('GET', `/api/releases/cancel?token=${encodeURIComponent(token)}`),
    retry: noRetryOnClientError,
    staleTime: 0,
  })

export function useCancelRelease() {
  return useMutation({
    mutationFn: (token: string) => linkJson<CancelLinkResult>('POST', '/api/releases/cancel', { token }),
  })
}

export const approvalKey = (token: string) => ['/api/release-approvals', token] as const

export const approvalQuery = (token: string) =>
  queryOptions({
    queryKey: approvalKey(token),
    queryFn: () => linkJson<ReleaseApprovalView>('GET', `/api/release-approvals?token=${encodeURIComponent(token)}`),
    retry: noRetryOnClientError,
    staleTime: 0,
  })

export function useDecideRelease() {
  return useMutation({
    mutationFn: (body: { token: string; decision: 'approved' | 'rejected'; notes: string }) =>
      linkJson<ReleaseApprovalView>('POST', '/api/release-approvals', body),
  })
}

export const deathReportQuery = (token: string) =>
  queryOptions({
    queryKey: ['/api/death-reports', token] as const,
    queryFn: () => linkJson<DeathReportView>('GET', `/api/death-reports?token=${encodeURIComponent(token)}`),
    retry: noRetryOnClientError,
  })

export interface DeathReportBody {
  token: string
  certificateNumber: string
  dateOfDeath: string
  issuingAuthority: string
  attest: true
}

export function useConfirmDeath() {
  return useMutation({ mutationFn: (body: DeathReportBody) => linkJson<{ message: string }>('POST', '/api/death-reports', body) })
}

// Heirs who run out (contract/renewals.ts): the heir's request, and the owner's or an approver's answer.
export function useRequestRenewal(link: BeneficiaryLink) {
  return useMutation({
    mutationFn: () => linkJson<RenewalRequested>('POST', portalUrls.renewals(link)),
  })
}

export const renewalDecisionKey = (token: string) => ['/api/renewal-decisions', token] as const

export const renewalDecisionQuery = (token: string) =>
  queryOptions({
    queryKey: renewalDecisionKey(token),
    queryFn: () => linkJson<RenewalDecisionView>('GET', `/api/renewal-decisions?token=${encodeURIComponent(token)}`),
    retry: noRetryOnClientError,
    staleTime: 0,
  })

export function useDecideRenewal() {
  return useMutation({
    mutationFn: (body: { token: string; decision: 'approved' | 'refused' }) =>
      linkJson<RenewalDecisionView & { message: string }>('POST', '/api/renewal-decisions', body),
  })
}
