import { CalendarPlus, MoreHorizontal, Pause, Play, Receipt, Search, Trash2 } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import type { AdminUser } from '../../../contract/admin'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import { InputField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Spinner } from '@/components/ui/spinner'
import { useBillingConfig } from '@/features/billing/api'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { formatBytes } from '@/lib/format-bytes'
import { useDebounced } from '@/lib/use-debounced'
import { useAdminDashboard, useAdminUsers, useDeleteUser, useExtendUser, useIssueRefund, usePauseUser, useResumeUser } from './api'
import {
  ADMIN_COPY,
  checkDays,
  checkReason,
  checkRefundDollars,
  deleteFailureOutcome,
  formatDate,
  formatDollars,
  isPaused,
  SEARCH_DEBOUNCE_MS,
  shownUsersText,
  statusVariant,
  userRowActions,
  userStatus,
} from './logic'
import { EmptyState, QueryState, ScrollTable, Td, Th } from './parts'

type Act = { kind: 'pause' | 'extend' | 'refund' | 'delete'; user: AdminUser } | null

export function UsersTab() {
  const [search, setSearch] = useState('')
  const settled = useDebounced(search, SEARCH_DEBOUNCE_MS)
  const users = useAdminUsers(settled)
  const total = useAdminDashboard().data?.totalUsers
  // Refunds return Stripe payments: without billing there is nothing to refund.
  const billingEnabled = useBillingConfig().data?.billingEnabled === true
  const [act, setAct] = useState<Act>(null)
  const resume = useResumeUser()
  const close = () => setAct(null)

  const onResume = (user: AdminUser) =>
    resume.mutate(
      { id: user.id },
      {
        onSuccess: () => toast({ title: 'Account resumed', description: `${user.email} can sign in again.`, variant: 'success' }),
        onError: (error) => toast({ title: 'Resume failed', description: errorText(error, 'The account could not be resumed.'), variant: 'destructive' }),
      },
    )

  return (
    <div className="grid gap-4">
      <div className="relative max-w-md">
        <label htmlFor="admin-user-search" className="sr-only">
          Search users
        </label>
        <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden />
        <Input
          id="admin-user-search"
          type="search"
          className="pl-9"
          placeholder="Start of an email or name"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      <QueryState query={users} label="users">
        {() => {
          const shown = users.data?.pages.flatMap((page) => page.users) ?? []
          const searched = settled.trim() !== ''
          if (shown.length === 0) return <EmptyState>{searched ? 'No users match your search.' : 'No users yet.'}</EmptyState>
          const summary = shownUsersText(shown.length, searched ? null : (total ?? null), users.hasNextPage)
          return (
            <div className="grid gap-3" aria-busy={users.isFetching}>
              <ScrollTable label="Users">
                <caption className="sr-only">Users ({summary})</caption>
                <thead>
                  <tr>
                    <Th>Email</Th>
                    <Th>Plan</Th>
                    <Th>Status</Th>
                    <Th>Storage</Th>
                    <Th>Items</Th>
                    <Th>Created</Th>
                    {/* Kept in view at the card's right edge while the rest scrolls sideways (a phone). */}
                    <Th className="sticky right-0 shadow-[-1px_0_0_var(--color-slate-200)]">Actions</Th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((user) => {
                    const status = userStatus(user)
                    const paused = isPaused(user)
                    const actions = userRowActions(user, billingEnabled)
                    return (
                      <tr key={user.id} data-testid="admin-user-row">
                        <Td>
                          <div className="font-medium break-all">{user.email}</div>
                          {user.displayName && <div className="text-xs text-slate-500">{user.displayName}</div>}
                        </Td>
                        <Td className="capitalize">{user.planTier}</Td>
                        <Td>
                          <Badge data-testid="user-status" variant={statusVariant(status)} title={paused && user.pauseReason ? `Reason: ${user.pauseReason}` : undefined}>
                            {status}
                          </Badge>
                        </Td>
                        <Td className="tabular-nums whitespace-nowrap" data-testid="user-storage">
                          {formatBytes(user.storageUsed)}
                        </Td>
                        <Td className="tabular-nums">{user.vaultItemCount}</Td>
                        <Td className="whitespace-nowrap">{formatDate(user.createdAt)}</Td>
                        <Td className="sticky right-0 bg-white shadow-[-1px_0_0_var(--color-slate-200)]">
                          {!actions ? (
                            // An administrator is not a customer: nothing to pause, extend, refund or delete here.
                            <span className="text-xs text-slate-500">Administrator account</span>
                          ) : (
                            <DropdownMenu>
                              <DropdownMenuTrigger asChild>
                                <Button size="sm" variant="outline" aria-label={`Actions for ${user.email}`}>
                                  <MoreHorizontal aria-hidden /> <span className="hidden sm:inline">Actions</span>
                                </Button>
                              </DropdownMenuTrigger>
                              <DropdownMenuContent align="end">
                                {actions.resume ? (
                                  <DropdownMenuItem onSelect={() => onResume(user)} disabled={resume.isPending}>
                                    <Play aria-hidden /> Resume
                                  </DropdownMenuItem>
                                ) : (
                                  <DropdownMenuItem onSelect={() => setAct({ kind: 'pause', user })}>
                                    <Pause aria-hidden /> Pause
                                  </DropdownMenuItem>
                                )}
                                <DropdownMenuItem onSelect={() => setAct({ kind: 'extend', user })}>
                                  <CalendarPlus aria-hidden /> Extend
                                </DropdownMenuItem>
                                {actions.refund && (
                                  <DropdownMenuItem onSelect={() => setAct({ kind: 'refund', user })}>
                                    <Receipt aria-hidden /> Refund
                                  </DropdownMenuItem>
                                )}
                                <DropdownMenuSeparator />
                                <DropdownMenuItem className="text-red-700" onSelect={() => setAct({ kind: 'delete', user })}>
                                  <Trash2 aria-hidden /> Delete
                                </DropdownMenuItem>
                              </DropdownMenuContent>
                            </DropdownMenu>
                          )}
                        </Td>
                      </tr>
                    )
                  })}
                </tbody>
              </ScrollTable>
              <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600">
                <p data-testid="admin-users-shown">{summary}</p>
                {users.hasNextPage && (
                  <Button variant="outline" onClick={() => users.fetchNextPage()} disabled={users.isFetchingNextPage}>
                    {users.isFetchingNextPage ? <Spinner label="Loading more users" /> : null} Load more
                  </Button>
                )}
              </div>
            </div>
          )
        }}
      </QueryState>
      {act?.kind === 'pause' && <PauseDialog user={act.user} onClose={close} />}
      {act?.kind === 'extend' && <ExtendDialog user={act.user} onClose={close} />}
      {act?.kind === 'refund' && <RefundDialog user={act.user} onClose={close} />}
      {act?.kind === 'delete' && <DeleteUserDialog user={act.user} onClose={close} />}
    </div>
  )
}

