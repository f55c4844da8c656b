import { zodResolver } from '@hookform/resolvers/zod'
import { Link } from '@tanstack/react-router'
import { Info, Loader2, ShieldPlus } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { MINIMUM_APPROVAL_OPTIONS, POLICY_DOCUMENT_TYPES, POLICY_TRIGGERS, type Policy } from '../../../contract/policies'
import { ITEM_TYPES } from '../../../contract/vault-items'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Field, InputField, NumberField, SelectField } from '@/components/ui/form-field'
import { Label } from '@/components/ui/label'
import { Spinner } from '@/components/ui/spinner'
import { Switch } from '@/components/ui/switch'
import { Textarea } from '@/components/ui/textarea'
import type { MasterKey } from '@/crypto'
import { useApprovers, useBeneficiaries } from '@/features/circle/api'
import { useCurrentUser } from '@/features/auth/api'
import { useVaultUnlocked, vaultSession } from '@/features/vault/vault-session'
import { VaultLockedAlert } from '@/features/vault/vault-locked-alert'
import { VaultUnlockDialog } from '@/features/vault/vault-unlock-dialog'
import { errorText, PaymentRedirectError } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { useApplyPolicy } from './apply'
import { useCreatePolicy } from './api'
import { BeneficiaryCheckboxes, CheckboxGroup } from './checkbox-group'
import {
  appliedText,
  DELAY_GUIDE,
  DOCUMENT_TYPE_LABELS,
  ITEM_TYPE_LABELS,
  MATCH_RULE,
  POLICY_TOASTS,
  TAGS_HINT,
  TRIGGER_LABELS,
} from './copy'
import { PolicyFormEarliest, useSafetyWindowHours } from './policy-earliest'
import { ACCESS_REQUEST, ACCESS_REQUEST_MESSAGES, ACCESS_REQUESTERS } from '../../../contract/access-requests'
import { ACCESS_REQUEST_COPY } from './copy'
import { createBodyFrom, POLICY_FORM_DEFAULTS, policyDialogSchema, selectorsFrom, type PolicyFormOutput, type PolicyFormValues } from './policy-form'
import { encryptSelectors } from './selectors'

type Phase = 'idle' | 'sealing' | 'saving' | 'assigning'

const PHASE_LABEL: Record<Phase, string> = {
  idle: 'Create Policy',
  sealing: 'Encrypting...',
  saving: 'Creating...',
  assigning: 'Assigning items...',
}

/** A switch with its label and what it does; the settings it unlocks appear below it. */
function SwitchRow({
  label,
  hint,
  checked,
  onCheckedChange,
  disabled,
  children,
}: {
  label: string
  hint: string
  checked: boolean
  onCheckedChange: (checked: boolean) => void
  disabled?: boolean
  children?: React.ReactNode
}) {
  const id = useId()
  return (
    <div className="grid min-w-0 gap-3 rounded-lg border border-slate-200 p-3">
      <div className="flex items-start justify-between gap-4">
        <div className="grid gap-0.5">
          <Label htmlFor={id}>{label}</Label>
          <p id={`${id}-hint`} className="text-xs text-slate-500">
            {hint}
          </p>
        </div>
        <Switch id={id} checked={checked} onCheckedChange={onCheckedChange} disabled={disabled} aria-describedby={`${id}-hint`} className="mt-0.5" />
      </div>
      {checked && children}
    </div>
  )
}

/**
 * Create Policy (seeds 001 §2, §5 'Policy form'). The selectors are sealed with a key of the
 * policy's own before anything is sent, so the vault must be unlocked; after the policy is stored,
 * the items it covers are assigned to its beneficiaries right here (grants.ts).
 */
