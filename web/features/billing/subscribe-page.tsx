import { useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { ArrowLeft, ArrowRight, BadgeCheck, CircleCheckBig, CreditCard, Gift, TriangleAlert } from 'lucide-react'
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { emailField } from '../../../contract/auth'
import type { PaymentDue, SubscriptionResult } from '../../../contract/billing'
import { REDIRECT_DELAY_MS } from '../../../contract/constants'
import { PLAN_LIST, PLANS, type PaidPlan } from '../../../contract/plans'
import { PublicLayout } from '@/components/layout/public-layout'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { InputField } from '@/components/ui/form-field'
import { PageSpinner, Spinner } from '@/components/ui/spinner'
import { currentUserKey, useCurrentUser } from '@/features/auth/api'
import { toast } from '@/lib/toast-store'
import { accountSubscriptionKey, useBillingConfig, useCreateSubscription, useResumeSubscription } from './api'
import { failureText, KEEP_SUBSCRIPTION, PAYMENT_ISSUE, PLAN_CHANGE, SUBSCRIBE_PAYMENT_DUE, SUBSCRIBE_TOASTS } from './copy'
import {
  formatAmount,
  formatIsoDate,
  hasPaymentIssue,
  normalisePromo,
  pendingFromResult,
  pendingSubscriptionStore,
  promoAsTyped,
  setupFailure,
  subscribeOutcome,
  trialText,
} from './logic'
import { BillingOffNotice, InvoiceSummary, PaymentForm } from './parts'
import { UpdatePaymentMethodButton, usePaymentMethodPage } from './payment-issue'

// /subscribe?plan=… (seeds 000 §2 'Subscribe page', §4 'Subscribe flow', §5, §8).

type View =
  | { step: 'guest' }
  | { step: 'loading' }
  | { step: 'details'; result: SubscriptionResult }
  | { step: 'activated'; result: SubscriptionResult }
  | { step: 'free'; result: SubscriptionResult }
  | { step: 'no-secret' }
  | { step: 'setup-failed'; message: string }
  | { step: 'payment-due'; paymentDue: PaymentDue | null; billingEnabled: boolean }
  | { step: 'confirm-change'; result: SubscriptionResult }
  | { step: 'keep'; result: SubscriptionResult }

export function SubscribePage({ plan }: { plan?: PaidPlan }) {
  const { data: user, isPending } = useCurrentUser()
  if (isPending) return <PageSpinner />
  return (
    <PublicLayout>
      <div className="mx-auto w-full max-w-2xl px-4 py-10 sm:px-6 sm:py-14">
        {user ? (
          // A payment to fix first: the server would create nothing anyway (it answers past_due).
          hasPaymentIssue(user) ? (
            <PaymentDueFirst paymentDue={null} />
          ) : plan ? (
            <SubscribeFlow key={plan} plan={plan} signedIn />
          ) : (
            <ChoosePlan />
          )
        ) : (
          <SubscribeFlow plan={plan ?? 'basic'} signedIn={false} />
        )}
      </div>
    </PublicLayout>
  )
}

/** Timers that die with the page. */
function useTimers() {
  const timers = useRef<ReturnType<typeof setTimeout>[]>([])
  useEffect(() => () => timers.current.forEach(clearTimeout), [])
  return (fn: () => void, ms: number) => {
    timers.current.push(setTimeout(fn, ms))
  }
}

function SubscribeFlow({ plan, signedIn }: { plan: PaidPlan; signedIn: boolean }) {
  const [view, setView] = useState<View>(signedIn ? { step: 'loading' } : { step: 'guest' })
  const [guestEmail, setGuestEmail] = useState<string | undefined>(undefined)
  const create = useCreateSubscription()
  const config = useBillingConfig()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const later = useTimers()
  const started = useRef(false)
  const planName = PLANS[plan].name

  const onResult = (result: SubscriptionResult, email: string | undefined, applying: boolean, changing = false) => {
    switch (subscribeOutcome(result, { signedIn })) {
      case 'confirm-change':
        setView({ step: 'confirm-change', result })
        return
      case 'keep':
        setView({ step: 'keep', result })
        return
      case 'activated': {
        const done = changing ? PLAN_CHANGE.changed(result.invoicePreview.planName) : SUBSCRIBE_TOASTS.success(result.invoicePreview.planName)
        toast({ ...done, variant: 'success' })
        setView({ step: 'activated', result })
        // The dashboard reads the user: it must know about the new plan before it opens.
        void Promise.all([
          queryClient.invalidateQueries({ queryKey: currentUserKey }),
          queryClient.invalidateQueries({ queryKey: accountSubscriptionKey }),
        ]).finally(() => later(() => void navigate({ to: '/dashboard' }), REDIRECT_DELAY_MS.afterPayment))
        return
      }
      case 'payment':
        setView({ step: 'details', result })
        if (applying && result.invoicePreview.promoCodeApplied) toast({ title: SUBSCRIBE_TOASTS.promoApplied, variant: 'success' })
        return
      case 'free': {
        pendingSubscriptionStore.save(pendingFromResult(result, email ?? '', plan))
        const trial = trialText(result.invoicePreview)
        toast({
          title: SUBSCRIBE_TOASTS.freeActivated,
          description: [`${result.invoicePreview.planName} plan`, trial].filter(Boolean).join(' · '),
          variant: 'success',
        })
        setView({ step: 'free', result })
        later(() => void navigate({ to: '/register' }), REDIRECT_DELAY_MS.afterFreeSignup)
        return
      }
      case 'payment-due':
        setView({ step: 'payment-due', paymentDue: result.paymentDue ?? null, billingEnabled: result.billingEnabled })
        // The user's status (the app-wide banner) may be older than the server's answer.
        void queryClient.invalidateQueries({ queryKey: currentUserKey })
        return
      default:
        toast({ ...SUBSCRIBE_TOASTS.noSecret, variant: 'destructive' })
        setView({ step: 'no-secret' })
    }
  }

  const onFailure = (error: unknown, fallbackView: View | null) => {
    const failure = setupFailure(error)
    toast({ title: failure.title, description: failure.description, variant: 'destructive' })
    if (failure.kind === 'auth') later(() => void navigate({ to: '/login' }), REDIRECT_DELAY_MS.afterAuthFailure)
    setView(fallbackView ?? { step: 'setup-failed', message: failure.kind === 'other' ? failure.description : `${failure.title} - ${failure.description}` })
  }

  const request = (
    promoCode: string | undefined,
    email: string | undefined,
    applying: boolean,
    fallbackView: View | null,
    change?: { confirm: true; prorationDate: number },
  ) =>
    create.mutate(
      { plan, promoCode, email, ...change },
      { onSuccess: (result) => onResult(result, email, applying, !!change), onError: (error) => onFailure(error, fallbackView) },
    )

  // Signed in: the subscription is created as the page opens.
  useEffect(() => {
    if (!signedIn || started.current) return
    started.current = true
    request(undefined, undefined, false, null)
  }, [signedIn])

  const billingOff = config.data ? !config.data.billingEnabled : false

  switch (view.step) {
    case 'guest':
      return (
        <GuestStep
          plan={plan}
          billingOff={billingOff}
          pending={create.isPending}
          onContinue={(email, promo) => {
            setGuestEmail(email)
            request(promo, email, !!promo, { step: 'guest' })
          }}
        />
      )
    case 'loading':
      return (
        <div className="flex min-h-[30vh] flex-col items-center justify-center gap-3 text-slate-700">
          <Spinner className="size-8" />
          <p>Setting up subscription...</p>
        </div>
      )
    case 'details':
      return (
        <SubscriptionDetails
          result={view.result}
          planName={planName}
          publishableKey={config.data?.publishableKey ?? null}
          applying={create.isPending}
          onApply={(code) => request(code, guestEmail, true, view)}
          onPaid={() => {
            toast({ ...SUBSCRIBE_TOASTS.success(view.result.invoicePreview.planName), variant: 'success' })
            void queryClient.invalidateQueries({ queryKey: currentUserKey })
            later(() => void navigate({ to: signedIn ? '/dashboard' : '/register' }), REDIRECT_DELAY_MS.afterPayment)
          }}
        />
      )
    case 'activated':
      return <Activated result={view.result} />
    case 'free':
      return <FreeActivated result={view.result} />
    case 'no-secret':
      return (
        <FailureNotice title={SUBSCRIBE_TOASTS.noSecret.title} message={SUBSCRIBE_TOASTS.noSecret.description} />
      )
    case 'setup-failed':
      return <FailureNotice title={SUBSCRIBE_TOASTS.setupFailed.title} message={view.message} showAccount={signedIn} />
    case 'payment-due':
      return <PaymentDueFirst paymentDue={view.paymentDue} billingEnabled={view.billingEnabled} />
    case 'confirm-change':
      return (
        <ConfirmChange
          result={view.result}
          pending={create.isPending}
          onConfirm={() => request(undefined, undefined, false, view, { confirm: true, prorationDate: view.result.planChange!.prorationDate })}
        />
      )
    case 'keep':
      return <KeepSubscription result={view.result} plan={plan} onKept={() => request(undefined, undefined, false, null)} />
  }
}

/** Another plan for an active subscription: what changes and what is charged; changed only on Confirm. */
function ConfirmChange({ result, pending, onConfirm }: { result: SubscriptionResult; pending: boolean; onConfirm: () => void }) {
  const change = result.planChange!
  const period = result.invoicePreview.billingPeriod
  const { data: user } = useCurrentUser()
  const from = user && user.planTier in PLANS ? PLANS[user.planTier as PaidPlan] : null
  const nextDate = formatIsoDate(change.nextInvoiceDate)
  const rows: Array<[string, string]> = [
    [PLAN_CHANGE.current, from ? `${change.fromPlan}, ${PLAN_CHANGE.perPeriod(formatAmount(from.priceCents), from.period)}` : change.fromPlan],
    [PLAN_CHANGE.next, `${change.toPlan}, ${PLAN_CHANGE.perPeriod(formatAmount(change.newAmount), period)}`],
    [PLAN_CHANGE.dueNow, formatAmount(change.dueNow)],
    [nextDate ? PLAN_CHANGE.nextInvoice(nextDate) : PLAN_CHANGE.nextInvoiceUndated, formatAmount(change.nextInvoiceAmount)],
  ]
  return (
    <>
      <PageTitle description={PLAN_CHANGE.description}>{PLAN_CHANGE.title(change.toPlan)}</PageTitle>
      <Card data-testid="plan-change">
        <CardContent className="grid gap-4 pt-6">
          <dl className="grid gap-2 text-sm">
            {rows.map(([label, value]) => (
              <div key={label} className="flex items-center justify-between gap-4">
                <dt className="text-slate-700">{label}</dt>
                <dd className="font-medium tabular-nums text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
          {change.prorationAmount !== 0 && (
            <p className="text-sm text-slate-700">
              {change.prorationAmount > 0 ? PLAN_CHANGE.proration(formatAmount(change.prorationAmount)) : PLAN_CHANGE.credit(formatAmount(-change.prorationAmount))}
            </p>
          )}
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
            <Button asChild variant="ghost">
              <Link to="/account">
                <ArrowLeft aria-hidden /> {PLAN_CHANGE.keepCurrent}
              </Link>
            </Button>
            <Button onClick={onConfirm} disabled={pending}>
              {pending ? PLAN_CHANGE.confirming : PLAN_CHANGE.confirm}
            </Button>
          </div>
        </CardContent>
      </Card>
    </>
  )
}

/** Subscribing while the subscription is set to end: keep it (then, for another plan, the change is asked next). */
function KeepSubscription({ result, plan, onKept }: { result: SubscriptionResult; plan: PaidPlan; onKept: () => void }) {
  const resume = useResumeSubscription()
  const { data: user } = useCurrentUser()
  const navigate = useNavigate()
  const keep = () =>
    resume.mutate(undefined, {
      onSuccess: ({ message }) => {
        toast({ title: KEEP_SUBSCRIPTION.kept, description: message, variant: 'success' })
        if (user?.planTier === plan) void navigate({ to: '/account' })
        else onKept()
      },
      onError: (error) => toast({ ...failureText(KEEP_SUBSCRIPTION.failed, error instanceof Error ? error.message : ''), variant: 'destructive' }),
    })
  return (
    <>
      <PageTitle>{KEEP_SUBSCRIPTION.title}</PageTitle>
      <Card data-testid="keep-subscription">
        <CardContent className="grid gap-4 pt-6 text-sm text-slate-700">
          <p>{KEEP_SUBSCRIPTION.text(formatIsoDate(result.endsAt))}</p>
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
            <BackToPricing />
            <Button onClick={keep} disabled={resume.isPending}>
              {resume.isPending ? KEEP_SUBSCRIPTION.keeping : KEEP_SUBSCRIPTION.button}
            </Button>
          </div>
        </CardContent>
      </Card>
    </>
  )
}

/**
 * An owner whose last renewal failed: no card form (nothing new can be bought first), but the way
 * to fix it: change the card on Stripe's page, or pay the open invoice from Account & Billing.
 */
function PaymentDueFirst({ paymentDue, billingEnabled }: { paymentDue: PaymentDue | null; billingEnabled?: boolean }) {
  const config = useBillingConfig()
  const paymentPage = usePaymentMethodPage()
  const { data: user } = useCurrentUser()
  const canUpdate = billingEnabled ?? config.data?.billingEnabled ?? false
  const until = formatIsoDate(paymentDue?.graceUntil)
  const usable = until ? PAYMENT_ISSUE.usableUntil(until) : user?.hasActiveSubscription === false ? PAYMENT_ISSUE.graceOver : PAYMENT_ISSUE.usableDuring
  return (
    <>
      <PageTitle>{SUBSCRIBE_PAYMENT_DUE.title}</PageTitle>
      <Card className="border-amber-200 bg-amber-50" data-testid="payment-due-first">
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-amber-950">
            <TriangleAlert className="size-5 text-amber-700" aria-hidden /> {PAYMENT_ISSUE.title}
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3 text-sm leading-relaxed text-amber-950">
          <p>{SUBSCRIBE_PAYMENT_DUE.text}</p>
          {paymentDue && (
            <p>
              <span className="font-medium">{PAYMENT_ISSUE.amountDue}:</span>{' '}
              <span className="font-semibold tabular-nums">{formatAmount(paymentDue.amountDue)}</span>
            </p>
          )}
          <p>{usable}</p>
          <p>{SUBSCRIBE_PAYMENT_DUE.pay}</p>
          <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
            {canUpdate && <UpdatePaymentMethodButton page={paymentPage} />}
            <Button asChild variant={canUpdate ? 'outline' : 'default'}>
              <Link to="/account">{SUBSCRIBE_PAYMENT_DUE.account}</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </>
  )
}

function PageTitle({ children, description }: { children: ReactNode; description?: ReactNode }) {
  return (
    <div className="mb-6">
      <h1 id="page-title" className="text-3xl font-bold tracking-tight text-slate-900">
        {children}
      </h1>
      {description && <p className="mt-2 text-slate-600">{description}</p>}
    </div>
  )
}

function BackToPricing({ label = 'Back to Pricing' }: { label?: string }) {
  return (
    <Button asChild variant="ghost">
      <Link to="/pricing">
        <ArrowLeft aria-hidden /> {label}
      </Link>
    </Button>
  )
}

/** A guest gives an e-mail (and a code): the account itself comes after. */
function GuestStep({
  plan,
  billingOff,
  pending,
  onContinue,
}: {
  plan: PaidPlan
  billingOff: boolean
  pending: boolean
  onContinue: (email: string, promoCode: string | undefined) => void
}) {
  const [email, setEmail] = useState(() => pendingSubscriptionStore.read()?.email ?? '')
  const [promo, setPromo] = useState('')
  const [emailError, setEmailError] = useState<string | undefined>(undefined)
  const definition = PLANS[plan]

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!email.trim()) {
      toast({ ...SUBSCRIBE_TOASTS.emailRequired, variant: 'destructive' })
      return
    }
    const parsed = emailField.safeParse(email)
    if (!parsed.success) {
      setEmailError(parsed.error.issues[0]?.message)
      return
    }
    setEmailError(undefined)
    onContinue(parsed.data, normalisePromo(promo) || undefined)
  }

  return (
    <>
      <PageTitle description={`${formatAmount(definition.priceCents)} per ${definition.period}. ${definition.description}`}>
        Subscribe to {definition.name}
      </PageTitle>
      <Card>
        <CardHeader>
          <CardTitle>Your details</CardTitle>
          <CardDescription>Your account is created after payment: you choose your password on the next step.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={onSubmit} noValidate className="grid gap-4">
            <InputField label="Email" type="email" autoComplete="email" error={emailError} value={email} onChange={(e) => setEmail(e.target.value)} />
            <InputField
              label="Promo code (optional)"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              value={promo}
              onChange={(e) => setPromo(promoAsTyped(e.target.value))}
            />
            {billingOff && <BillingOffNotice>No card is needed.</BillingOffNotice>}
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
              <BackToPricing />
              <Button type="submit" size="lg" disabled={!email.trim() || pending}>
                {pending ? 'Please wait...' : 'Continue to Payment'} <ArrowRight aria-hidden />
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </>
  )
}

/** The promo box, the banner, the invoice and (billing on) the card form. */
function SubscriptionDetails({
  result,
  planName,
  publishableKey,
  applying,
  onApply,
  onPaid,
}: {
  result: SubscriptionResult
  planName: string
  publishableKey: string | null
  applying: boolean
  onApply: (code: string) => void
  onPaid: () => void
}) {
  const [promo, setPromo] = useState('')
  const preview = result.invoicePreview

  const apply = (event: FormEvent) => {
    event.preventDefault()
    const code = normalisePromo(promo)
    if (!code) {
      toast({ ...SUBSCRIBE_TOASTS.promoBlank, variant: 'destructive' })
      return
    }
    onApply(code)
  }

  const canPay = result.billingEnabled && !!result.clientSecret && !!publishableKey
  return (
    <>
      <PageTitle>Subscribe to {planName}</PageTitle>
      <Card>
        <CardHeader>
          <CardTitle>Subscription Details</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-5">
          <form onSubmit={apply} className="flex items-end gap-2" noValidate>
            <InputField
              label="Promo code"
              className="flex-1"
              autoComplete="off"
              spellCheck={false}
              value={promo}
              onChange={(e) => setPromo(promoAsTyped(e.target.value))}
            />
            <Button type="submit" variant="outline" disabled={!normalisePromo(promo) || applying}>
              {applying ? 'Applying...' : 'Apply'}
            </Button>
          </form>
          {preview.promoCodeApplied && (
            <Alert variant="success">
              <BadgeCheck aria-hidden />
              <AlertTitle>Promotion Applied!</AlertTitle>
              <AlertDescription>
                Code {preview.promoCodeApplied}: {formatAmount(preview.discountAmount)} off
                {trialText(preview) ? ` · ${trialText(preview)}` : ''}.
              </AlertDescription>
            </Alert>
          )}
          <InvoiceSummary preview={preview} />
          {preview.finalAmount === 0 && (
            <Alert variant="info">
              <CreditCard aria-hidden />
              <AlertTitle>Payment Method Required</AlertTitle>
              <AlertDescription>Nothing is charged today. Your card is saved and charged when the free period ends.</AlertDescription>
            </Alert>
          )}
          {canPay ? (
            <PaymentForm
              publishableKey={publishableKey}
              clientSecret={result.clientSecret!}
              returnUrl={`${window.location.origin}/payment-success`}
              submitLabel="Subscribe Now"
              onPaid={onPaid}
              onFailed={(message) =>
                toast({ ...failureText(SUBSCRIBE_TOASTS.paymentFailed, message), variant: 'destructive' })
              }
              onUnexpected={() => toast({ ...SUBSCRIBE_TOASTS.unexpected, variant: 'destructive' })}
              secondary={
                <Button asChild variant="ghost">
                  <Link to="/">
                    <ArrowLeft aria-hidden /> Back to Home
                  </Link>
                </Button>
              }
            />
          ) : (
            <>
              <BillingOffNotice />
              <BackToPricing />
            </>
          )}
        </CardContent>
      </Card>
    </>
  )
}

/** Signed in on a server without billing: the plan is on already. */
function Activated({ result }: { result: SubscriptionResult }) {
  return (
    <>
      <PageTitle>Subscribe to {result.invoicePreview.planName}</PageTitle>
      <Card>
        <CardHeader className="items-center text-center">
          <CircleCheckBig className="size-10 text-emerald-600" aria-hidden />
          <CardTitle className="text-2xl">Subscription Successful</CardTitle>
          <CardDescription>Welcome to {result.invoicePreview.planName}! Taking you to your dashboard...</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <InvoiceSummary preview={result.invoicePreview} />
          {trialText(result.invoicePreview) && <p className="text-sm text-slate-700">{trialText(result.invoicePreview)}</p>}
          {!result.billingEnabled && <BillingOffNotice>Your plan is active now.</BillingOffNotice>}
        </CardContent>
      </Card>
    </>
  )
}

/** A guest's subscription that needs no payment now: registration comes next. */
function FreeActivated({ result }: { result: SubscriptionResult }) {
  const preview = result.invoicePreview
  return (
    <>
      <PageTitle>Subscribe to {preview.planName}</PageTitle>
      <Card data-testid="free-activated">
        <CardHeader className="items-center text-center">
          <Gift className="size-10 text-emerald-600" aria-hidden />
          <CardTitle className="text-2xl">Free Subscription Activated!</CardTitle>
          <CardDescription>Next, create your account: taking you there in a moment...</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <dl className="grid gap-1 text-sm text-slate-700">
            <div>
              <dt className="inline font-medium">Plan: </dt>
              <dd className="inline">{preview.planName}</dd>
            </div>
            {preview.promoCodeApplied && (
              <div>
                <dt className="inline font-medium">Code applied: </dt>
                <dd className="inline">{preview.promoCodeApplied}</dd>
              </div>
            )}
            {trialText(preview) && <div>{trialText(preview)}</div>}
          </dl>
          <InvoiceSummary preview={preview} />
          {!result.billingEnabled && <BillingOffNotice>Your plan starts when your account is created.</BillingOffNotice>}
          <Button asChild>
            <Link to="/register">
              Create your account <ArrowRight aria-hidden />
            </Link>
          </Button>
        </CardContent>
      </Card>
    </>
  )
}

function FailureNotice({ title, message, showAccount = false }: { title: string; message: string; showAccount?: boolean }) {
  return (
    <div className="grid gap-4">
      <Alert variant="destructive">
        <TriangleAlert aria-hidden />
        <AlertTitle>{title}</AlertTitle>
        <AlertDescription>{message}</AlertDescription>
      </Alert>
      <div className="flex flex-wrap gap-3">
        <BackToPricing />
        {showAccount && (
          <Button asChild variant="outline">
            <Link to="/account">Account &amp; Billing</Link>
          </Button>
        )}
      </div>
    </div>
  )
}

/** Signed in without a plan in the address (e.g. sent here by a 402): nothing is created unasked. */
function ChoosePlan() {
  return (
    <>
      <PageTitle description="Choose the plan to subscribe to.">Choose Your Plan</PageTitle>
      <ul className="grid gap-3">
        {PLAN_LIST.map((p) => (
          <li key={p.id}>
            <Link
              to="/subscribe"
              search={{ plan: p.id }}
              className="flex items-center justify-between gap-4 rounded-lg border border-slate-200 bg-white p-4 hover:border-brand-600 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <span>
                <span className="block font-semibold text-slate-900">{p.name}</span>
                <span className="block text-sm text-slate-600">{p.description}</span>
              </span>
              <span className="shrink-0 font-semibold text-slate-900">
                {formatAmount(p.priceCents)}/{p.period}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <div className="mt-6">
        <BackToPricing label="Compare plans" />
      </div>
    </>
  )
}
