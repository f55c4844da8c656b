import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useBlocker } from '@tanstack/react-router'
import { CircleAlert, FileText, KeyRound, Lock, LockOpen, Users, X } from 'lucide-react'
import { Tabs } from 'radix-ui'
import { useEffect, useId, useState, type FormEvent } from 'react'
import { Controller, useForm } from 'react-hook-form'
import type { z } from 'zod'
import {
  itemTypeFor,
  parseTags,
  RELEASE_PROTOCOL_LABELS,
  RELEASE_PROTOCOLS,
  VAULT_ITEM_MESSAGES,
} from '../../../../contract/vault-items'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { InlineLoadState } from '@/components/ui/inline-load-state'
import { Checkbox } from '@/components/ui/checkbox'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Field, InputField, PasswordInput, SelectField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { Textarea } from '@/components/ui/textarea'
import { beneficiariesQuery, useBeneficiaries } from '@/features/circle/api'
import { policiesQuery } from '@/features/policies/api'
import { useSafetyWindowHours } from '@/features/policies/policy-earliest'
import { errorText, PaymentRedirectError } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { useInvalidateVaultItems } from '../items/api'
import { ITEM_TYPE_META } from '../items/item-format'
import { assertTrustedKeys } from '@/features/circle/trusted-keys'
import { useVaultUnlocked, vaultSession } from '../vault-session'
import { VaultUnlockDialog } from '../vault-unlock-dialog'
import { Dropzone } from './dropzone'
import { policyCoverage, readablePolicy, readActivePolicies, recipientsFor } from './policy-recipients'
import { usePolicySelectors } from '@/features/policies/use-policy-selectors'
import { formatBytes } from '@/lib/format-bytes'
import { mimeTypeOf, sortFiles, type RejectedFile } from './file-rules'
import type { UploadBeneficiary, UploadFileInput } from './upload-file'
import {
  localDateTimeNow,
  passwordEntryItem,
  policyFrom,
  UPLOAD_FORM_DEFAULTS,
  uploadFormSchema,
  type UploadFormValues,
  type UploadMode,
} from './upload-form'
import { UploadQueueView } from './upload-queue-view'
import { policyNote, uploadAnnouncement } from './result-rules'
import { newJob, useUploadQueue, type RunResult } from './use-upload-queue'
import { ProtocolEarliestNote, ProtocolTriggerNote } from './protocol-trigger-note'

// Add Item (seeds 001 §2 'Upload dropzone', §5 'Upload files', 'Upload form'): files or a password
// entry, the release settings, then one encrypted upload per item with its own progress.

type FormOutput = z.output<typeof uploadFormSchema>

const tabClass =
  'inline-flex flex-1 items-center justify-center gap-2 whitespace-nowrap rounded-md px-2 py-2 text-sm font-medium text-slate-600 transition-colors hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm'

function announceResult(result: RunResult, close: () => void, note = '') {
  const announced = uploadAnnouncement(result, note)
  if (!announced) return
  toast(announced.toast)
  if (announced.close) close()
}

/**
 * What the active access policies will do with the items in the dialog (their selectors opened in
 * this browser while the vault is unlocked): who receives them, when, and whether that is enough.
 */
function usePolicyCoverage(mode: UploadMode, files: readonly File[], tagsInput: string, people: ReadonlyArray<{ id: string; fullName: string }>) {
  const policies = useQuery(policiesQuery)
  const windowHours = useSafetyWindowHours()
  const active = (policies.data ?? []).filter((p) => p.status === 'active')
  const selectors = usePolicySelectors(active)
  const readable = active.flatMap((p) => {
    const opened = selectors.get(p.id)
    return opened?.status === 'ready' ? [readablePolicy(p, opened.selectors)] : []
  })
  const tags = parseTags(tagsInput)
  const items = mode === 'password' ? [{ type: 'password' as const, tags }] : files.map((file) => ({ type: itemTypeFor(mimeTypeOf(file)), tags }))
  return policyCoverage(items, readable, people, windowHours)
}

