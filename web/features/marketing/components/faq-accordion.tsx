import { ChevronDown } from 'lucide-react'
import { Accordion } from 'radix-ui'
import type { Faq } from '../content'

/**
 * Questions and answers as a Radix accordion: each question is a button in an h3, operable with
 * Tab, Enter/Space and the arrow keys, with aria-expanded and aria-controls wired by Radix.
 */
export function FaqAccordion({ items }: { items: Faq[] }) {
  return (
    <Accordion.Root
      type="single"
      collapsible
      className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      {items.map((item, i) => (
        <Accordion.Item key={item.question} value={`faq-${i}`} className="group">
          <Accordion.Header asChild>
            <h3>
              <Accordion.Trigger className="flex w-full items-center justify-between gap-4 px-5 py-4 text-left text-base font-medium text-slate-900 transition-colors hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 group-first:rounded-t-xl group-last:data-[state=closed]:rounded-b-xl sm:px-6">
                {item.question}
                <ChevronDown
                  className="size-5 shrink-0 text-slate-500 transition-transform duration-200 group-data-[state=open]:rotate-180"
                  aria-hidden
                />
              </Accordion.Trigger>
            </h3>
          </Accordion.Header>
          <Accordion.Content className="px-5 pb-5 text-sm leading-relaxed text-slate-600 sm:px-6">
            {item.answer}
          </Accordion.Content>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  )
}
