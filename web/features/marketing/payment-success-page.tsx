import { useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { ArrowRight, CircleCheckBig } from 'lucide-react'
import { useEffect } from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader } from '@/components/ui/card'
import { currentUserKey } from '@/features/auth/api'
import { useBillingConfig } from '@/features/billing/api'
import { BillingOffNotice } from '@/features/billing/billing-off-notice'
import { SimpleHeader } from './components/simple-header'

/**
 * /payment-success (seeds 000 §2): where the payment provider returns after a confirmation that
 * needed a redirect. The payment_intent parameter is only logged; activation itself is the billing
 * side's business, not this page's.
 */
export function PaymentSuccessPage({ paymentIntent }: { paymentIntent?: string }) {
  const queryClient = useQueryClient()
  const { data: config } = useBillingConfig()
  // Opened directly on a server without billing: nothing was paid, and the page says so.
  const billingOff = config?.billingEnabled === false && !paymentIntent

  useEffect(() => {
    if (paymentIntent) console.info('Payment completed', { paymentIntent })
  }, [paymentIntent])

  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-b from-brand-50 to-slate-50">
      <SimpleHeader />
      <main id="main" className="flex flex-1 items-center justify-center px-4 py-12 sm:px-6">
        <Card className="w-full max-w-lg text-center">
          <CardHeader className="items-center pt-10">
            <span className="flex size-16 items-center justify-center rounded-full bg-emerald-100 text-emerald-700">
              <CircleCheckBig className="size-9" aria-hidden />
            </span>
            <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">Payment Successful!</h1>
          </CardHeader>
          <CardContent className="space-y-6 pb-10">
            {billingOff ? (
              <BillingOffNotice className="text-left">No payment was taken: plans chosen here are active at once.</BillingOffNotice>
            ) : (
              <p className="leading-relaxed text-slate-600">
                Thank you. Your payment went through and your subscription is being activated. It can take a few moments
                for your plan to show in your account.
              </p>
            )}
            <Button asChild size="lg" className="w-full sm:w-auto">
              {/* The cached account predates the payment: fetch it afresh on the way in. */}
              <Link to="/dashboard" onClick={() => void queryClient.invalidateQueries({ queryKey: currentUserKey })}>
                Continue to Dashboard <ArrowRight aria-hidden />
              </Link>
            </Button>
          </CardContent>
        </Card>
      </main>
    </div>
  )
}
