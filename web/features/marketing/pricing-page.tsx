import { Link, useLocation } from '@tanstack/react-router'
import { ArrowLeft, ArrowRight, Check, LayoutDashboard, LogIn, Mail } from 'lucide-react'
import { useEffect, type ReactNode } from 'react'
import { CONTACT_EMAIL } from '../../../contract/constants'
import { PLAN_LIST, type PaidPlan } from '../../../contract/plans'
import { PublicFooter } from '@/components/layout/public-footer'
import { Button } from '@/components/ui/button'
import { useCurrentUser } from '@/features/auth/api'
import { useBillingConfig } from '@/features/billing/api'
import { BillingOffNotice } from '@/features/billing/billing-off-notice'
import { FaqAccordion } from './components/faq-accordion'
import { PlanCard } from './components/plan-card'
import { IconBadge, Section, SectionHeading } from './components/section'
import { SimpleHeader } from './components/simple-header'
import { FAQS, WHY_CHOOSE } from './content'

const FAQ_SECTION_ID = 'faq'

/** /pricing (seeds 000 §2, Pricing page). */
export function PricingPage() {
  useScrollToFaq()
  return (
    <div className="flex min-h-screen flex-col">
      <SimpleHeader compact>
        <PricingHeaderActions />
      </SimpleHeader>
      <main id="main" className="flex-1">
        <section
          aria-labelledby="page-title"
          className="bg-gradient-to-b from-brand-50 to-slate-50 px-4 pt-14 pb-6 sm:px-6 sm:pt-20"
        >
          <div className="mx-auto max-w-3xl text-center">
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Pricing</p>
            <h1
              id="page-title"
              className="mt-2 text-4xl font-extrabold tracking-tight text-balance text-slate-900 sm:text-5xl"
            >
              Choose the plan that protects your legacy
            </h1>
            <p className="mt-6 text-lg leading-relaxed text-pretty text-slate-600">
              Every plan includes zero-knowledge encryption in your browser, e-mail notifications and an audit trail.
              Billed monthly in US dollars; cancel at any time.
            </p>
            <PricingBillingNotice />
          </div>
        </section>

        <section aria-labelledby="plans-title" className="px-4 pt-10 pb-16 sm:px-6">
          <h2 id="plans-title" className="sr-only">
            Plans
          </h2>
          <ul className="mx-auto grid max-w-6xl items-stretch gap-8 lg:grid-cols-3 lg:gap-6">
            {PLAN_LIST.map((plan) => (
              <li key={plan.id}>
                <PlanCard
                  plan={plan}
                  action={
                    <PlanAction plan={plan.id} name={plan.name} popular={plan.popular} />
                  }
                />
              </li>
            ))}
          </ul>
        </section>

        <Section aria-labelledby="why-title" className="bg-white">
          <SectionHeading
            id="why-title"
            title="Why Choose Legacy Vault"
            description="Built from the ground up for one job: getting the right information to the right people, and to no one else."
          />
          <ul className="mt-12 grid gap-8 sm:grid-cols-2 lg:grid-cols-4">
            {WHY_CHOOSE.map(({ icon: Icon, title, description }) => (
              <li key={title} className="text-center">
                <IconBadge className="mx-auto size-12 [&_svg]:size-6">
                  <Icon />
                </IconBadge>
                <h3 className="mt-4 text-lg font-semibold text-slate-900">{title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-slate-600">{description}</p>
              </li>
            ))}
          </ul>
        </Section>

        <Section id={FAQ_SECTION_ID} aria-labelledby="faq-title">
          <div className="mx-auto max-w-3xl">
            <SectionHeading id="faq-title" title="Frequently Asked Questions" />
            <div className="mt-10">
              <FaqAccordion items={FAQS} />
            </div>
            <p className="mt-8 flex flex-wrap items-center justify-center gap-x-2 gap-y-1 text-center text-sm text-slate-600">
              <Mail className="size-4 text-slate-500" aria-hidden />
              Another question?
              <a
                href={`mailto:${CONTACT_EMAIL}`}
                className="font-medium text-brand-700 underline-offset-4 hover:underline"
              >
                Write to us at {CONTACT_EMAIL}
              </a>
            </p>
          </div>
        </Section>
      </main>
      <PublicFooter />
    </div>
  )
}

/** On a server without billing, said plainly before anyone picks a plan. */
function PricingBillingNotice() {
  const { data: config } = useBillingConfig()
  if (!config || config.billingEnabled) return null
  return <BillingOffNotice className="mx-auto mt-6 max-w-xl text-left">Choosing a plan activates it at once.</BillingOffNotice>
}

/**
 * 'Back to Dashboard' for a subscriber (a provider subscription id on record, or, on a server
 * without billing, an active plan); otherwise 'Back to Home', plus 'Sign In' when no one is signed in.
 */
function PricingHeaderActions() {
  const { data: user, isPending } = useCurrentUser()
  if (user?.stripeSubscriptionId || user?.hasActiveSubscription) {
    return (
      <Button asChild variant="outline">
        <Link to="/dashboard">
          <LayoutDashboard aria-hidden /> Back to Dashboard
        </Link>
      </Button>
    )
  }
  return (
    <>
      <Button asChild variant="ghost" className="px-3">
        <Link to="/">
          <ArrowLeft aria-hidden /> Back to Home
        </Link>
      </Button>
      {!isPending && !user && (
        <Button asChild>
          <Link to="/login">
            <LogIn aria-hidden /> Sign In
          </Link>
        </Button>
      )}
    </>
  )
}

/** An owner's own plan says so; any other plan offers to subscribe. */
function PlanAction({ plan, name, popular }: { plan: PaidPlan; name: string; popular: boolean }) {
  const { data: user } = useCurrentUser()
  if (user && user.hasActiveSubscription && user.planTier === plan) {
    return (
      <Button className="w-full" size="lg" variant="outline" disabled>
        <Check aria-hidden /> Current plan
      </Button>
    )
  }
  return (
    <SubscribeButton plan={plan} popular={popular}>
      Subscribe to {name}
    </SubscribeButton>
  )
}

function SubscribeButton({ plan, popular, children }: { plan: PaidPlan; popular: boolean; children: ReactNode }) {
  return (
    <Button asChild className="w-full" size="lg" variant={popular ? 'default' : 'outline'}>
      <Link to="/subscribe" search={{ plan }}>
        {children} <ArrowRight aria-hidden />
      </Link>
    </Button>
  )
}

/**
 * The footer's FAQs link goes to /pricing#faq: bring the FAQ into view whenever the hash says so,
 * including when the page is opened directly with it.
 */
function useScrollToFaq() {
  const hash = useLocation({ select: (location) => location.hash })
  useEffect(() => {
    if (hash.replace(/^#/, '') !== FAQ_SECTION_ID) return
    const frame = window.requestAnimationFrame(() => {
      const target = document.getElementById(FAQ_SECTION_ID)
      if (!target) return
      const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches
      target.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' })
    })
    return () => window.cancelAnimationFrame(frame)
  }, [hash])
}
