import { CircleCheckBig, CreditCard, ExternalLink, TriangleAlert } from 'lucide-react'
import { useEffect, useState } from 'react'
import type { AccountSubscription } from '../../../contract/billing'
import { CONTACT_EMAIL } from '../../../contract/constants'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { usePayInvoice, useUpdatePaymentMethod } from './api'
import { ACCOUNT_TOASTS, failureText, PAYMENT_ISSUE } from './copy'
import { amountDueText, graceText, paymentActions, payFailure, payResultToast, type PayFailure } from './logic'

// A payment issue, fixed by the owner alone (0.2 · 7 of 7): change the card on Stripe's page, then
// charge the open invoice to it, or pay on Stripe's invoice page (which handles the bank's checks).

/**
 * "Update payment method": asks for Stripe's page and sends the browser there. `redirecting` stays
 * on until the page is left, so the button does not come back to life while the browser leaves.
 */
export function usePaymentMethodPage() {
  const update = useUpdatePaymentMethod()
  const { reset } = update
  // Back from Stripe's page with the browser's Back button, this page may come back as it was left
  // (the back-forward cache): the button works again.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset()
    }
    window.addEventListener('pageshow', onPageShow)
    return () => window.removeEventListener('pageshow', onPageShow)
  }, [reset])
  const start = () =>
    update.mutate(undefined, {
      onSuccess: ({ url }) => window.location.assign(url),
      onError: (error) => toast({ ...failureText(ACCOUNT_TOASTS.updateFailed, errorText(error, '')), variant: 'destructive' }),
    })
  return { start, redirecting: update.isPending || update.isSuccess }
}

export function UpdatePaymentMethodButton({
  page,
  variant = 'default',
}: {
  page: ReturnType<typeof usePaymentMethodPage>
  variant?: 'default' | 'outline'
}) {
  return (
    <Button variant={variant} onClick={page.start} disabled={page.redirecting} className="w-full sm:w-auto">
      <CreditCard aria-hidden /> {page.redirecting ? PAYMENT_ISSUE.redirecting : PAYMENT_ISSUE.updateButton}
    </Button>
  )
}

/**
 * "Pay now", owned by the page rather than by the panel: a paid invoice takes the panel away (the
 * account is read again), and the toast must still be said after it has gone.
 */
export function usePayNow(onPaid: () => void) {
  const pay = usePayInvoice()
  const [failure, setFailure] = useState<PayFailure | null>(null)
  const start = () => {
    setFailure(null)
    pay.mutate(undefined, {
      onSuccess: (result) => {
        toast(payResultToast(result.message))
        onPaid()
      },
      onError: (error) => {
        const failed = payFailure(error)
        toast(failed.toast)
        setFailure(failed.reason ? failed : null)
      },
    })
  }
  return { start, paying: pay.isPending, failure }
}

/** Stripe's page for paying the invoice, in a new tab. */
export function OpenInvoiceLink({ href }: { href: string }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex items-center gap-1 font-medium text-brand-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      {PAYMENT_ISSUE.openInvoice}
      <span className="sr-only"> (opens in a new tab)</span>
      <ExternalLink className="size-4" aria-hidden />
    </a>
  )
}

/** Back from Stripe's page with ?payment=updated: said once at the top, with the next step when something is due. */
export function PaymentUpdatedNotice({ account }: { account: AccountSubscription }) {
  const due = amountDueText(account)
  return (
    <Alert variant="success" role="status" data-testid="payment-updated">
      <CircleCheckBig aria-hidden />
      <AlertDescription>
        {PAYMENT_ISSUE.updated}
        {due && paymentActions(account).pay ? ` ${PAYMENT_ISSUE.updatedPayNext(due)}` : null}
      </AlertDescription>
    </Alert>
  )
}

/**
 * The account page's panel while a payment is in trouble: what happened, what is due, until when
 * the vault stays usable, and the steps to fix it here.
 */
export function PaymentIssuePanel({
  account,
  paymentUpdated,
  paymentPage,
  payNow,
}: {
  account: AccountSubscription
  paymentUpdated: boolean
  paymentPage: ReturnType<typeof usePaymentMethodPage>
  payNow: ReturnType<typeof usePayNow>
}) {
  const { failure } = payNow
  const actions = paymentActions(account)
  const due = amountDueText(account)
  const invoiceUrl = account.paymentDue?.hostedInvoiceUrl ?? null
  const steps = [actions.update, actions.pay].filter(Boolean).length

  return (
    <section
      aria-labelledby="payment-issue-title"
      data-testid="payment-issue"
      className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-950 shadow-sm sm:p-6"
    >
      <h2 id="payment-issue-title" className="flex items-center gap-2 text-lg font-semibold">
        <TriangleAlert className="size-5 shrink-0 text-amber-700" aria-hidden /> {PAYMENT_ISSUE.title}
      </h2>
      <div className="mt-3 grid gap-3 text-sm leading-relaxed">
        <p>{PAYMENT_ISSUE.happened}</p>
        {due && (
          <p>
            <span className="font-medium">{PAYMENT_ISSUE.amountDue}:</span>{' '}
            <span className="font-semibold tabular-nums" data-testid="amount-due">
              {due}
            </span>
          </p>
        )}
        <p data-testid="grace-text">{graceText(account)}</p>

        {steps > 0 ? (
          <>
            <p className="font-medium">{PAYMENT_ISSUE.stepsIntro}</p>
            <ol className={steps > 1 ? 'list-decimal space-y-4 pl-5 marker:font-semibold' : 'space-y-4'}>
              {actions.update && (
                <li>
                  <p>{PAYMENT_ISSUE.updateStep}</p>
                  <div className="mt-2">
                    <UpdatePaymentMethodButton page={paymentPage} variant={paymentUpdated && actions.pay ? 'outline' : 'default'} />
                  </div>
                </li>
              )}
              {actions.pay && due && (
                <li>
                  <p>{PAYMENT_ISSUE.payStep}</p>
                  <div className="mt-2">
                    <Button onClick={payNow.start} disabled={payNow.paying} className="w-full sm:w-auto">
                      {payNow.paying ? PAYMENT_ISSUE.paying : PAYMENT_ISSUE.payButton(due)}
                    </Button>
                  </div>
                </li>
              )}
            </ol>
          </>
        ) : (
          !invoiceUrl && (
            <p>
              {PAYMENT_ISSUE.noStepsHere}{' '}
              <a href={`mailto:${CONTACT_EMAIL}`} className="font-medium text-brand-700 underline-offset-4 hover:underline">
                {CONTACT_EMAIL}
              </a>
            </p>
          )
        )}

        {failure && (
          <Alert variant="destructive" data-testid="pay-failure">
            <TriangleAlert aria-hidden />
            <AlertDescription className="grid gap-1">
              <span>{failure.reason}</span>
              {failure.confirmAtBank && invoiceUrl && <span>{PAYMENT_ISSUE.bankConfirmation}</span>}
            </AlertDescription>
          </Alert>
        )}

        {actions.openInvoice && invoiceUrl && (
          <p>
            {PAYMENT_ISSUE.orOpenInvoice} <OpenInvoiceLink href={invoiceUrl} />
          </p>
        )}
      </div>
    </section>
  )
}
