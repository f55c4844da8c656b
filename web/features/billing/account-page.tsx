import { DELETION_GRACE_DAYS } from '../../../contract/account-deletion'
import { Link, useNavigate } from '@tanstack/react-router'
import { ArrowLeft, CreditCard, ExternalLink, FileText, Receipt, ShieldAlert, TriangleAlert, Wallet } from 'lucide-react'
import { useState } from 'react'
import type { AccountSubscription, BillingInvoice } from '../../../contract/billing'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardIconTitle } from '@/components/ui/card'
import { Detail } from '@/components/ui/detail'
import { Input } from '@/components/ui/input'
import { LoadError } from '@/components/ui/load-error'
import { PageSpinner, Spinner } from '@/components/ui/spinner'
import { useLogout } from '@/features/auth/api'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { cn } from '@/lib/utils'
import { useAccountSubscription, useCancelSubscription, useDeleteAccount, useInvoices, useResumeSubscription } from './api'
import { ACCOUNT_TOASTS, BILLING_HISTORY, DELETE_CONFIRMATION_WORD, failureText, KEEP_SUBSCRIPTION } from './copy'
import {
  canCancel,
  canKeepSubscription,
  canUpgrade,
  cardText,
  changePlanLabel,
  deletionConfirmed,
  formatAmount,
  formatEpochDate,
  historyBillingOff,
  invoiceAmount,
  invoiceIsPaid,
  invoiceLinkLabels,
  invoiceName,
  invoiceStatusText,
  offersPaymentUpdate,
  planTermsRows,
  planName,
  refundText,
  showsPaymentPanel,
  statusBadgeVariant,
  statusLabel,
} from './logic'
import { BillingOffNotice } from './parts'
import { PaymentIssuePanel, PaymentUpdatedNotice, UpdatePaymentMethodButton, usePaymentMethodPage, usePayNow } from './payment-issue'

// /account (seeds 000 §2 'Account Management page', §3, §4, §6, §7, §8; 0.2 · 7 of 7: a payment
// issue fixed here, and the whole billing history with its refunds).

