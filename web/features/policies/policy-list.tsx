import { BadgeCheck, Clock, IdCard, Lock, Power, PowerOff, RefreshCw, ScrollText, ShieldPlus, Trash2, UserCheck, Users, Zap } from 'lucide-react'
import { useState } from 'react'
import type { Beneficiary } from '../../../contract/circle'
import type { Policy, PolicySelectors } from '../../../contract/policies'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { LoadError } from '@/components/ui/load-error'
import { Spinner } from '@/components/ui/spinner'
import { useBeneficiaries } from '@/features/circle/api'
import { useVaultUnlocked } from '@/features/vault/vault-session'
import { errorText, PaymentRedirectError } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { useApplyPolicy } from './apply'
import { offersApply, policyToggleTarget } from './list-rules'
import { useDeletePolicy, usePolicies, useSetPolicyStatus } from './api'
import {
  appliedText,
  DOCUMENT_TYPE_LABELS,
  deletePolicyText,
  ITEM_TYPE_LABELS,
  listNames,
  LOCKED_SELECTORS,
  POLICY_TOASTS,
  STATUS_BADGES,
  TRIGGER_LABELS,
} from './copy'
import { EarliestLines, useSafetyWindowHours } from './policy-earliest'
import { usePolicySelectors, type DecryptedSelectors } from './use-policy-selectors'
import { EARLIEST_COPY, policyEarliestLines } from '@/features/triggers/earliest'

function failure(title: string, error: unknown) {
  if (error instanceof PaymentRedirectError) return
  toast({ title, description: errorText(error, POLICY_TOASTS.fallback), variant: 'destructive' })
}

/** 'Documents, Photos tagged taxes or receipts' / 'Documents with any tags'. */
export function selectorsText(selectors: PolicySelectors): string {
  const types = listNames(selectors.types.map((t) => ITEM_TYPE_LABELS[t]))
  if (selectors.tags.length === 0) return `${types}, any tags`
  const tags = selectors.tags.length === 1 ? selectors.tags[0]! : `${selectors.tags.slice(0, -1).join(', ')} or ${selectors.tags[selectors.tags.length - 1]}`
  return `${types} tagged ${tags}`
}

function Covers({ state }: { state: DecryptedSelectors | undefined }) {
  if (!state || state.status === 'locked') {
    return (
      <span className="inline-flex items-center gap-1.5 text-slate-600" data-testid="policy-covers">
        <Lock className="size-3.5 shrink-0 text-slate-400" aria-hidden /> {LOCKED_SELECTORS}
      </span>
    )
  }
  if (state.status === 'pending') {
    return (
      <span className="inline-flex items-center gap-2 text-slate-600" data-testid="policy-covers">
        <Spinner className="size-3.5" label="Decrypting" /> Decrypting...
      </span>
    )
  }
  if (state.status === 'error') {
    return (
      <span className="text-red-700" data-testid="policy-covers">
        These settings could not be decrypted with your vault key.
      </span>
    )
  }
  return (
    <span className="break-words text-slate-900" data-testid="policy-covers">
      {selectorsText(state.selectors)}
    </span>
  )
}

function Fact({ label, icon: Icon, children }: { label: string; icon: typeof Clock; children: React.ReactNode }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="flex items-center gap-1.5 text-xs font-medium uppercase tracking-wide text-slate-500">
        <Icon className="size-3.5 shrink-0" aria-hidden /> {label}
      </dt>
      <dd className="min-w-0 text-sm">{children}</dd>
    </div>
  )
}

