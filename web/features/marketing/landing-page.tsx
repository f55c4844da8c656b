import { Link } from '@tanstack/react-router'
import { ArrowRight, Bell, FileText, KeyRound, Lock, Quote, ShieldCheck, Users } from 'lucide-react'
import { PLAN_LIST } from '../../../contract/plans'
import { PublicLayout } from '@/components/layout/public-layout'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { PlanCard } from './components/plan-card'
import { PricingScrollTopButton } from './components/scroll-top-link'
import { IconCardGrid, Section, SectionHeading } from './components/section'
import { StarRating } from './components/star-rating'
import { StepsGrid } from './components/steps'
import { AUDIENCES, FEATURES, TESTIMONIALS, TRUST_POINTS } from './content'

/** The public landing page (seeds 000 §2, Landing page). */
export function LandingPage() {
  return (
    <PublicLayout>
      <Hero />
      <Audiences />
      <Features />
      <HowItWorks />
      <Pricing />
      <Testimonials />
      <ClosingCallToAction />
    </PublicLayout>
  )
}

function Hero() {
  return (
    <section
      aria-labelledby="hero-title"
      className="relative overflow-hidden bg-gradient-to-b from-brand-50 via-white to-slate-50 px-4 pt-14 pb-16 sm:px-6 sm:pt-20 sm:pb-24"
    >
      <div className="mx-auto grid max-w-6xl items-center gap-12 lg:grid-cols-[1.1fr_0.9fr]">
        <div>
          <Badge variant="default" className="mb-5 gap-1.5 px-3 py-1 text-sm">
            <ShieldCheck className="size-4" aria-hidden /> Zero-knowledge digital inheritance
          </Badge>
          <h1
            id="hero-title"
            className="text-4xl font-extrabold tracking-tight text-balance text-slate-900 sm:text-5xl lg:text-6xl"
          >
            Secure Your Digital Legacy
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-pretty text-slate-600">
            Keep your important documents, passwords, photos and videos in a vault that is encrypted on your own device,
            and make sure they reach the people you choose, when the time comes.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Button asChild size="lg" className="w-full sm:w-auto">
              <Link to="/pricing">
                Start Your Plan <ArrowRight aria-hidden />
              </Link>
            </Button>
            <Button asChild size="lg" variant="outline" className="w-full sm:w-auto">
              <Link to="/pricing">View Plans</Link>
            </Button>
          </div>
          <ul className="mt-10 grid gap-4 text-sm sm:grid-cols-3" aria-label="Security at a glance">
            {TRUST_POINTS.map(({ icon: Icon, title, description }) => (
              <li key={title} className="flex items-start gap-2.5">
                <Icon className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden />
                <span>
                  <span className="block font-semibold text-slate-900">{title}</span>
                  <span className="text-slate-600">{description}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
        <VaultIllustration />
      </div>
    </section>
  )
}

/** A drawn (not photographed) picture of a vault, so the hero needs no external image. */
function VaultIllustration() {
  const items = [
    { icon: FileText, name: 'Last will and testament', meta: 'Document' },
    { icon: KeyRound, name: 'Bank and brokerage logins', meta: 'Passwords' },
    { icon: FileText, name: 'Letter to my children', meta: 'Document' },
  ]
  return (
    <div
      role="img"
      aria-label="Illustration: an encrypted vault with documents assigned to beneficiaries"
      className="relative mx-auto w-full max-w-md"
    >
      <div className="absolute -inset-4 rounded-3xl bg-brand-100/60 blur-2xl" aria-hidden />
      <div className="relative rounded-2xl border border-slate-200 bg-white p-5 shadow-xl sm:p-6">
        <div className="flex items-center justify-between">
          <div className="flex items-center gap-2 font-semibold text-slate-900">
            <Lock className="size-4 text-brand-700" aria-hidden /> My vault
          </div>
          <span className="inline-flex items-center gap-1 rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-medium text-emerald-800">
            <ShieldCheck className="size-3" aria-hidden /> Encrypted on this device
          </span>
        </div>
        <ul className="mt-5 space-y-2.5">
          {items.map(({ icon: Icon, name, meta }) => (
            <li
              key={name}
              className="flex items-center gap-3 rounded-lg border border-slate-100 bg-slate-50 px-3 py-2.5"
            >
              <span className="flex size-8 items-center justify-center rounded-md bg-white text-brand-700 ring-1 ring-slate-200">
                <Icon className="size-4" aria-hidden />
              </span>
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium text-slate-900">{name}</span>
                <span className="block text-xs text-slate-500">{meta} · AES-256</span>
              </span>
              <Lock className="size-3.5 text-slate-400" aria-hidden />
            </li>
          ))}
        </ul>
        <div className="mt-5 grid gap-3 sm:grid-cols-2">
          <div className="rounded-lg bg-brand-50 p-3">
            <div className="flex items-center gap-1.5 text-xs font-medium text-brand-800">
              <Users className="size-3.5" aria-hidden /> Beneficiaries
            </div>
            <div className="mt-2 flex -space-x-2">
              {['A', 'J', 'M'].map((initial) => (
                <span
                  key={initial}
                  className="flex size-7 items-center justify-center rounded-full bg-brand-700 text-xs font-semibold text-white ring-2 ring-white"
                >
                  {initial}
                </span>
              ))}
            </div>
          </div>
          <div className="rounded-lg bg-amber-50 p-3">
            <div className="flex items-center gap-1.5 text-xs font-medium text-amber-900">
              <Bell className="size-3.5" aria-hidden /> Inactivity check-in
            </div>
            <p className="mt-2 text-sm font-semibold text-slate-900">Every 30 days</p>
          </div>
        </div>
      </div>
    </div>
  )
}

function Audiences() {
  return (
    <section aria-labelledby="audiences-title" className="border-y border-slate-200 bg-white px-4 py-10 sm:px-6">
      <div className="mx-auto max-w-6xl">
        <h2 id="audiences-title" className="text-center text-sm font-semibold uppercase tracking-wide text-slate-500">
          Built for
        </h2>
        <ul className="mt-6 grid grid-cols-1 gap-4 min-[480px]:grid-cols-2 lg:grid-cols-4">
          {AUDIENCES.map(({ icon: Icon, label }) => (
            <li key={label} className="flex items-center justify-center gap-2.5 rounded-lg px-3 py-2 text-slate-700">
              <Icon className="size-5 shrink-0 text-brand-700" aria-hidden />
              <span className="font-medium">{label}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}

function Features() {
  return (
    <Section aria-labelledby="features-title">
      <SectionHeading
        id="features-title"
        eyebrow="Features"
        title="Everything your family needs, nothing we can read"
        description="Legacy Vault combines client-side encryption with the controls an inheritance plan needs: who receives what, when, and after which checks."
      />
      <IconCardGrid items={FEATURES} className="sm:grid-cols-2 lg:grid-cols-3" />
    </Section>
  )
}

function HowItWorks() {
  return (
    <Section aria-labelledby="how-title" className="bg-white">
      <SectionHeading
        id="how-title"
        eyebrow="How it works"
        title="Set up your legacy plan in four steps"
        description="An afternoon of preparation now spares the people you love months of searching later."
      />
      <div className="mt-12">
        <StepsGrid />
      </div>
      <div className="mt-10 text-center">
        <Button asChild variant="link" className="text-base">
          <Link to="/how-it-works">
            Learn more about how it works <ArrowRight aria-hidden />
          </Link>
        </Button>
      </div>
    </Section>
  )
}

function Pricing() {
  return (
    <Section aria-labelledby="pricing-title">
      <SectionHeading
        id="pricing-title"
        eyebrow="Pricing"
        title="Simple monthly plans"
        description="Every plan includes zero-knowledge encryption, e-mail notifications and an audit trail. Cancel at any time."
      />
      <ul className="mt-14 grid items-stretch gap-8 lg:grid-cols-3 lg:gap-6">
        {PLAN_LIST.map((plan) => (
          <li key={plan.id}>
            <PlanCard
              plan={plan}
              action={
                <Button asChild className="w-full" variant={plan.popular ? 'default' : 'outline'} size="lg">
                  <Link to="/register" aria-label={`Choose Plan: ${plan.name}`}>
                    Choose Plan
                  </Link>
                </Button>
              }
            />
          </li>
        ))}
      </ul>
      <p className="mt-8 text-center text-sm text-slate-600">
        Prices in US dollars, billed monthly.{' '}
        <Link to="/pricing" className="font-medium text-brand-700 underline-offset-4 hover:underline">
          Compare plans and read the FAQ
        </Link>
      </p>
    </Section>
  )
}

function Testimonials() {
  return (
    <Section aria-labelledby="testimonials-title" className="bg-white">
      <SectionHeading
        id="testimonials-title"
        eyebrow="Stories"
        title="Peace of mind, in their words"
        description="Illustrative stories of how people in different situations use Legacy Vault."
      />
      <ul className="mt-12 grid gap-6 md:grid-cols-3">
        {TESTIMONIALS.map((t) => (
          <li key={t.name}>
            <figure className="flex h-full flex-col rounded-xl border border-slate-200 bg-slate-50 p-6">
              <StarRating rating={t.rating} />
              <Quote className="mt-4 size-6 text-brand-100" aria-hidden />
              <blockquote className="mt-2 flex-1 leading-relaxed text-slate-700">
                <p>{t.content}</p>
              </blockquote>
              <figcaption className="mt-6 border-t border-slate-200 pt-4">
                <span className="block font-semibold text-slate-900">{t.name}</span>
                <span className="block text-sm text-slate-600">{t.role}</span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </Section>
  )
}

function ClosingCallToAction() {
  return (
    <section aria-labelledby="cta-title" className="bg-brand-900 px-4 py-16 sm:px-6 sm:py-20">
      <div className="mx-auto max-w-3xl text-center">
        <SectionHeading
          id="cta-title"
          inverted
          title="Protect what matters to the people you love"
          description="Start today. Your vault is encrypted before it leaves your device, and only the people you choose will ever receive it."
        />
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <PricingScrollTopButton variant="inverted" size="lg" className="w-full sm:w-auto">
            Start Your Subscription
          </PricingScrollTopButton>
          <PricingScrollTopButton
            variant="outline"
            size="lg"
            className="w-full border-white/40 bg-transparent text-white hover:bg-white/10 sm:w-auto"
          >
            View All Plans
          </PricingScrollTopButton>
        </div>
      </div>
    </section>
  )
}
