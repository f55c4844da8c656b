import { Link } from '@tanstack/react-router'
import { ArrowLeft, CreditCard, FileText, Receipt, ShieldAlert, TriangleAlert, Wallet } from 'lucide-react'
import { useState } from 'react'
import type { AccountSubscription } from '../../../contract/billing'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardIconTitle } from '@/components/ui/card'
import { Detail } from '@/components/ui/detail'
import { Input } from '@/components/ui/input'
import { LoadError } from '@/components/ui/load-error'
import { PageSpinner } from '@/components/ui/spinner'
import { useLogout } from '@/features/auth/api'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { cn } from '@/lib/utils'
import { useAccountSubscription, useCancelSubscription, useDeleteAccount } from './api'
import { ACCOUNT_TOASTS, DELETE_CONFIRMATION_WORD, failureText } from './copy'
import {
  canCancel,
  canUpgrade,
  cardText,
  formatAmount,
  formatEpochDate,
  invoiceIsPaid,
  nextBillingText,
  planName,
  recentInvoices,
  statusLabel,
} from './logic'
import { BillingOffNotice } from './parts'

// /account (seeds 000 §2 'Account Management page', §3, §4, §6, §7, §8).

export function AccountPage() {
  const account = useAccountSubscription()

  let body
  if (account.isPending) body = <PageSpinner />
  else if (account.isError || !account.data) {
    body = (
      <LoadError
        title={ACCOUNT_TOASTS.loadError.title}
        message={ACCOUNT_TOASTS.loadError.description}
        onRetry={() => void account.refetch()}
        retrying={account.isFetching}
      />
    )
  } else {
    body = (
      <>
        <CurrentPlan account={account.data} />
        <PaymentMethod account={account.data} />
        <BillingHistory account={account.data} />
        <DangerZone />
      </>
    )
  }

  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">Account &amp; Billing</h1>
        <Button asChild variant="ghost">
          <Link to="/dashboard">
            <ArrowLeft aria-hidden /> Back to Dashboard
          </Link>
        </Button>
      </div>
      {body}
    </div>
  )
}

function CurrentPlan({ account }: { account: AccountSubscription }) {
  const [confirming, setConfirming] = useState(false)
  const cancel = useCancelSubscription()
  const sub = account.subscription
  const status = sub ? statusLabel(sub.status) : 'Inactive'
  const cancelling = !!sub?.cancel_at_period_end
  const endsOn = formatEpochDate(sub?.current_period_end)

  const onCancel = () =>
    cancel.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false)
        toast({ ...ACCOUNT_TOASTS.cancelled, variant: 'success' })
      },
      onError: (error) => {
        setConfirming(false)
        toast({ ...failureText(ACCOUNT_TOASTS.cancelFailed, errorText(error, '')), variant: 'destructive' })
      },
    })

  return (
    <Card>
      <CardHeader>
        <CardIconTitle icon={Wallet}>Current Plan</CardIconTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-3 sm:grid-cols-2">
          <Detail label="Plan" className="text-lg font-semibold" testId="plan-name">
            {planName(account.planTier)}
          </Detail>
          <Detail label="Status">
            <Badge variant={status === 'Inactive' ? 'destructive' : 'success'} data-testid="plan-status">
              {status}
            </Badge>
          </Detail>
          {sub && (
            <Detail label="Amount">
              {formatAmount(sub.plan.amount)}/{sub.plan.interval}
            </Detail>
          )}
          {sub && (
            <Detail label="Next billing date" className={cancelling ? 'text-amber-700' : undefined} testId="next-billing">
              {nextBillingText(sub)}
            </Detail>
          )}
        </dl>
        {cancelling && (
          <Alert variant="warning" data-testid="cancel-notice">
            <TriangleAlert aria-hidden />
            <AlertTitle>Subscription cancelled</AlertTitle>
            <AlertDescription>
              Your subscription will not renew. You keep full access until {endsOn ?? 'the end of the current billing period'}.
            </AlertDescription>
          </Alert>
        )}
        {account.paymentGraceUntil && (
          <Alert variant="warning">
            <TriangleAlert aria-hidden />
            <AlertTitle>Payment issue</AlertTitle>
            <AlertDescription>
              Your vault stays fully accessible until {new Date(account.paymentGraceUntil).toLocaleDateString('en-US', { dateStyle: 'long' })}. Update
              your payment method to keep it that way.
            </AlertDescription>
          </Alert>
        )}
        {!account.billingEnabled && <BillingOffNotice>Nothing is charged and no card is kept.</BillingOffNotice>}
        <div className="flex flex-wrap gap-3">
          {canUpgrade(account) && (
            <Button asChild>
              <Link to="/pricing">Upgrade Plan</Link>
            </Button>
          )}
          {canCancel(account) && (
            <Button variant="outline" className="text-red-700" onClick={() => setConfirming(true)}>
              Cancel Subscription
            </Button>
          )}
        </div>
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Cancel your subscription?"
        description={`You keep access until the end of the current billing period${endsOn ? ` (${endsOn})` : ''}. After that your plan ends and your vault needs a new subscription.`}
        confirmLabel={cancel.isPending ? 'Cancelling...' : 'Cancel Subscription'}
        onConfirm={onCancel}
        pending={cancel.isPending}
      />
    </Card>
  )
}