function PolicyCard({
  policy,
  selectors,
  beneficiaryNames,
  windowHours,
  unlocked,
  togglePending,
  applying,
  onToggle,
  onApply,
  onDelete,
}: {
  policy: Policy
  selectors: DecryptedSelectors | undefined
  beneficiaryNames: string[]
  windowHours: number | null
  unlocked: boolean
  togglePending: boolean
  applying: boolean
  onToggle: () => void
  onApply: () => void
  onDelete: () => void
}) {
  const status = STATUS_BADGES[policy.status]
  const active = policy.status === 'active'
  const triggers = policy.ruleJson.release.on.map((t) => TRIGGER_LABELS[t].label)
  return (
    <li>
      <Card className="flex h-full flex-col gap-4 p-4 sm:p-5" data-testid="policy-card">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0 flex-1">
            <h3 className="break-words font-semibold text-slate-900">{policy.name}</h3>
            <p className="mt-0.5 break-words text-sm text-slate-600">{policy.description}</p>
          </div>
          <Badge variant={status.variant} data-testid="policy-status">
            {status.label}
          </Badge>
        </div>

        <dl className="grid gap-3 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <Fact label="Covers" icon={ScrollText}>
              <Covers state={selectors} />
            </Fact>
          </div>
          <Fact label="Beneficiaries" icon={Users}>
            <span className="break-words text-slate-900" data-testid="policy-beneficiaries">
              {beneficiaryNames.length ? listNames(beneficiaryNames) : 'None'}
            </span>
          </Fact>
          <Fact label="Triggers" icon={Zap}>
            <span className="text-slate-900">{triggers.join(', ')}</span>
          </Fact>
          <Fact label="Minimum approvals" icon={BadgeCheck}>
            <span className="text-slate-900">{policy.minimumApprovals}</span>
          </Fact>
          <div className="sm:col-span-2">
            <Fact label={EARLIEST_COPY.heading} icon={Clock}>
              <div className="text-slate-900">
                <EarliestLines lines={policyEarliestLines(policy.ruleJson.release.on, policy.ruleJson.release.delayHours, windowHours)} />
              </div>
            </Fact>
          </div>
        </dl>

        {(policy.requiresApprover || policy.requiresIdentityVerification) && (
          <div className="flex flex-wrap gap-1.5">
            {policy.requiresApprover && (
              <Badge variant="warning" title={policy.approverContact ? `Approver: ${policy.approverContact}` : undefined}>
                <UserCheck className="size-3" aria-hidden /> Requires Approver
                {policy.approverContact && <span className="sr-only">: {policy.approverContact}</span>}
              </Badge>
            )}
            {policy.requiresIdentityVerification && (
              <Badge
                variant="default"
                title={
                  policy.requiredDocumentTypes.length
                    ? `Accepted: ${policy.requiredDocumentTypes.map((d) => DOCUMENT_TYPE_LABELS[d]).join(', ')}`
                    : 'Any government-issued ID'
                }
              >
                <IdCard className="size-3" aria-hidden /> Identity Verification
              </Badge>
            )}
          </div>
        )}

        <div className="mt-auto flex flex-wrap items-center gap-2 border-t border-slate-100 pt-3">
          <Button variant={active ? 'outline' : 'default'} size="sm" onClick={onToggle} disabled={togglePending}>
            {active ? <PowerOff aria-hidden /> : <Power aria-hidden />} {active ? 'Deactivate' : 'Activate'}
          </Button>
          {offersApply({ active, unlocked, selectors }) && (
            <Button
              variant="outline"
              size="sm"
              onClick={onApply}
              disabled={applying}
              title="Assign every matching item to this policy's beneficiaries now"
            >
              <RefreshCw className={applying ? 'animate-spin' : undefined} aria-hidden /> {applying ? 'Applying...' : 'Apply to items'}
            </Button>
          )}
          <Button
            variant="ghost"
            size="sm"
            className="ml-auto text-red-700 hover:bg-red-50 hover:text-red-800"
            onClick={onDelete}
            aria-label={`Delete ${policy.name}`}
          >
            <Trash2 aria-hidden /> <span className="hidden sm:inline">Delete</span>
          </Button>
        </div>
      </Card>
    </li>
  )
}

