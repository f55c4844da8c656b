import { zodResolver } from '@hookform/resolvers/zod'
import { EllipsisVertical, Mail, ShieldCheck, Trash2, UserCheck, UserPlus } from 'lucide-react'
import { useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
import type { z } from 'zod'
import { APPROVER_FORM_DEFAULTS, approverFormSchema, type Approver, type ApproverForm } from '../../../contract/circle'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { LoadError } from '@/components/ui/load-error'
import { InputField } from '@/components/ui/form-field'
import { Spinner } from '@/components/ui/spinner'
import { errorText } from '@/lib/api-client'
import { useApprovers, useCreateApprover, useDeleteApprover, useResendApproverVerification } from './api'
import { APPROVER_COPY, CIRCLE_TOASTS, emailNotSentText, emailSentText, invitationHeldText, invitationOutcomeText } from './copy'
import { toastFailure, toastSuccess } from './notify'
import { SwitchField } from './switch-field'

type FormOutput = z.output<typeof approverFormSchema>

function AddApproverDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateApprover()
  const form = useForm<ApproverForm, unknown, FormOutput>({
    resolver: zodResolver(approverFormSchema),
    defaultValues: APPROVER_FORM_DEFAULTS,
  })
  const { errors } = form.formState

  function setOpen(next: boolean) {
    if (create.isPending) return
    if (!next) form.reset(APPROVER_FORM_DEFAULTS)
    onOpenChange(next)
  }

  const onSubmit = form.handleSubmit((values) =>
    create.mutate(values, {
      onSuccess: (approver) => {
        toastSuccess(
          CIRCLE_TOASTS.approverAdded,
          invitationOutcomeText(approver, APPROVER_COPY.noEmail(approver.fullName)),
        )
        form.reset(APPROVER_FORM_DEFAULTS)
        onOpenChange(false)
      },
      onError: (error) => toastFailure(CIRCLE_TOASTS.addApproverFailed, error),
    }),
  )

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add Approver</DialogTitle>
          <DialogDescription>
            An approver is someone you trust, such as a lawyer, executor or close friend, who reviews your beneficiaries’
            identity documents and confirms releases when a policy asks for it.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <InputField label="Full name" error={errors.fullName?.message} autoComplete="off" {...form.register('fullName')} />
          <InputField label="Email" error={errors.email?.message} type="email" autoComplete="off" {...form.register('email')} />
          <InputField label="Role" error={errors.role?.message} placeholder="e.g. Lawyer, Executor, Family friend" {...form.register('role')} />
          <Controller
            control={form.control}
            name="sendVerificationEmail"
            render={({ field }) => (
              <SwitchField
                label="Send verification e-mail"
                hint="E-mails a link so they can confirm this address is theirs."
                checked={field.value ?? true}
                onCheckedChange={field.onChange}
                disabled={create.isPending}
              />
            )}
          />
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Adding...' : 'Add Approver'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

function ApproverRow({ approver: a, busy, onResend, onDelete }: { approver: Approver; busy: boolean; onResend: () => void; onDelete: () => void }) {
  return (
    <li className="flex items-start gap-3 py-4 first:pt-0 last:pb-0" data-testid="approver-row">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-700" aria-hidden>
        <UserCheck className="size-4" />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <p className="font-medium text-slate-900">{a.fullName}</p>
          <Badge variant="secondary">{a.role}</Badge>
          {a.verified ? (
            <Badge variant="success">Verified</Badge>
          ) : a.invitationHeld ? (
            <Badge variant="outline" title={invitationHeldText(a.email)}>
              Invitation waiting
            </Badge>
          ) : (
            <Badge variant="warning">Pending</Badge>
          )}
        </div>
        <p className="mt-0.5 flex items-center gap-1 break-all text-sm text-slate-600">
          <Mail className="size-3.5 shrink-0 text-slate-400" aria-hidden />
          {a.email}
        </p>
      </div>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon" className="-mr-2 shrink-0" aria-label={`Actions for ${a.fullName}`} disabled={busy}>
            {busy ? <Spinner className="size-4" label="Working" /> : <EllipsisVertical aria-hidden />}
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          {!a.verified && (
            <DropdownMenuItem onSelect={onResend}>
              <Mail aria-hidden /> Resend Verification
            </DropdownMenuItem>
          )}
          <DropdownMenuItem onSelect={onDelete} className="text-red-700 focus:text-red-800">
            <Trash2 aria-hidden /> Remove
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </li>
  )
}

/** Available Approvers (seeds 001 §2): the people who check identities and confirm releases. */
export function ApproversSection() {
  const { data, isPending, isError, error, refetch, isFetching } = useApprovers()
  const remove = useDeleteApprover()
  const resend = useResendApproverVerification()
  const [adding, setAdding] = useState(false)
  const [deleting, setDeleting] = useState<Approver | null>(null)

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <h2 id="approvers-title" className="flex items-center gap-2 text-lg font-semibold leading-tight text-slate-900">
            <ShieldCheck className="size-5 text-brand-700" aria-hidden />
            Available Approvers
          </h2>
          <CardDescription>Trusted people who review identity documents and approve releases when a policy requires it.</CardDescription>
        </div>
        <Button variant="outline" onClick={() => setAdding(true)}>
          <UserPlus aria-hidden /> Add Approver
        </Button>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <div className="flex justify-center py-6">
            <Spinner label="Loading approvers" />
          </div>
        ) : isError ? (
          <LoadError title="Your approvers could not be loaded" message={errorText(error, CIRCLE_TOASTS.fallback)} onRetry={() => refetch()} retrying={isFetching} />
        ) : data.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
            No approvers yet. Add one if any of your policies should need a person to confirm a beneficiary’s identity
            before a release.
          </p>
        ) : (
          <ul className="divide-y divide-slate-200" aria-labelledby="approvers-title">
            {data.map((a) => (
              <ApproverRow
                key={a.id}
                approver={a}
                busy={resend.isPending && resend.variables === a.id}
                onResend={() =>
                  resend.mutate(a.id, {
                    onSuccess: (r) =>
                      r.verificationEmailSent
                        ? toastSuccess(CIRCLE_TOASTS.verificationSent, emailSentText(r.email))
                        : toastSuccess(CIRCLE_TOASTS.verificationNotSent, emailNotSentText),
                    onError: (e) => toastFailure(CIRCLE_TOASTS.resendFailed, e),
                  })
                }
                onDelete={() => setDeleting(a)}
              />
            ))}
          </ul>
        )}
      </CardContent>
      <AddApproverDialog open={adding} onOpenChange={setAdding} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && !remove.isPending && setDeleting(null)}
        title={`Remove ${deleting?.fullName ?? 'approver'}?`}
        description={deleting ? APPROVER_COPY.deleteText(deleting.fullName) : ''}
        confirmLabel={remove.isPending ? 'Removing...' : 'Remove'}
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleting) return
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toastSuccess(CIRCLE_TOASTS.approverRemoved, APPROVER_COPY.removed(deleting.fullName))
              setDeleting(null)
            },
            onError: (e) => toastFailure(CIRCLE_TOASTS.removeApproverFailed, e),
          })
        }}
      />
    </Card>
  )
}
