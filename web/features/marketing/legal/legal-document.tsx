import type { ReactNode } from 'react'
import { TERMS_EFFECTIVE_DATE } from '../../../../contract/constants'
import { cn } from '@/lib/utils'

export interface LegalSection {
  id: string
  title: string
  body: ReactNode
}

/**
 * A legal document: one h1, the effective and last-updated dates, an introduction, a table of
 * contents and numbered sections (h2, with h3 inside). Works inside the signed-in shell as well as
 * in a public layout, so it sets its own width but no page chrome.
 */
export function LegalDocument({
  title,
  intro,
  sections,
}: {
  title: string
  intro: ReactNode
  sections: LegalSection[]
}) {
  return (
    <article aria-labelledby="legal-title" className="mx-auto w-full max-w-3xl">
      <header className="border-b border-slate-200 pb-8">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Legal</p>
        <h1 id="legal-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          {title}
        </h1>
        <div className="mt-4 flex flex-col gap-1 text-sm font-medium text-slate-600 sm:flex-row sm:gap-6">
          <p>Effective date: {TERMS_EFFECTIVE_DATE}</p>
          <p>Last updated: {TERMS_EFFECTIVE_DATE}</p>
        </div>
        <div className={cn(proseClasses, 'mt-6 text-base')}>{intro}</div>
      </header>

      <nav aria-labelledby="legal-contents" className="mt-8 rounded-xl border border-slate-200 bg-white p-5 sm:p-6">
        <h2 id="legal-contents" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
          Contents
        </h2>
        <ol className="mt-3 grid gap-x-6 gap-y-1.5 text-sm sm:grid-cols-2">
          {sections.map((section, i) => (
            <li key={section.id} className="flex gap-2">
              <span className="w-6 shrink-0 text-right tabular-nums text-slate-500" aria-hidden>
                {i + 1}.
              </span>
              <a href={`#${section.id}`} className="text-brand-700 underline-offset-4 hover:underline">
                {section.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>

      <div className="mt-4">
        {sections.map((section, i) => (
          <section
            key={section.id}
            id={section.id}
            aria-labelledby={`${section.id}-title`}
            className="scroll-mt-24 pt-10"
          >
            <h2 id={`${section.id}-title`} className="text-xl font-semibold text-slate-900 sm:text-2xl">
              {i + 1}. {section.title}
            </h2>
            <div className={proseClasses}>{section.body}</div>
          </section>
        ))}
      </div>
    </article>
  )
}

/** Typography for the body text, without a typography plugin. */
const proseClasses = cn(
  'text-[0.9375rem] leading-7 text-slate-700',
  '[&_p]:mt-4 [&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline [&_a]:underline-offset-2 [&_a:hover]:text-brand-800',
  '[&_strong]:font-semibold [&_strong]:text-slate-900',
  '[&_ul]:mt-4 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_ol]:mt-4 [&_ol]:list-[lower-alpha] [&_ol]:space-y-2 [&_ol]:pl-6',
  '[&_li]:pl-1 [&_li]:marker:text-slate-400',
  '[&_h3]:mt-6 [&_h3]:text-base [&_h3]:font-semibold [&_h3]:text-slate-900',
)

/** A highlighted paragraph for the points a reader must not miss. */
export function KeyPoint({ children }: { children: ReactNode }) {
  return (
    <div className="mt-4 rounded-lg border border-brand-100 bg-brand-50 px-4 py-3 text-brand-900 [&_p:first-child]:mt-0">
      {children}
    </div>
  )
}
