import { lazy, Suspense } from 'react'
import type { InvoicePreview } from '../../../contract/billing'
import { Spinner } from '@/components/ui/spinner'
import { cn } from '@/lib/utils'
import { invoiceSummaryLines } from './logic'
import type { PaymentFormProps } from './payment-form'

export { BillingOffNotice } from './billing-off-notice'

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
