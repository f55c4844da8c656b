import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { ScrollText } from 'lucide-react'
import type { Approver, Beneficiary } from '../../../contract/circle'
import { POLICY_DOCUMENT_TYPE_LABELS } from '../../../contract/policies'
import { Badge } from '@/components/ui/badge'
import { Card } from '@/components/ui/card'
import { LoadError } from '@/components/ui/load-error'
import { Spinner } from '@/components/ui/spinner'
import { errorText } from '@/lib/api-client'
import { policiesQuery } from './api'
import { IDENTITY_TOASTS, listNames } from './copy'
import { identityPolicies } from './reviewers'

const STATUS_VARIANT = { active: 'success', draft: 'secondary', inactive: 'secondary' } as const

/** The policies that require identity verification (seeds 001 §2), and what each asks for. */
export function PoliciesSection({ approvers, beneficiaries }: { approvers: Approver[]; beneficiaries: Beneficiary[] }) {
  const policies = useQuery(policiesQuery)
  const approverName = new Map(approvers.map((a) => [a.id, a.fullName]))
  const beneficiaryName = new Map(beneficiaries.map((b) => [b.id, b.fullName]))

  let body: React.ReactNode
  if (policies.isPending) {
    body = (
      <div className="flex justify-center py-8">
        <Spinner className="size-6" label="Loading policies" />
      </div>
    )
  } else if (policies.isError) {
    body = (
      <LoadError
        title="Your policies could not be loaded"
        message={errorText(policies.error, IDENTITY_TOASTS.fallback)}
        onRetry={() => policies.refetch()}
        retrying={policies.isFetching}
      />
    )
  } else {
    const list = identityPolicies(policies.data)
    body =
      list.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-8 text-center">
          <ScrollText className="mx-auto size-8 text-slate-400" aria-hidden />
          <p className="mt-2 font-medium text-slate-900">No policy requires identity verification</p>
          <p className="mx-auto mt-1 max-w-lg text-sm text-slate-600">
            Documents you upload are still reviewed: each goes to all your approvers, and one approval verifies it. To ask for
            particular documents, approvers or more approvals, create a policy on the{' '}
            <Link to="/protocols" className="font-medium text-brand-700 underline-offset-4 hover:underline">
              Protocols
            </Link>{' '}
            page.
          </p>
        </div>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2">
          {list.map((policy) => {
            const named = policy.identityVerificationApprovers.map((id) => approverName.get(id) ?? 'A removed approver')
            const covers = policy.ruleJson.assign.map((a) => beneficiaryName.get(a.beneficiaryId)).filter((n): n is string => !!n)
            return (
              <li key={policy.id}>
                <Card className="grid h-full gap-3 p-4" data-testid="identity-policy">
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <h3 className="min-w-0 break-words font-semibold text-slate-900">{policy.name}</h3>
                    <Badge variant={STATUS_VARIANT[policy.status]} className="capitalize">
                      {policy.status}
                    </Badge>
                  </div>
                  <dl className="grid gap-2 text-sm">
                    <div>
                      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Required documents</dt>
                      <dd className="mt-1 flex flex-wrap gap-1.5">
                        {policy.requiredDocumentTypes.length ? (
                          policy.requiredDocumentTypes.map((type) => (
                            <Badge key={type} variant="outline">
                              {POLICY_DOCUMENT_TYPE_LABELS[type]}
                            </Badge>
                          ))
                        ) : (
                          <span className="text-slate-700">Any government-issued ID</span>
                        )}
                      </dd>
                    </div>
                    <div>
                      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Minimum approvals</dt>
                      <dd className="mt-0.5 text-slate-900">{policy.minimumApprovals}</dd>
                    </div>
                    <div>
                      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Approvers</dt>
                      <dd className="mt-0.5 text-slate-900">{named.length ? listNames(named) : 'All your approvers'}</dd>
                    </div>
                    <div>
                      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Beneficiaries</dt>
                      <dd className="mt-0.5 text-slate-900">{covers.length ? listNames(covers) : 'None'}</dd>
                    </div>
                  </dl>
                  {policy.status !== 'active' && (
                    <p className="text-xs text-slate-500">Not active: it does not count until you activate it.</p>
                  )}
                </Card>
              </li>
            )
          })}
        </ul>
      )
  }

  return (
    <section aria-labelledby="identity-policies-title" className="grid gap-3">
      <div>
        <h2 id="identity-policies-title" className="text-lg font-semibold text-slate-900">
          Policies that require identity verification
        </h2>
        <p className="mt-0.5 text-sm text-slate-600">
          Items under these policies are released to a beneficiary only once their identity document is verified.
        </p>
      </div>
      {body}
    </section>
  )
}