export function CreatePolicyDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const unlocked = useVaultUnlocked()
  const { data: user } = useCurrentUser()
  const beneficiaries = useBeneficiaries()
  const approvers = useApprovers()
  const create = useCreatePolicy()
  const applyPolicy = useApplyPolicy()
  const [phase, setPhase] = useState<Phase>('idle')
  const [lockedError, setLockedError] = useState(false)
  const [unlockOpen, setUnlockOpen] = useState(false)
  const form = useForm<PolicyFormValues, unknown, PolicyFormOutput>({
    resolver: zodResolver(policyDialogSchema),
    defaultValues: POLICY_FORM_DEFAULTS,
  })
  const { errors } = form.formState
  const busy = phase !== 'idle'
  const requiresApprover = form.watch('requiresApprover')
  const releaseOn = form.watch('triggers')
  const delayHours = form.watch('delayHours')
  const windowHours = useSafetyWindowHours()

  function close() {
    if (busy) return
    form.reset(POLICY_FORM_DEFAULTS)
    setLockedError(false)
    onOpenChange(false)
  }

  const submit = form.handleSubmit(async (values) => {
    let master: MasterKey
    try {
      master = vaultSession.requireKey()
    } catch {
      setLockedError(true)
      return
    }
    const selectors = selectorsFrom(values)
    let created: Policy
    try {
      setPhase('sealing')
      const sealed = await encryptSelectors(selectors, master)
      setPhase('saving')
      created = await create.mutateAsync({ ...createBodyFrom(values, sealed), vaultFormat: vaultSession.vaultFormat() ?? undefined })
    } catch (error) {
      setPhase('idle')
      if (!(error instanceof PaymentRedirectError)) {
        toast({ title: POLICY_TOASTS.createFailed, description: errorText(error, POLICY_TOASTS.fallback), variant: 'destructive' })
      }
      return
    }
    // The policy exists now; assigning its items is a separate step that can be repeated from
    // the list (Apply to items) if it fails here.
    setPhase('assigning')
    try {
      const { result, names } = await applyPolicy({ id: created.id, selectors, beneficiaryIds: created.ruleJson.assign.map((a) => a.beneficiaryId) })
      toast({
        title: POLICY_TOASTS.created,
        description: appliedText(result, names),
        variant: result.failed.length ? 'default' : 'success',
      })
    } catch (error) {
      toast({
        title: POLICY_TOASTS.created,
        description: `Its items could not be assigned yet: ${errorText(error, POLICY_TOASTS.fallback)} Use Apply to items to try again.`,
      })
    } finally {
      setPhase('idle')
    }
    form.reset(POLICY_FORM_DEFAULTS)
    setLockedError(false)
    onOpenChange(false)
  })

  const onSubmit = (event: FormEvent) => {
    if (!vaultSession.isUnlocked()) {
      event.preventDefault()
      setLockedError(true)
      return
    }
    setLockedError(false)
    void submit(event)
  }

  const preventWhileBusy = (event: Event) => {
    if (busy) event.preventDefault()
  }

  const approverList = approvers.data ?? []

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent hideClose={busy} onEscapeKeyDown={preventWhileBusy} onInteractOutside={preventWhileBusy} className="max-w-2xl grid-cols-1">
        <DialogHeader>
          <DialogTitle>Create Policy</DialogTitle>
          <DialogDescription>
            Decide which items go to whom, after which triggers, and with which checks. Which items it covers is encrypted in
            this browser; we never see your tags.
          </DialogDescription>
        </DialogHeader>

        {!unlocked && (
          <VaultLockedAlert
            hasVault={!user || user.vaultSetup}
            why="A policy's item types and tags are encrypted with your vault key, and its items are assigned in this browser."
            tried={lockedError}
            onUnlock={() => setUnlockOpen(true)}
          />
        )}

        <form onSubmit={onSubmit} noValidate className="grid min-w-0 grid-cols-1 gap-5">
          <InputField label="Policy name" error={errors.name?.message} autoComplete="off" placeholder="e.g. Tax records to my accountant" {...form.register('name')} />
          <Field label="Description" error={errors.description?.message}>
            {({ id, describedBy, invalid }) => (
              <Textarea id={id} aria-describedby={describedBy} aria-invalid={invalid} rows={2} {...form.register('description')} />
            )}
          </Field>

          <fieldset className="grid min-w-0 gap-4 border-t border-slate-200 pt-4">
            <legend className="sr-only">Which items</legend>
            <p className="text-sm font-semibold text-slate-900" aria-hidden>
              Which items
            </p>
            <Controller
              control={form.control}
              name="types"
              render={({ field }) => (
                <CheckboxGroup
                  legend="Item types"
                  options={ITEM_TYPES.map((t) => ({ value: t, label: ITEM_TYPE_LABELS[t] }))}
                  value={field.value}
                  onChange={field.onChange}
                  error={errors.types?.message}
                  columns={4}
                  disabled={busy}
                />
              )}
            />
            <InputField label="Tags" hint={TAGS_HINT} error={errors.tags?.message} autoComplete="off" {...form.register('tags')} />
            <p className="flex gap-2 rounded-lg bg-slate-50 p-3 text-xs text-slate-600" data-testid="match-rule">
              <Info className="mt-0.5 size-3.5 shrink-0 text-slate-400" aria-hidden />
              <span>{MATCH_RULE}</span>
            </p>
          </fieldset>

          <fieldset className="grid min-w-0 gap-4 border-t border-slate-200 pt-4">
            <legend className="sr-only">Who and when</legend>
            <p className="text-sm font-semibold text-slate-900" aria-hidden>
              Who and when
            </p>
            <Controller
              control={form.control}
              name="beneficiaryIds"
              render={({ field }) => (
                <BeneficiaryCheckboxes
                  beneficiaries={beneficiaries}
                  emptyText="A policy gives items to at least one beneficiary. You have none yet."
                  value={field.value}
                  onChange={field.onChange}
                  error={errors.beneficiaryIds?.message}
                  disabled={busy}
                />
              )}
            />
            <Controller
              control={form.control}
              name="triggers"
              render={({ field }) => (
                <CheckboxGroup
                  legend="Triggers"
                  hint="Any one of them starts the release."
                  options={POLICY_TRIGGERS.map((t) => ({ value: t, label: TRIGGER_LABELS[t].label, hint: TRIGGER_LABELS[t].hint }))}
                  value={field.value}
                  onChange={field.onChange}
                  error={errors.triggers?.message}
                  columns={1}
                  disabled={busy}
                />
              )}
            />
            <div className="grid items-start gap-4 sm:grid-cols-2">
              <NumberField
                label="Delay (hours)"
                min={0}
                hint={DELAY_GUIDE}
                error={errors.delayHours?.message}
                {...form.register('delayHours', { valueAsNumber: true })}
              />
              <PolicyFormEarliest on={releaseOn} delayHours={delayHours} />
            </div>
          </fieldset>

          <fieldset className="grid min-w-0 gap-4 border-t border-slate-200 pt-4">
            <legend className="sr-only">Checks</legend>
            <p className="text-sm font-semibold text-slate-900" aria-hidden>
              Checks
            </p>
            <Controller
              control={form.control}
              name="requiresApprover"
              render={({ field }) => (
                <SwitchRow
                  label="Requires approver"
                  hint="Someone you trust confirms the release before beneficiaries can open anything."
                  checked={field.value}
                  onCheckedChange={field.onChange}
                  disabled={busy}
                >
                  {requiresApprover && (
                    <InputField
                      label="Approver contact"
                      type="email"
                      placeholder="approver@example.com"
                      autoComplete="off"
                      error={errors.approverContact?.message}
                      {...form.register('approverContact')}
                    />
                  )}
                </SwitchRow>
              )}
            />
            <Controller
              control={form.control}
              name="requiresIdentityVerification"
              render={({ field }) => (
                <SwitchRow
                  label="Requires identity verification"
                  hint="Beneficiaries must have a government ID approved by your approvers before they can open anything."
                  checked={field.value}
                  onCheckedChange={field.onChange}
                  disabled={busy}
                >
                  <Controller
                    control={form.control}
                    name="identityVerificationApprovers"
                    render={({ field: reviewers }) => (
                      <CheckboxGroup
                        legend="Approvers to review"
                        hint="None ticked: all your approvers may review."
                        options={approverList.map((a) => ({ value: a.id, label: a.fullName, hint: a.role }))}
                        value={reviewers.value}
                        onChange={reviewers.onChange}
                        disabled={busy}
                      >
                        {approvers.isPending ? (
                          <div className="flex items-center gap-2 text-sm text-slate-600">
                            <Spinner className="size-4" label="Loading approvers" /> Loading approvers...
                          </div>
                        ) : approvers.isError ? (
                          <div className="flex flex-wrap items-center gap-2 text-sm text-red-700">
                            {errorText(approvers.error, 'Your approvers could not be loaded.')}
                            <Button variant="outline" size="sm" onClick={() => approvers.refetch()}>
                              Try again
                            </Button>
                          </div>
                        ) : approverList.length === 0 ? (
                          <p className="rounded-lg border border-dashed border-slate-300 p-3 text-sm text-slate-600">
                            You have no approvers yet; documents cannot be reviewed until you add one on the{' '}
                            <Link to="/beneficiaries" className="font-medium text-brand-700 underline-offset-4 hover:underline">
                              Beneficiaries
                            </Link>{' '}
                            page.
                          </p>
                        ) : undefined}
                      </CheckboxGroup>
                    )}
                  />
                  <Controller
                    control={form.control}
                    name="requiredDocumentTypes"
                    render={({ field: documents }) => (
                      <CheckboxGroup
                        legend="Required document types"
                        hint="None ticked: any government-issued ID."
                        options={POLICY_DOCUMENT_TYPES.map((d) => ({ value: d, label: DOCUMENT_TYPE_LABELS[d] }))}
                        value={documents.value}
                        onChange={documents.onChange}
                        disabled={busy}
                      />
                    )}
                  />
                </SwitchRow>
              )}
            />
            <SelectField
              label="Minimum approvals"
              hint="How many of your approvers must approve a release or an identity document."
              selectClassName="sm:max-w-xs"
              disabled={busy}
              {...form.register('minimumApprovals', { valueAsNumber: true })}
            >
              {MINIMUM_APPROVAL_OPTIONS.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </SelectField>
          </fieldset>

          <fieldset className="grid min-w-0 gap-4 border-t border-slate-200 pt-4">
            <legend className="sr-only">{ACCESS_REQUEST_COPY.title}</legend>
            <Controller
              control={form.control}
              name="accessRequestOn"
              render={({ field }) => (
                <SwitchRow label={ACCESS_REQUEST_COPY.title} hint={ACCESS_REQUEST_COPY.hint} checked={field.value} onCheckedChange={field.onChange} disabled={busy}>
                  <NumberField
                    label="Waiting time (days)"
                    min={ACCESS_REQUEST.minDays}
                    max={ACCESS_REQUEST.maxDays}
                    hint={windowHours === null ? undefined : ACCESS_REQUEST_MESSAGES.realWait(windowHours)}
                    error={errors.accessRequestDays?.message}
                    {...form.register('accessRequestDays', { valueAsNumber: true })}
                  />
                  <Controller
                    control={form.control}
                    name="accessRequestBy"
                    render={({ field: by }) => (
                      <CheckboxGroup
                        legend="Who may ask"
                        options={ACCESS_REQUESTERS.map((r) => ({ value: r, label: ACCESS_REQUEST_COPY.requesters[r].label, hint: ACCESS_REQUEST_COPY.requesters[r].hint }))}
                        value={by.value}
                        onChange={by.onChange}
                        error={errors.accessRequestBy?.message}
                        columns={1}
                        disabled={busy}
                      />
                    )}
                  />
                </SwitchRow>
              )}
            />
          </fieldset>

          <DialogFooter>
            <Button variant="outline" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? <Loader2 className="animate-spin" aria-hidden /> : <ShieldPlus aria-hidden />} {PHASE_LABEL[phase]}
            </Button>
          </DialogFooter>
        </form>
        <VaultUnlockDialog open={unlockOpen} onOpenChange={setUnlockOpen} onUnlocked={() => setLockedError(false)} />
      </DialogContent>
    </Dialog>
  )
}
