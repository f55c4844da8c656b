import { useNavigate, Link } from '@tanstack/react-router'
import { ArrowLeft, TriangleAlert } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { BILLING_MESSAGES } from '../../../contract/billing'
import { REDIRECT_DELAY_MS } from '../../../contract/constants'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { useBillingConfig, useCreatePaymentIntent } from './api'
import { CHECKOUT_PURCHASE, CHECKOUT_TOASTS, failureText } from './copy'
import { formatAmount } from './logic'
import { BillingOffNotice, PaymentForm } from './parts'

// /checkout (seeds 000 §2 'Checkout page', §8, §9): a one-off payment of the Premium amount.

type View = { step: 'loading' } | { step: 'ready'; clientSecret: string } | { step: 'failed'; reason: string }

export function CheckoutPage() {
  const [view, setView] = useState<View>({ step: 'loading' })
  const intent = useCreatePaymentIntent()
  const config = useBillingConfig()
  const navigate = useNavigate()
  const started = useRef(false)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])

  useEffect(() => {
    if (started.current) return
    started.current = true
    intent.mutate(CHECKOUT_PURCHASE, {
      onSuccess: ({ clientSecret }) => setView({ step: 'ready', clientSecret }),
      onError: (error) => {
        toast({ ...CHECKOUT_TOASTS.setupFailed, variant: 'destructive' })
        setView({ step: 'failed', reason: errorText(error, CHECKOUT_TOASTS.setupFailed.description) })
      },
    })
  }, [intent])

  const publishableKey = config.data?.billingEnabled ? config.data.publishableKey : null
  const backToPricing = (
    <Button asChild variant="ghost">
      <Link to="/pricing">
        <ArrowLeft aria-hidden /> Back to Pricing
      </Link>
    </Button>
  )

  if (view.step === 'loading' || (view.step === 'ready' && config.isPending)) {
    return (
      <div className="flex min-h-[30vh] flex-col items-center justify-center gap-3 text-slate-700">
        <Spinner className="size-8" />
        <p>Setting up payment...</p>
      </div>
    )
  }
  if (view.step === 'failed' || !publishableKey) {
    const reason = view.step === 'failed' ? view.reason : null
    const billingOff = config.data?.billingEnabled === false || reason === BILLING_MESSAGES.billingOff
    return (
      <div className="mx-auto grid max-w-2xl gap-4">
        <h1 className="text-2xl font-bold text-slate-900">Checkout</h1>
        <Alert variant="destructive">
          <TriangleAlert aria-hidden />
          <AlertTitle>{CHECKOUT_TOASTS.initError.title}</AlertTitle>
          <AlertDescription>
            {CHECKOUT_TOASTS.initError.description}
            {reason && reason !== BILLING_MESSAGES.billingOff && <span className="mt-1 block">{reason}</span>}
          </AlertDescription>
        </Alert>
        {billingOff && <BillingOffNotice />}
        <div>{backToPricing}</div>
      </div>
    )
  }
  return (
    <div className="mx-auto max-w-2xl">
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl">Complete Your Purchase</CardTitle>
          <CardDescription>
            {CHECKOUT_PURCHASE.description}: {formatAmount(Math.round(CHECKOUT_PURCHASE.amount * 100))}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <PaymentForm
            publishableKey={publishableKey}
            clientSecret={view.clientSecret}
            returnUrl={`${window.location.origin}/dashboard`}
            submitLabel="Complete Payment"
            onPaid={() => {
              toast({ ...CHECKOUT_TOASTS.success, variant: 'success' })
              timer.current = setTimeout(() => void navigate({ to: '/dashboard' }), REDIRECT_DELAY_MS.afterPayment)
            }}
            onFailed={(message) =>
              toast({ ...failureText(CHECKOUT_TOASTS.paymentFailed, message), variant: 'destructive' })
            }
            onUnexpected={() => toast({ ...CHECKOUT_TOASTS.setupFailed, variant: 'destructive' })}
            secondary={backToPricing}
          />
        </CardContent>
      </Card>
    </div>
  )
}