/** One text field, validated on submit, in a dialog. */
function PromptDialog({
  title,
  description,
  label,
  inputMode,
  submitLabel,
  pending,
  error,
  onSubmit,
  onClose,
  destructive,
}: {
  title: string
  description: string
  label: string
  inputMode?: 'text' | 'numeric' | 'decimal'
  submitLabel: string
  pending: boolean
  error: string | undefined
  onSubmit: (value: string) => void
  onClose: () => void
  destructive?: boolean
}) {
  const [value, setValue] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSubmit(value)
  }
  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <InputField label={label} value={value} onChange={(e) => setValue(e.target.value)} inputMode={inputMode} error={error} autoFocus autoComplete="off" />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={pending}>
              {pending ? 'Working...' : submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

function PauseDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const pause = usePauseUser()
  const [error, setError] = useState<string>()
  return (
    <PromptDialog
      title="Pause account"
      description={`${user.email} will not be able to sign in until the account is resumed.`}
      label="Reason"
      submitLabel="Pause Account"
      pending={pause.isPending}
      error={error}
      onClose={onClose}
      onSubmit={(value) => {
        const checked = checkReason(value)
        if (!checked.ok) return setError(checked.error)
        setError(undefined)
        pause.mutate(
          { id: user.id, reason: checked.value },
          {
            onSuccess: () => {
              toast({ title: 'Account paused', description: `${user.email} has been paused.`, variant: 'success' })
              onClose()
            },
            onError: (e) => setError(errorText(e, 'The account could not be paused.')),
          },
        )
      }}
    />
  )
}

function ExtendDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const extend = useExtendUser()
  const [error, setError] = useState<string>()
  return (
    <PromptDialog
      title="Extend subscription"
      description={`Add days to the subscription of ${user.email}${user.subscriptionPeriodEnd ? ` (now ends ${formatDate(user.subscriptionPeriodEnd)})` : ''}.`}
      label="Days"
      inputMode="numeric"
      submitLabel="Extend"
      pending={extend.isPending}
      error={error}
      onClose={onClose}
      onSubmit={(value) => {
        const checked = checkDays(value)
        if (!checked.ok) return setError(checked.error)
        setError(undefined)
        extend.mutate(
          { id: user.id, days: checked.value },
          {
            onSuccess: () => {
              toast({ title: 'Subscription extended', description: `${user.email}: ${checked.value} more days.`, variant: 'success' })
              onClose()
            },
            onError: (e) => setError(errorText(e, 'The subscription could not be extended.')),
          },
        )
      }}
    />
  )
}

function RefundDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const refund = useIssueRefund()
  const [amount, setAmount] = useState('')
  const [reason, setReason] = useState('')
  const [errors, setErrors] = useState<{ amount?: string; reason?: string; server?: string }>({})
  const [confirming, setConfirming] = useState<{ amount: number; reason: string } | null>(null)

  const review = (event: FormEvent) => {
    event.preventDefault()
    const a = checkRefundDollars(amount)
    const r = checkReason(reason)
    setErrors({ amount: a.ok ? undefined : a.error, reason: r.ok ? undefined : r.error })
    if (a.ok && r.ok) setConfirming({ amount: a.value, reason: r.value })
  }
  const issue = () => {
    if (!confirming) return
    refund.mutate(
      { userId: user.id, amount: confirming.amount, reason: confirming.reason },
      {
        onSuccess: () => {
          toast({ title: 'Refund issued', description: `${formatDollars(Math.round(confirming.amount * 100))} to ${user.email}.`, variant: 'success' })
          onClose()
        },
        onError: (e) => {
          setConfirming(null)
          setErrors({ server: errorText(e, 'The refund could not be issued.') })
        },
      },
    )
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !refund.isPending && onClose()}>
      <DialogContent>
        {confirming ? (
          <div className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Confirm refund</DialogTitle>
              <DialogDescription>Check the account before the money is returned.</DialogDescription>
            </DialogHeader>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="refund-confirmation">
              <dt className="text-slate-500">Email</dt>
              <dd className="break-all font-medium">{user.email}</dd>
              <dt className="text-slate-500">Plan</dt>
              <dd className="capitalize">{user.planTier || 'free'}</dd>
              <dt className="text-slate-500">Storage used</dt>
              <dd>{formatBytes(user.storageUsed)}</dd>
              <dt className="text-slate-500">Amount</dt>
              <dd className="font-semibold">{formatDollars(Math.round(confirming.amount * 100))}</dd>
              <dt className="text-slate-500">Reason</dt>
              <dd className="break-words">{confirming.reason}</dd>
            </dl>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setConfirming(null)} disabled={refund.isPending}>
                Back
              </Button>
              <Button type="button" onClick={issue} disabled={refund.isPending}>
                {refund.isPending ? 'Issuing...' : 'Issue Refund'}
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={review} className="grid gap-4" noValidate>
            <DialogHeader>
              <DialogTitle>Issue refund</DialogTitle>
              <DialogDescription>Refund {user.email}. The amount is in dollars, for example 12.34.</DialogDescription>
            </DialogHeader>
            {errors.server && (
              <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
                {errors.server}
              </p>
            )}
            <InputField label="Amount (USD)" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} error={errors.amount} autoFocus autoComplete="off" />
            <InputField label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} error={errors.reason} autoComplete="off" />
            <DialogFooter>
              <Button type="button" variant="outline" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit">Review Refund</Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  )
}

function DeleteUserDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const del = useDeleteUser()
  const done = (email: string) => {
    toast({ title: 'Account deleted', description: `${email} has been deleted.`, variant: 'success' })
    onClose()
  }
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && !del.isPending && onClose()}
      title="Delete user account"
      description={`Delete ${user.email} with their vault, beneficiaries and triggers? ${ADMIN_COPY.deleteCannotBeUndone}`}
      confirmLabel={del.isPending ? 'Deleting...' : 'Delete Account'}
      pending={del.isPending}
      onConfirm={() =>
        del.mutate(
          { id: user.id },
          {
            onSuccess: (data) => done(data?.deletedUserEmail || user.email),
            onError: (error) => {
              const outcome = deleteFailureOutcome(error)
              if (outcome.success) return done(user.email)
              toast({ title: 'Delete failed', description: outcome.message, variant: 'destructive' })
              onClose()
            },
          },
        )
      }
    />
  )
}