export function PolicyList({ onCreate }: { onCreate: () => void }) {
  const { data, isPending, isError, error, refetch, isFetching } = usePolicies()
  const beneficiaries = useBeneficiaries()
  const windowHours = useSafetyWindowHours()
  const unlocked = useVaultUnlocked()
  const selectors = usePolicySelectors(data)
  const setStatus = useSetPolicyStatus()
  const remove = useDeletePolicy()
  const applyPolicy = useApplyPolicy()
  const [applyingId, setApplyingId] = useState<string | null>(null)
  const [deleting, setDeleting] = useState<Policy | null>(null)

  if (isPending) {
    return (
      <div className="flex justify-center rounded-xl border border-slate-200 bg-white py-16">
        <Spinner className="size-7" label="Loading policies" />
      </div>
    )
  }
  if (isError) {
    return (
      <LoadError
        title="Your policies could not be loaded"
        message={errorText(error, POLICY_TOASTS.fallback)}
        onRetry={() => refetch()}
        retrying={isFetching}
      />
    )
  }
  if (data.length === 0) {
    return (
      <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
        <ScrollText className="mx-auto size-10 text-slate-400" aria-hidden />
        <h3 className="mt-3 font-semibold text-slate-900">No access policies yet</h3>
        <p className="mx-auto mt-1 max-w-md text-sm text-slate-600">
          A policy gives every item of some types, or with some tags, to the beneficiaries you choose, after the triggers and
          checks you set.
        </p>
        <Button className="mt-5" onClick={onCreate}>
          <ShieldPlus aria-hidden /> Create Policy
        </Button>
      </div>
    )
  }

  const byId = new Map<string, Beneficiary>((beneficiaries.data ?? []).map((b) => [b.id, b]))
  const namesOf = (policy: Policy) =>
    policy.ruleJson.assign.map((a) => byId.get(a.beneficiaryId)?.fullName).filter((n): n is string => !!n)

  async function apply(policy: Policy) {
    const state = selectors.get(policy.id)
    if (state?.status !== 'ready') return
    setApplyingId(policy.id)
    try {
      const { result, names } = await applyPolicy({
        id: policy.id,
        selectors: state.selectors,
        beneficiaryIds: policy.ruleJson.assign.map((a) => a.beneficiaryId),
      })
      toast({
        title: POLICY_TOASTS.applied,
        description: appliedText(result, names),
        variant: result.failed.length ? 'destructive' : 'success',
      })
    } catch (e) {
      failure(POLICY_TOASTS.updateFailed, e)
    } finally {
      setApplyingId(null)
    }
  }

  const togglingId = setStatus.isPending ? setStatus.variables?.id : null

  return (
    <>
      <ul className="grid grid-cols-1 gap-4 lg:grid-cols-2" aria-label="Your access policies">
        {data.map((policy) => (
          <PolicyCard
            key={policy.id}
            policy={policy}
            selectors={selectors.get(policy.id)}
            beneficiaryNames={namesOf(policy)}
            windowHours={windowHours}
            unlocked={unlocked}
            togglePending={togglingId === policy.id}
            applying={applyingId === policy.id}
            onToggle={() =>
              setStatus.mutate(
                { id: policy.id, status: policyToggleTarget(policy.status) },
                {
                  onSuccess: (updated) =>
                    toast({
                      title: updated.status === 'active' ? POLICY_TOASTS.activated : POLICY_TOASTS.deactivated,
                      description:
                        updated.status === 'active'
                          ? `"${updated.name}" will release its items when one of its triggers fires.`
                          : `"${updated.name}" will release nothing until you activate it again.`,
                      variant: 'success',
                    }),
                  onError: (e) => failure(POLICY_TOASTS.updateFailed, e),
                },
              )
            }
            onApply={() => void apply(policy)}
            onDelete={() => setDeleting(policy)}
          />
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && !remove.isPending && setDeleting(null)}
        title={`Delete ${deleting?.name ?? 'policy'}?`}
        description={deleting ? deletePolicyText(deleting.name) : ''}
        confirmLabel={remove.isPending ? 'Deleting...' : 'Delete'}
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleting) return
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast({ title: POLICY_TOASTS.deleted, description: `"${deleting.name}" was deleted.`, variant: 'success' })
              setDeleting(null)
            },
            onError: (e) => failure(POLICY_TOASTS.deleteFailed, e),
          })
        }}
      />
    </>
  )
}
