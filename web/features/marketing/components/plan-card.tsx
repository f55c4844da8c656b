import { Check } from 'lucide-react'
import type { ReactNode } from 'react'
import { formatCents, type PlanDefinition } from '../../../../contract/plans'
import { Badge } from '@/components/ui/badge'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card'
import { cn } from '@/lib/utils'

/**
 * One plan from contract/plans.ts: name, monthly price, description, features and the caller's
 * call to action. The popular plan is outlined and carries the 'Most Popular' badge.
 */
export function PlanCard({ plan, action }: { plan: PlanDefinition; action: ReactNode }) {
  const titleId = `plan-${plan.id}-title`
  return (
    <Card
      role="group"
      aria-labelledby={titleId}
      className={cn(
        'relative flex h-full flex-col',
        plan.popular && 'border-brand-600 shadow-lg ring-1 ring-brand-600 lg:-my-3',
      )}
      data-plan={plan.id}
    >
      {plan.popular && (
        <div className="absolute inset-x-0 -top-3 flex justify-center">
          <Badge className="bg-brand-700 px-3 py-1 text-white shadow-sm">Most Popular</Badge>
        </div>
      )}
      <CardHeader className={cn(plan.popular && 'lg:pt-9')}>
        <CardTitle id={titleId} className="text-xl">
          {plan.name}
        </CardTitle>
        <p className="mt-2 flex items-baseline gap-1">
          <span className="text-4xl font-bold tracking-tight text-slate-900">{formatCents(plan.priceCents)}</span>
          <span className="text-sm text-slate-600">/{plan.period}</span>
        </p>
        <CardDescription className="mt-1">{plan.description}</CardDescription>
      </CardHeader>
      <CardContent className="flex-1">
        <ul
          className="space-y-3 border-t border-slate-100 pt-6 text-sm text-slate-700"
          aria-label={`${plan.name} plan features`}
        >
          {plan.features.map((feature) => (
            <li key={feature} className="flex gap-3">
              <Check className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden />
              <span>{feature}</span>
            </li>
          ))}
        </ul>
      </CardContent>
      <CardFooter className={cn(plan.popular && 'lg:pb-9')}>{action}</CardFooter>
    </Card>
  )
}
