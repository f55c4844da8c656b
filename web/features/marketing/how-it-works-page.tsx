import { Link } from '@tanstack/react-router'
import { ArrowRight, Check, CircleX, CreditCard, Eye, EyeOff, Hourglass, RotateCcw, X } from 'lucide-react'
import { PAYMENT_GRACE_DAYS } from '../../../contract/constants'
import { PublicLayout } from '@/components/layout/public-layout'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { IconBadge, IconCardGrid, Section, SectionHeading } from './components/section'
import { StepsTimeline } from './components/steps'
import { PAYMENT_GRACE_AFTER, PAYMENT_GRACE_DESCRIPTION, PAYMENT_GRACE_DURING, PAYMENT_GRACE_TITLE, PRIVACY_PILLARS, WE_CANNOT_SEE, WE_CAN_SEE } from './content'

/** /how-it-works (seeds 000 §2, How-it-works page; §4, payment lifecycle). */
export function HowItWorksPage() {
  return (
    <PublicLayout>
      <section
        aria-labelledby="page-title"
        className="bg-gradient-to-b from-brand-50 to-slate-50 px-4 pt-14 pb-12 sm:px-6 sm:pt-20"
      >
        <div className="mx-auto max-w-3xl text-center">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">How it works</p>
          <h1
            id="page-title"
            className="mt-2 text-4xl font-extrabold tracking-tight text-balance text-slate-900 sm:text-5xl"
          >
            Your legacy, passed on exactly as you intend
          </h1>
          <p className="mt-6 text-lg leading-relaxed text-pretty text-slate-600">
            Legacy Vault keeps your most important information encrypted on your own device, and releases it to the
            people you choose only when the conditions you set are met.
          </p>
        </div>
      </section>

      <Section aria-labelledby="steps-title" className="pt-8 sm:pt-10">
        <SectionHeading id="steps-title" title="Four steps to a complete plan" className="mb-12" />
        <StepsTimeline />
      </Section>

      <PrivacySection />
      <PaymentProtectionSection />

      <section aria-labelledby="cta-title" className="bg-brand-900 px-4 py-16 sm:px-6 sm:py-20">
        <div className="mx-auto max-w-3xl text-center">
          <SectionHeading
            id="cta-title"
            inverted
            title="Ready to put your plan in place?"
            description="Create your vault in minutes. You stay in control of every item, every beneficiary and every trigger."
          />
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Button asChild variant="inverted" size="lg" className="w-full sm:w-auto">
              <Link to="/register">
                Start Your Subscription <ArrowRight aria-hidden />
              </Link>
            </Button>
            <Button
              asChild
              variant="outline"
              size="lg"
              className="w-full border-white/40 bg-transparent text-white hover:bg-white/10 sm:w-auto"
            >
              <Link to="/pricing">View Pricing</Link>
            </Button>
          </div>
        </div>
      </section>
    </PublicLayout>
  )
}

function PrivacySection() {
  return (
    <Section aria-labelledby="privacy-title" className="bg-white">
      <SectionHeading
        id="privacy-title"
        eyebrow="Privacy by design"
        title="We built Legacy Vault so that we cannot read it"
        description="Zero-knowledge means the encryption happens on your device and the keys stay there. Our servers store ciphertext and nothing that could unlock it."
      />
      <IconCardGrid items={PRIVACY_PILLARS} className="md:grid-cols-3" />
      <div className="mt-10 grid gap-6 md:grid-cols-2">
        <Card className="bg-slate-50">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Eye className="size-5 text-slate-500" aria-hidden /> What we can see
            </CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="space-y-2.5 text-sm text-slate-700">
              {WE_CAN_SEE.map((item) => (
                <li key={item} className="flex gap-2.5">
                  <Check className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden />
                  <span>{item}</span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <Card className="border-brand-100 bg-brand-50">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <EyeOff className="size-5 text-brand-700" aria-hidden /> What we can never see
            </CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="space-y-2.5 text-sm text-slate-800">
              {WE_CANNOT_SEE.map((item) => (
                <li key={item} className="flex gap-2.5">
                  <X className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden />
                  <span>{item}</span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
      <Alert variant="warning" className="mx-auto mt-8 max-w-3xl">
        <AlertTitle>Keep your passphrase safe</AlertTitle>
        <AlertDescription>
          Because only you hold the key, we cannot recover your vault for you. If you forget your passphrase, the
          recovery code you print when you set up your vault opens it; without either, nothing can. Resetting your
          account password restores access to your account, not to encrypted vault contents.
        </AlertDescription>
      </Alert>
    </Section>
  )
}

function PaymentProtectionSection() {
  return (
    <Section aria-labelledby="payment-title">
      <SectionHeading
        id="payment-title"
        eyebrow="Payment-issue protection"
        title={PAYMENT_GRACE_TITLE}
        description={PAYMENT_GRACE_DESCRIPTION}
      />
      <ol className="mt-12 grid gap-6 lg:grid-cols-3">
        <li>
          <Card className="h-full">
            <CardHeader>
              <IconBadge className="bg-amber-50 text-amber-700 ring-amber-100">
                <CreditCard />
              </IconBadge>
              <CardTitle className="mt-3">1. A payment issue occurs</CardTitle>
              <CardDescription className="leading-relaxed">
                Your card is declined or has expired. We send you e-mail notifications straight away, so you can update
                your payment method from Account &amp; Billing.
              </CardDescription>
            </CardHeader>
          </Card>
        </li>
        <li>
          <Card className="h-full border-emerald-200">
            <CardHeader>
              <IconBadge className="bg-emerald-50 text-emerald-700 ring-emerald-100">
                <Hourglass />
              </IconBadge>
              <CardTitle className="mt-3">2. {PAYMENT_GRACE_DAYS}-day grace period</CardTitle>
              <CardDescription>While you resolve the issue:</CardDescription>
            </CardHeader>
            <CardContent>
              <ul className="space-y-2.5 text-sm text-slate-700">
                {PAYMENT_GRACE_DURING.map((item) => (
                  <li key={item} className="flex gap-2.5">
                    <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden />
                    <span>{item}</span>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        </li>
        <li>
          <Card className="h-full">
            <CardHeader>
              <IconBadge className="bg-slate-100 text-slate-700 ring-slate-200">
                <RotateCcw />
              </IconBadge>
              <CardTitle className="mt-3">3. If it is still unresolved</CardTitle>
              <CardDescription>After the {PAYMENT_GRACE_DAYS} days:</CardDescription>
            </CardHeader>
            <CardContent>
              <ul className="space-y-2.5 text-sm text-slate-700">
                {PAYMENT_GRACE_AFTER.map((item) => (
                  <li key={item} className="flex gap-2.5">
                    <CircleX className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden />
                    <span>{item}</span>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        </li>
      </ol>
      <Alert variant="info" className="mx-auto mt-8 max-w-3xl">
        <AlertTitle>Why triggers resume after the grace period</AlertTitle>
        <AlertDescription>
          This is intentional. A subscription that stops being paid can itself be a sign that the owner has died or
          become incapacitated, which is exactly when your plan needs to work. Pausing your triggers indefinitely could
          keep your beneficiaries from receiving what you meant them to have.
        </AlertDescription>
      </Alert>
    </Section>
  )
}
