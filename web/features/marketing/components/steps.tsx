import { Check } from 'lucide-react'
import { STEPS } from '../content'
import { cn } from '@/lib/utils'

/** The four steps as a row of numbered cards (landing page). */
export function StepsGrid() {
  return (
    <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
      {STEPS.map((step, i) => (
        <li key={step.title} className="relative rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <span
            className="flex size-10 items-center justify-center rounded-full bg-brand-700 text-base font-bold text-white"
            aria-hidden
          >
            {i + 1}
          </span>
          <h3 className="mt-4 text-lg font-semibold text-slate-900">
            <span className="sr-only">Step {i + 1}: </span>
            {step.title}
          </h3>
          <p className="mt-2 text-sm leading-relaxed text-slate-600">{step.summary}</p>
        </li>
      ))}
    </ol>
  )
}

/** The four steps as a vertical timeline with details (/how-it-works). */
export function StepsTimeline() {
  return (
    <ol className="mx-auto max-w-3xl">
      {STEPS.map((step, i) => {
        const last = i === STEPS.length - 1
        return (
          <li key={step.title} className="relative flex gap-4 sm:gap-6">
            <div className="flex flex-col items-center">
              <span
                className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-700 text-base font-bold text-white ring-4 ring-brand-50 sm:size-12 sm:text-lg"
                aria-hidden
              >
                {i + 1}
              </span>
              {!last && <span className="mt-2 w-0.5 flex-1 rounded-full bg-brand-100" aria-hidden />}
            </div>
            <div className={cn('flex-1 pt-1.5 sm:pt-2.5', last ? 'pb-0' : 'pb-10')}>
              <h3 className="text-xl font-semibold text-slate-900">
                <span className="sr-only">Step {i + 1}: </span>
                {step.title}
              </h3>
              <p className="mt-2 leading-relaxed text-slate-700">{step.summary}</p>
              <ul className="mt-4 space-y-2 text-sm text-slate-600">
                {step.details.map((detail) => (
                  <li key={detail} className="flex gap-2.5">
                    <Check className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden />
                    <span>{detail}</span>
                  </li>
                ))}
              </ul>
            </div>
          </li>
        )
      })}
    </ol>
  )
}
