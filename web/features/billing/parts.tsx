import { Info } from 'lucide-react'
import { lazy, Suspense, type ReactNode } from 'react'
import type { InvoicePreview } from '../../../contract/billing'
import { BILLING_MESSAGES } from '../../../contract/billing'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Spinner } from '@/components/ui/spinner'
import { cn } from '@/lib/utils'
import { invoiceSummaryLines } from './logic'
import type { PaymentFormProps } from './payment-form'

const LazyPaymentForm = lazy(() => import('./payment-form'))

/** The card form, fetched only when a billing provider asks for one. */
export function PaymentForm(props: PaymentFormProps) {
  return (
    <Suspense fallback={<Spinner label="Loading payment form" />}>
      <LazyPaymentForm {...props} />
    </Suspense>
  )
}

/** Plan, base amount per period, the discount with its code, and 'Amount Due Today'. */
export function InvoiceSummary({ preview }: { preview: InvoicePreview }) {
  return (
    <section aria-labelledby="invoice-summary-title" className="rounded-lg border border-slate-200 bg-slate-50 p-4">
      <h3 id="invoice-summary-title" className="text-sm font-semibold text-slate-900">
        Invoice Summary
      </h3>
      <dl className="mt-3 grid gap-2 text-sm" data-testid="invoice-summary">
        {invoiceSummaryLines(preview).map((line) => (
          <div
            key={line.kind}
            className={cn(
              'flex items-center justify-between gap-4',
              line.kind === 'discount' && 'text-emerald-700',
              line.kind === 'total' && 'border-t border-slate-200 pt-2 text-base font-semibold text-slate-900',
            )}
          >
            <dt>{line.label}</dt>
            <dd className="tabular-nums">{line.amount}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}

/** The plain statement that this server takes no payments. */
export function BillingOffNotice({ className, children }: { className?: string; children?: ReactNode }) {
  return (
    <Alert variant="info" className={className} data-testid="billing-off">
      <Info aria-hidden />
      <AlertDescription>
        {BILLING_MESSAGES.billingOff}
        {children ? <> {children}</> : null}
      </AlertDescription>
    </Alert>
  )
}
