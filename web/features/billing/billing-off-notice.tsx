import { Info } from 'lucide-react'
import type { ReactNode } from 'react'
import { BILLING_MESSAGES } from '../../../contract/billing-constants'
import { Alert, AlertDescription } from '@/components/ui/alert'

// A file of its own: /pricing shows it, and the rest of billing's parts (the invoice summary's
// rules, the payment form's loader) are no part of a public page's download.

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