export function AddItemDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const unlocked = useVaultUnlocked()
  const queryClient = useQueryClient()
  const beneficiaries = useBeneficiaries()
  const invalidateItems = useInvalidateVaultItems()
  const queue = useUploadQueue({ onStored: () => void invalidateItems() })
  const [rejected, setRejected] = useState<RejectedFile[]>([])
  const [lockedError, setLockedError] = useState(false)
  const [unlockOpen, setUnlockOpen] = useState(false)
  const [note, setNote] = useState('')
  const ids = { files: useId(), beneficiaries: useId(), approver: useId(), rejected: useId() }

  const form = useForm<UploadFormValues, unknown, FormOutput>({
    resolver: zodResolver(uploadFormSchema),
    defaultValues: UPLOAD_FORM_DEFAULTS,
  })
  const { errors, isSubmitted, isSubmitting } = form.formState
  const mode = form.watch('mode')
  const files = form.watch('files')
  const protocol = form.watch('protocol')
  const requiresApprover = form.watch('requiresApprover')

  const uploading = queue.running
  const showingQueue = queue.jobs.length > 0

  useBlocker({
    shouldBlockFn: () => !window.confirm('An upload is in progress. Leave this page and cancel it?'),
    enableBeforeUnload: uploading,
    disabled: !uploading,
  })

  function close() {
    if (uploading) return
    queue.reset()
    form.reset(UPLOAD_FORM_DEFAULTS)
    setRejected([])
    setLockedError(false)
    setNote('')
    onOpenChange(false)
  }

  function setMode(next: UploadMode) {
    form.setValue('mode', next)
    // The other mode has other required fields: refresh every message, not only this field's.
    if (isSubmitted) void form.trigger()
  }

  function addFiles(incoming: File[]) {
    const current = form.getValues('files') as File[]
    const { accepted, rejected: refused } = sortFiles(current, incoming)
    setRejected(refused)
    if (accepted.length) form.setValue('files', [...current, ...accepted], { shouldValidate: isSubmitted })
  }

  function removeFile(index: number) {
    const current = form.getValues('files') as File[]
    form.setValue(
      'files',
      current.filter((_, i) => i !== index),
      { shouldValidate: isSubmitted },
    )
  }

  const submit = form.handleSubmit(async (values) => {
    if (!vaultSession.isUnlocked()) {
      setLockedError(true)
      return
    }
    const list = beneficiaries.data ?? []
    const known: UploadBeneficiary[] = list.map((b) => ({ id: b.id, publicKey: b.publicKey, keyVersion: b.keyVersion }))
    // A key replaced while an item uploads: the list as it is now, each key checked again.
    const refreshBeneficiaries = async () => {
      const fresh = await queryClient.fetchQuery({ ...beneficiariesQuery, staleTime: 0 })
      const wanted = fresh.filter((b) => recipientIds.has(b.id))
      await assertTrustedKeys(wanted)
      return wanted.map((b) => ({ id: b.id, publicKey: b.publicKey, keyVersion: b.keyVersion }))
    }
    const chosen = known.filter((b) => values.beneficiaryIds.includes(b.id))
    // Every active policy that covers an item adds its beneficiaries (policy-recipients.ts). The
    // list is fetched fresh: a policy made in another tab counts too.
    let policies: Awaited<ReturnType<typeof readActivePolicies>>
    try {
      policies = await readActivePolicies(await queryClient.fetchQuery({ ...policiesQuery, staleTime: 0 }), vaultSession.requireKey())
    } catch (error) {
      if (error instanceof PaymentRedirectError) return
      toast({
        title: 'Upload failed',
        description: `Your access policies could not be loaded, so nothing was uploaded. ${errorText(error, 'Please try again.')}`,
        variant: 'destructive',
      })
      return
    }
    const policy = policyFrom(values)
    const tags = parseTags(values.tags)
    const added = new Set<string>()
    const withPolicies = (input: Omit<UploadFileInput, 'beneficiaries'>): UploadFileInput => {
      const recipients = recipientsFor({ type: input.type, tags: input.metadata.tags }, chosen, policies.readable, known)
      recipients.added.forEach((b) => added.add(b.id))
      return {
        ...input,
        beneficiaries: recipients.beneficiaries,
        policyOnly: recipients.added.map((b) => b.id),
        policyIds: recipients.policies.map((p) => p.id),
        refreshBeneficiaries,
      }
    }
    const inputs: UploadFileInput[] =
      values.mode === 'password'
        ? [withPolicies({ type: 'password', ...passwordEntryItem(values), policy })]
        : values.files.map((file) => {
            const mimetype = mimeTypeOf(file)
            return withPolicies({
              type: itemTypeFor(mimetype),
              content: file,
              metadata: { filename: file.name, mimetype, size: file.size, tags },
              policy,
            })
          })
    // Nothing is wrapped for a key this vault did not sign: the list comes from the server.
    const recipientIds = new Set(inputs.flatMap((input) => input.beneficiaries.map((b) => b.id)))
    try {
      await assertTrustedKeys(list.filter((b) => recipientIds.has(b.id)))
    } catch (error) {
      toast({ title: 'Upload failed', description: `${errorText(error, 'Please try again.')} Nothing was uploaded.`, variant: 'destructive' })
      return
    }
    const submissionNote = policyNote(
      list.filter((b) => added.has(b.id)).map((b) => b.fullName),
      policies.unreadable.length,
    )
    setNote(submissionNote)
    announceResult(await queue.start(inputs.map(newJob)), close, submissionNote)
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

  const blockClose = (event: Event) => {
    if (uploading) event.preventDefault()
  }

  const fileCount = (files as File[]).length
  const submitLabel =
    mode === 'password' ? 'Encrypt & Save' : fileCount > 1 ? `Encrypt & Upload ${fileCount} Files` : 'Encrypt & Upload'
  const beneficiaryList = beneficiaries.data ?? []
  const coverage = usePolicyCoverage(form.watch('mode'), files as File[], form.watch('tags'), beneficiaryList)
  useEffect(() => {
    if (form.getValues('coveredByPolicies') !== coverage.covered) form.setValue('coveredByPolicies', coverage.covered, { shouldValidate: isSubmitted })
  }, [coverage.covered, form, isSubmitted])

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent hideClose={uploading} onEscapeKeyDown={blockClose} onInteractOutside={blockClose} className="max-w-2xl grid-cols-1">
        <DialogHeader>
          <DialogTitle>Add Item</DialogTitle>
          <DialogDescription>
            Everything is encrypted in this browser before it is uploaded. We never see names, tags or contents.
          </DialogDescription>
        </DialogHeader>

        {!unlocked && !showingQueue && (
          <Alert variant={lockedError ? 'destructive' : 'warning'}>
            <Lock aria-hidden />
            <AlertTitle>{VAULT_ITEM_MESSAGES.locked}</AlertTitle>
            <AlertDescription className="grid gap-2">
              <p>Items are encrypted with your vault key, which is only available while the vault is unlocked.</p>
              <div>
                <Button size="sm" onClick={() => setUnlockOpen(true)}>
                  <LockOpen aria-hidden /> Unlock Vault
                </Button>
              </div>
            </AlertDescription>
          </Alert>
        )}

        {showingQueue ? (
          <>
            <UploadQueueView
              jobs={queue.jobs}
              running={uploading}
              onRetry={(id) => {
                void queue.retry(id).then((result) => result && announceResult(result, close, note))
              }}
            />
            <DialogFooter>
              {uploading ? (
                <Button key="cancel" variant="outline" onClick={() => queue.cancel()}>
                  <X aria-hidden /> Cancel
                </Button>
              ) : (
                <Button key="done" onClick={close}>
                  Done
                </Button>
              )}
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-5">
            <Tabs.Root value={mode} onValueChange={(value) => setMode(value as UploadMode)} className="grid grid-cols-1 gap-4">
              <Tabs.List aria-label="What to add" className="flex gap-1 rounded-lg bg-slate-100 p-1">
                <Tabs.Trigger value="files" className={tabClass}>
                  <FileText className="hidden size-4 sm:block" aria-hidden /> Files
                </Tabs.Trigger>
                <Tabs.Trigger value="password" className={tabClass}>
                  <KeyRound className="hidden size-4 sm:block" aria-hidden /> Password entry
                </Tabs.Trigger>
              </Tabs.List>

              <Tabs.Content value="files" className="grid grid-cols-1 gap-3 focus-visible:outline-none">
                <Dropzone
                  selectedCount={fileCount}
                  onFiles={addFiles}
                  onPasswords={() => setMode('password')}
                  describedBy={errors.files ? ids.files : undefined}
                  invalid={!!errors.files}
                />
                {errors.files?.message && (
                  <p id={ids.files} role="alert" className="text-sm text-red-600">
                    {errors.files.message}
                  </p>
                )}
                {rejected.length > 0 && (
                  <Alert variant="destructive" aria-labelledby={ids.rejected}>
                    <CircleAlert aria-hidden />
                    <AlertTitle id={ids.rejected}>Not added</AlertTitle>
                    <AlertDescription>
                      <ul className="grid gap-1.5" data-testid="rejected-files">
                        {rejected.map((file, i) => (
                          <li key={`${file.name}-${i}`}>
                            <span className="break-all font-medium">{file.name}</span>
                            {file.reasons.map((reason) => (
                              <span key={reason} className="block text-xs">
                                {reason}
                              </span>
                            ))}
                          </li>
                        ))}
                      </ul>
                    </AlertDescription>
                  </Alert>
                )}
                {fileCount > 0 && (
                  <ul className="grid gap-1.5" aria-label="Selected files" data-testid="selected-files">
                    {(files as File[]).map((file, index) => {
                      const type = itemTypeFor(mimeTypeOf(file))
                      const Icon = ITEM_TYPE_META[type].icon
                      return (
                        <li key={`${file.name}-${file.size}-${file.lastModified}`} className="flex items-center gap-3 rounded-lg border border-slate-200 px-3 py-2">
                          <Icon className="size-4 shrink-0 text-slate-500" aria-hidden />
                          <span className="min-w-0 flex-1 truncate text-sm text-slate-900">{file.name}</span>
                          <span className="shrink-0 text-xs text-slate-500">{formatBytes(file.size)}</span>
                          <Button variant="ghost" size="icon" className="size-8 shrink-0" onClick={() => removeFile(index)} aria-label={`Remove ${file.name}`}>
                            <X aria-hidden />
                          </Button>
                        </li>
                      )
                    })}
                  </ul>
                )}
              </Tabs.Content>

              <Tabs.Content value="password" className="grid grid-cols-1 gap-4 focus-visible:outline-none">
                <InputField label="Site or service" error={errors.site?.message} placeholder="e.g. bank.example.com" autoComplete="off" {...form.register('site')} />
                <InputField label="Username" error={errors.username?.message} autoComplete="off" {...form.register('username')} />
                <Field label="Password" error={errors.password?.message}>
                  {({ id, describedBy, invalid }) => (
                    <PasswordInput id={id} aria-describedby={describedBy} aria-invalid={invalid} autoComplete="new-password" {...form.register('password')} />
                  )}
                </Field>
                <Field label="Notes" error={errors.notes?.message} hint="Security questions, recovery codes, where the hardware key is kept...">
                  {({ id, describedBy, invalid }) => (
                    <Textarea id={id} aria-describedby={describedBy} aria-invalid={invalid} rows={3} {...form.register('notes')} />
                  )}
                </Field>
              </Tabs.Content>
            </Tabs.Root>

            <fieldset className="grid min-w-0 grid-cols-1 gap-4 border-t border-slate-200 pt-4">
              <legend className="sr-only">Release settings</legend>
              <p className="text-sm font-semibold text-slate-900" aria-hidden>
                Release settings
              </p>
              <div className="grid gap-4 sm:grid-cols-2">
                <InputField
                  label="Tags"
                  error={errors.tags?.message}
                  hint="Comma-separated, e.g. finance, insurance"
                  autoComplete="off"
                  {...form.register('tags')}
                />
                <SelectField
                  label="Release condition"
                  error={errors.protocol?.message}
                  hint="When these items may pass to your beneficiaries."
                  {...form.register('protocol')}
                >
                  {RELEASE_PROTOCOLS.map((p) => (
                    <option key={p} value={p}>
                      {RELEASE_PROTOCOL_LABELS[p]}
                    </option>
                  ))}
                </SelectField>
              </div>
              <ProtocolTriggerNote protocol={protocol} />
              <ProtocolEarliestNote protocol={protocol} />
              {protocol === 'SCHEDULED' && (
                <Field label="Release date and time" error={errors.scheduledAt?.message}>
                  {({ id, describedBy, invalid }) => (
                    <Input id={id} type="datetime-local" min={localDateTimeNow()} aria-describedby={describedBy} aria-invalid={invalid} {...form.register('scheduledAt')} />
                  )}
                </Field>
              )}

              <fieldset className="grid min-w-0 grid-cols-1 gap-2" aria-describedby={errors.beneficiaryIds ? ids.beneficiaries : undefined}>
                <div className="flex items-center justify-between gap-2">
                  <legend className="text-sm font-medium text-slate-800">Beneficiaries</legend>
                  {beneficiaryList.length > 1 && (
                    <Button
                      variant="link"
                      size="sm"
                      className="h-auto px-0"
                      onClick={() =>
                        form.setValue(
                          'beneficiaryIds',
                          form.getValues('beneficiaryIds').length === beneficiaryList.length ? [] : beneficiaryList.map((b) => b.id),
                          { shouldValidate: isSubmitted },
                        )
                      }
                    >
                      {form.watch('beneficiaryIds').length === beneficiaryList.length ? 'Clear all' : 'Select all'}
                    </Button>
                  )}
                </div>
                <InlineLoadState query={beneficiaries} loadingLabel="Loading beneficiaries" errorFallback="Your beneficiaries could not be loaded.">
                  {beneficiaryList.length === 0 ? (
                  <div className="flex flex-col gap-2 rounded-lg border border-dashed border-slate-300 p-3 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between">
                    <span className="flex items-center gap-2">
                      <Users className="size-4 shrink-0 text-slate-400" aria-hidden />
                      Every item goes to at least one beneficiary. You have none yet.
                    </span>
                    <Link to="/beneficiaries" className="font-medium text-brand-700 underline-offset-4 hover:underline">
                      Add a beneficiary
                    </Link>
                  </div>
                ) : (
                  <Controller
                    control={form.control}
                    name="beneficiaryIds"
                    render={({ field }) => (
                      <ul className="grid max-h-48 gap-1 overflow-y-auto rounded-lg border border-slate-200 p-1 sm:grid-cols-2">
                        {beneficiaryList.map((b) => {
                          const checkboxId = `${ids.beneficiaries}-${b.id}`
                          const checked = field.value.includes(b.id)
                          return (
                            <li key={b.id} className="flex items-center gap-3 rounded-md px-2 py-1.5 hover:bg-slate-50">
                              <Checkbox
                                id={checkboxId}
                                checked={checked}
                                aria-invalid={!!errors.beneficiaryIds}
                                onCheckedChange={(value) =>
                                  field.onChange(value === true ? [...field.value, b.id] : field.value.filter((id) => id !== b.id))
                                }
                              />
                              <Label htmlFor={checkboxId} className="grid min-w-0 cursor-pointer font-normal">
                                <span className="truncate font-medium text-slate-900">{b.fullName}</span>
                                <span className="truncate text-xs text-slate-500">{b.relationship}</span>
                              </Label>
                            </li>
                          )
                        })}
                      </ul>
                    )}
                  />
                )}
                </InlineLoadState>
                {errors.beneficiaryIds?.message && (
                  <p id={ids.beneficiaries} role="alert" className="text-sm text-red-600">
                    {errors.beneficiaryIds.message}
                  </p>
                )}
                {coverage.lines.length > 0 && (
                  <ul className="grid gap-1 rounded-lg border border-brand-100 bg-brand-50 p-3 text-sm text-brand-900" data-testid="policy-recipients">
                    {coverage.lines.map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                    {coverage.covered && <li className="text-xs text-brand-800">Choosing beneficiaries here is optional.</li>}
                  </ul>
                )}
                <p className="text-xs text-slate-500">
                  Items that match an active{' '}
                  <Link to="/protocols" className="font-medium text-brand-700 underline-offset-4 hover:underline">
                    access policy
                  </Link>{' '}
                  also go to that policy&apos;s beneficiaries.
                </p>
              </fieldset>

              <div className="grid gap-3 rounded-lg border border-slate-200 p-3">
                <div className="flex items-start justify-between gap-4">
                  <div className="grid gap-0.5">
                    <Label htmlFor={ids.approver}>Requires approver</Label>
                    <p id={`${ids.approver}-hint`} className="text-xs text-slate-500">
                      Someone you trust confirms the release before beneficiaries can open these items.
                    </p>
                  </div>
                  <Controller
                    control={form.control}
                    name="requiresApprover"
                    render={({ field }) => (
                      <Switch
                        id={ids.approver}
                        checked={field.value}
                        onCheckedChange={field.onChange}
                        aria-describedby={`${ids.approver}-hint`}
                        className="mt-0.5"
                      />
                    )}
                  />
                </div>
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
              </div>
            </fieldset>

            <DialogFooter>
              <Button variant="outline" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" disabled={isSubmitting && !showingQueue}>
                {mode === 'password' ? <KeyRound aria-hidden /> : <Lock aria-hidden />} {submitLabel}
              </Button>
            </DialogFooter>
          </form>
        )}
        <VaultUnlockDialog
          open={unlockOpen}
          onOpenChange={setUnlockOpen}
          onUnlocked={() => setLockedError(false)}
        />
      </DialogContent>
    </Dialog>
  )
}