function PaymentMethod({ account }: { account: AccountSubscription }) {
  const source = account.customer?.default_source ?? null
  const card = source ? cardText(source) : null
  return (
    <Card>
      <CardHeader>
        <CardIconTitle icon={CreditCard}>Payment Method</CardIconTitle>
      </CardHeader>
      <CardContent>
        {card ? (
          <p className="text-slate-900">
            <span className="font-medium">{card.label}</span> <span className="text-sm text-slate-600">{card.expiry}</span>
          </p>
        ) : account.billingEnabled ? (
          <p className="text-sm text-slate-600">No payment method on file</p>
        ) : (
          <BillingOffNotice />
        )}
      </CardContent>
    </Card>
  )
}

function BillingHistory({ account }: { account: AccountSubscription }) {
  const invoices = recentInvoices(account.invoices)
  return (
    <Card>
      <CardHeader>
        <CardIconTitle icon={Receipt}>Billing History</CardIconTitle>
        <CardDescription>Your five most recent invoices.</CardDescription>
      </CardHeader>
      <CardContent>
        {invoices.length === 0 ? (
          <p className="text-sm text-slate-600">
            No invoices yet.{!account.billingEnabled && ' This server takes no payments, so none are issued.'}
          </p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {invoices.map((invoice) => {
              const paid = invoiceIsPaid(invoice.status)
              return (
                <li key={invoice.id} className="flex items-center justify-between gap-4 py-3">
                  <span className="flex items-center gap-3">
                    <span
                      className={cn('size-2.5 rounded-full', paid ? 'bg-emerald-500' : 'bg-red-500')}
                      role="img"
                      aria-label={paid ? 'Paid' : `Not paid (${invoice.status})`}
                    />
                    <span className="text-sm text-slate-900">{formatEpochDate(invoice.created)}</span>
                  </span>
                  <span className="flex items-center gap-4">
                    <span className="text-sm font-medium tabular-nums text-slate-900">{formatAmount(invoice.amount_paid)}</span>
                    {invoice.invoice_pdf && (
                      <a
                        href={invoice.invoice_pdf}
                        target="_blank"
                        rel="noopener noreferrer"
                        className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
                      >
                        <FileText className="size-4" aria-hidden /> PDF
                      </a>
                    )}
                  </span>
                </li>
              )
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

function DangerZone() {
  const [open, setOpen] = useState(false)
  const [typed, setTyped] = useState('')
  const [mismatch, setMismatch] = useState(false)
  const remove = useDeleteAccount()
  const logout = useLogout()

  const onOpenChange = (next: boolean) => {
    setOpen(next)
    if (!next) {
      setTyped('')
      setMismatch(false)
    }
  }

  const onConfirm = () => {
    if (typed.trim() !== DELETE_CONFIRMATION_WORD) {
      setMismatch(true)
      return
    }
    remove.mutate(undefined, {
      onSuccess: () => {
        toast({ ...ACCOUNT_TOASTS.deleted, variant: 'success' })
        setOpen(false)
        // Local sign-out (token, vault keys, cached data) and home; the server has ended the session.
        logout.mutate()
      },
      onError: (error) =>
        toast({ ...failureText(ACCOUNT_TOASTS.deleteFailed, errorText(error, '')), variant: 'destructive' }),
    })
  }

  return (
    <Card className="border-red-200">
      <CardHeader>
        <CardIconTitle icon={ShieldAlert} iconClassName="text-current" className="text-red-700">Danger Zone</CardIconTitle>
        <CardDescription>
          Deleting your account removes your vault, beneficiaries, triggers and subscription for good. It cannot be undone.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" onClick={() => onOpenChange(true)}>
          Delete Account
        </Button>
      </CardContent>
      <ConfirmDialog
        open={open}
        onOpenChange={onOpenChange}
        title="Delete your account?"
        description={
          <>
            <span className="block">
              This cannot be undone. Your encrypted vault, beneficiaries, triggers and subscription are deleted permanently.
            </span>
            <label className="mt-4 block font-medium text-slate-800" htmlFor="delete-confirmation">
              Type {DELETE_CONFIRMATION_WORD} to confirm
            </label>
            <Input
              id="delete-confirmation"
              className="mt-1.5"
              autoComplete="off"
              spellCheck={false}
              value={typed}
              aria-invalid={mismatch}
              onChange={(e) => {
                setTyped(e.target.value)
                setMismatch(false)
              }}
            />
            {mismatch && (
              <span role="alert" className="mt-1 block text-red-600">
                Type {DELETE_CONFIRMATION_WORD} in capitals to confirm.
              </span>
            )}
          </>
        }
        confirmLabel={remove.isPending ? 'Deleting...' : 'Delete Account'}
        onConfirm={onConfirm}
        pending={remove.isPending || logout.isPending}
      />
    </Card>
  )
}