/** `paymentUpdated`: back from Stripe's page for changing the card (?payment=updated). */
export function AccountPage({ paymentUpdated = false }: { paymentUpdated?: boolean }) {
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
    body = <AccountDetails account={account.data} paymentUpdated={paymentUpdated} />
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

function AccountDetails({ account, paymentUpdated }: { account: AccountSubscription; paymentUpdated: boolean }) {
  const navigate = useNavigate()
  // One trip to Stripe's page, whichever of its buttons started it.
  const paymentPage = usePaymentMethodPage()
  // Paid: the notice about the updated card has served its purpose.
  const payNow = usePayNow(() => {
    if (paymentUpdated) void navigate({ to: '/account', search: {}, replace: true })
  })
  return (
    <>
      {paymentUpdated && <PaymentUpdatedNotice account={account} />}
      {showsPaymentPanel(account) && (
        <PaymentIssuePanel account={account} paymentUpdated={paymentUpdated} paymentPage={paymentPage} payNow={payNow} />
      )}
      <CurrentPlan account={account} />
      <PaymentMethod account={account} paymentPage={paymentPage} />
      <BillingHistory account={account} />
      <DangerZone />
    </>
  )
}

function CurrentPlan({ account }: { account: AccountSubscription }) {
  const [confirming, setConfirming] = useState(false)
  const cancel = useCancelSubscription()
  const sub = account.subscription
  const status = sub ? statusLabel(sub.status) : 'Inactive'
  const cancelling = !!sub?.cancel_at_period_end
  const endsOn = formatEpochDate(sub?.current_period_end)
  const terms = planTermsRows(account)
  const resume = useResumeSubscription()

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
            <Badge variant={statusBadgeVariant(status)} data-testid="plan-status">
              {status}
            </Badge>
          </Detail>
          {terms && (
            <Detail label="Amount" testId="plan-amount">
              {terms.amount}
            </Detail>
          )}
          {terms && (
            <Detail label={terms.dateLabel} className={cancelling ? 'text-amber-700' : undefined} testId="next-billing">
              {terms.date}
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
            {canKeepSubscription(account) && (
              <div className="mt-3">
                <Button
                  size="sm"
                  variant="outline"
                  disabled={resume.isPending}
                  onClick={() =>
                    resume.mutate(undefined, {
                      onSuccess: ({ message }) => toast({ title: KEEP_SUBSCRIPTION.kept, description: message, variant: 'success' }),
                      onError: (error) => toast({ ...failureText(KEEP_SUBSCRIPTION.failed, errorText(error, '')), variant: 'destructive' }),
                    })
                  }
                >
                  {resume.isPending ? KEEP_SUBSCRIPTION.keeping : KEEP_SUBSCRIPTION.button}
                </Button>
              </div>
            )}
          </Alert>
        )}
        {!account.billingEnabled && <BillingOffNotice>Nothing is charged and no card is kept.</BillingOffNotice>}
        <div className="flex flex-wrap gap-3">
          {canUpgrade(account) && (
            <Button asChild>
              <Link to="/pricing">{changePlanLabel(account)}</Link>
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

function PaymentMethod({ account, paymentPage }: { account: AccountSubscription; paymentPage: ReturnType<typeof usePaymentMethodPage> }) {
  const source = account.customer?.default_source ?? null
  const card = source ? cardText(source) : null
  return (
    <Card>
      <CardHeader>
        <CardIconTitle icon={CreditCard}>Payment Method</CardIconTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {card ? (
          <p className="text-slate-900">
            <span className="font-medium">{card.label}</span> <span className="text-sm text-slate-600">{card.expiry}</span>
          </p>
        ) : account.billingEnabled ? (
          <p className="text-sm text-slate-600">No payment method on file</p>
        ) : (
          <BillingOffNotice />
        )}
        {offersPaymentUpdate(account) && (
          <div>
            <UpdatePaymentMethodButton page={paymentPage} variant="outline" />
          </div>
        )}
      </CardContent>
    </Card>
  )
}

function BillingHistory({ account }: { account: AccountSubscription }) {
  const history = useInvoices(account.billingEnabled)
  const billingOff = historyBillingOff(account, history.data?.pages[0])
  const invoices = history.data?.pages.flatMap((page) => page.invoices) ?? []

  const showMore = () =>
    void history.fetchNextPage().then((result) => {
      if (result.isError) toast({ ...failureText(BILLING_HISTORY.moreFailed, errorText(result.error, '')), variant: 'destructive' })
    })

  let content
  if (billingOff) content = <p className="text-sm text-slate-600">{BILLING_HISTORY.billingOff}</p>
  else if (history.isPending) content = <Spinner label="Loading invoices" />
  else if (history.isError && invoices.length === 0) {
    content = (
      <LoadError
        title={BILLING_HISTORY.loadError.title}
        message={errorText(history.error, BILLING_HISTORY.loadError.description)}
        onRetry={() => void history.refetch()}
        retrying={history.isFetching}
      />
    )
  } else if (invoices.length === 0) content = <p className="text-sm text-slate-600">{BILLING_HISTORY.none}</p>
  else {
    content = (
      <div className="grid gap-4">
        <ul className="divide-y divide-slate-100" data-testid="invoice-list">
          {invoices.map((invoice) => (
            <InvoiceRow key={invoice.id} invoice={invoice} />
          ))}
        </ul>
        {history.hasNextPage && (
          <div>
            <Button variant="outline" onClick={showMore} disabled={history.isFetchingNextPage} className="w-full sm:w-auto">
              {history.isFetchingNextPage ? BILLING_HISTORY.loadingMore : BILLING_HISTORY.showMore}
            </Button>
          </div>
        )}
      </div>
    )
  }

  return (
    <Card>
      <CardHeader>
        <CardIconTitle icon={Receipt}>Billing History</CardIconTitle>
        {!billingOff && <CardDescription>{BILLING_HISTORY.description}</CardDescription>}
      </CardHeader>
      <CardContent>{content}</CardContent>
    </Card>
  )
}

const linkClass =
  'inline-flex items-center gap-1 text-sm font-medium text-brand-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600'

/** One invoice: date, number, status (green dot when paid, red otherwise), amount, its links and refunds. */
function InvoiceRow({ invoice }: { invoice: BillingInvoice }) {
  const paid = invoiceIsPaid(invoice.status)
  const labels = invoiceLinkLabels(invoice)
  return (
    <li className="grid gap-2 py-3" data-testid="invoice">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <div className="flex min-w-0 items-center gap-3">
          <span className={cn('size-2.5 shrink-0 rounded-full', paid ? 'bg-emerald-500' : 'bg-red-500')} aria-hidden data-testid="invoice-dot" data-paid={paid} />
          <div className="min-w-0">
            <p className="text-sm font-medium text-slate-900">{formatEpochDate(invoice.created)}</p>
            <p className="truncate text-xs text-slate-600">
              {invoice.number ? `Invoice ${invoice.number} · ` : ''}
              {invoiceStatusText(invoice.status)}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
          <span className="text-sm font-medium tabular-nums text-slate-900">{formatAmount(invoiceAmount(invoice))}</span>
          {invoice.hosted_invoice_url && (
            <a href={invoice.hosted_invoice_url} target="_blank" rel="noopener noreferrer" aria-label={labels.view} className={linkClass}>
              <ExternalLink className="size-4" aria-hidden /> View invoice
            </a>
          )}
          {invoice.invoice_pdf && (
            <a href={invoice.invoice_pdf} target="_blank" rel="noopener noreferrer" aria-label={labels.pdf} className={linkClass}>
              <FileText className="size-4" aria-hidden /> PDF
            </a>
          )}
          {invoice.receipt_url && (
            <a href={invoice.receipt_url} target="_blank" rel="noopener noreferrer" aria-label={labels.receipt} className={linkClass}>
              <Receipt className="size-4" aria-hidden /> Receipt
            </a>
          )}
        </div>
      </div>
      {invoice.refunds.length > 0 && (
        <ul className="grid gap-1 pl-5.5 text-sm text-slate-700" aria-label={`Refunds of the ${invoiceName(invoice)}`}>
          {invoice.refunds.map((refund) => (
            <li key={refund.id}>{refundText(refund)}</li>
          ))}
        </ul>
      )}
    </li>
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
    if (!deletionConfirmed(typed)) {
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
          Deleting your account removes your vault, beneficiaries, triggers and subscription for good. You have {DELETION_GRACE_DAYS} days to change your mind; after that it cannot be undone.
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
              Your encrypted vault, beneficiaries, triggers and subscription are deleted permanently in {DELETION_GRACE_DAYS} days. Until then your account is frozen: nothing changes and no release starts, and signing in lets you keep it. Every device is signed out now.
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
