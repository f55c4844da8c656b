import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js'
import type { Stripe } from '@stripe/stripe-js'
import { loadStripe } from '@stripe/stripe-js/pure'
import { useState, type FormEvent, type ReactNode } from 'react'
import { Button } from '@/components/ui/button'

// The card form (Stripe's Payment Element), for a server whose billing provider answers with a
// client secret. Loaded lazily: a server without billing never downloads it, and the `pure` entry
// fetches Stripe.js only when a form is actually shown.

const stripes = new Map<string, Promise<Stripe | null>>()
function stripeFor(publishableKey: string) {
  let stripe = stripes.get(publishableKey)
  if (!stripe) {
    stripe = loadStripe(publishableKey)
    stripes.set(publishableKey, stripe)
  }
  return stripe
}

export interface PaymentFormProps {
  publishableKey: string
  clientSecret: string
  /** Where the provider returns after a confirmation that needed a redirect (an absolute URL). */
  returnUrl: string
  submitLabel: string
  /** Confirmed without a redirect. */
  onPaid: () => void
  /** The provider refused (its message, if any). */
  onFailed: (message: string | undefined) => void
  /** Anything else went wrong. */
  onUnexpected: () => void
  /** Buttons beside the submit button (e.g. a back link). */
  secondary?: ReactNode
}

export default function PaymentForm(props: PaymentFormProps) {
  return (
    <Elements stripe={stripeFor(props.publishableKey)} options={{ clientSecret: props.clientSecret }}>
      <ConfirmForm {...props} />
    </Elements>
  )
}

function ConfirmForm({ clientSecret, returnUrl, submitLabel, onPaid, onFailed, onUnexpected, secondary }: PaymentFormProps) {
  const stripe = useStripe()
  const elements = useElements()
  const [ready, setReady] = useState(false)
  const [busy, setBusy] = useState(false)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    // Submission waits for the payment elements (seeds 000 §5).
    if (!stripe || !elements || !ready) return
    setBusy(true)
    try {
      const confirmParams = { return_url: returnUrl }
      // A free first period saves the card through a SetupIntent instead of charging it.
      const result = clientSecret.startsWith('seti_')
        ? await stripe.confirmSetup({ elements, confirmParams, redirect: 'if_required' })
        : await stripe.confirmPayment({ elements, confirmParams, redirect: 'if_required' })
      if (result.error) onFailed(result.error.message)
      else onPaid()
    } catch {
      onUnexpected()
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-6">
      <PaymentElement onReady={() => setReady(true)} />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        {secondary}
        <Button type="submit" size="lg" disabled={!stripe || !elements || !ready || busy}>
          {busy ? 'Processing...' : submitLabel}
        </Button>
      </div>
    </form>
  )
}
