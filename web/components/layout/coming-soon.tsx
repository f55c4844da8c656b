import { Construction } from 'lucide-react'
import { PAGES } from '../../../contract/messages'

/** The body of a screen whose feature lands in a later release: says so, shows nothing fake. */
export function ComingSoon({ title, description }: { title: string; description: string }) {
  return (
    <section aria-labelledby="page-title" className="mx-auto max-w-2xl">
      <h1 id="page-title" className="text-2xl font-bold text-slate-900">{title}</h1>
      <div className="mt-6 rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center">
        <Construction className="mx-auto size-8 text-slate-400" aria-hidden />
        <p className="mt-3 font-semibold text-slate-800">{PAGES.comingSoon}</p>
        <p className="mt-2 text-sm text-slate-600">{description}</p>
      </div>
    </section>
  )
}
