import { ChevronDown } from 'lucide-react'
import { useId, useState, type KeyboardEvent } from 'react'
import type { Faq } from '../content'

const KEYS: Record<string, (at: number, count: number) => number> = {
  ArrowDown: (at, count) => (at + 1) % count,
  ArrowUp: (at, count) => (at - 1 + count) % count,
  Home: () => 0,
  End: (_, count) => count - 1,
}

/**
 * Questions and answers as an accordion (the WAI-ARIA pattern, one answer open at a time, which
 * may be closed): each question is a button in an h3 with aria-expanded and aria-controls, its
 * answer a region it labels; operable with Tab, Enter/Space, the arrow keys, Home and End. Written
 * out rather than Radix's, which brought a sixth of /pricing's download for these few lines.
 */
export function FaqAccordion({ items }: { items: Faq[] }) {
  const [open, setOpen] = useState<number | null>(null)
  const id = useId()

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const move = KEYS[event.key]
    const triggers = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button[data-faq-question]')]
    const at = triggers.indexOf(event.target as HTMLButtonElement)
    if (!move || at < 0) return
    event.preventDefault()
    triggers[move(at, triggers.length)]?.focus()
  }

  return (
    <div onKeyDown={onKeyDown} className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white shadow-sm">
      {items.map((item, i) => {
        const expanded = open === i
        const state = expanded ? 'open' : 'closed'
        return (
          <div key={item.question} data-state={state} className="group">
            <h3>
              <button
                type="button"
                data-faq-question
                data-state={state}
                id={`${id}-q${i}`}
                aria-expanded={expanded}
                aria-controls={`${id}-a${i}`}
                onClick={() => setOpen(expanded ? null : i)}
                className="flex w-full items-center justify-between gap-4 px-5 py-4 text-left text-base font-medium text-slate-900 transition-colors hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 group-first:rounded-t-xl group-last:data-[state=closed]:rounded-b-xl sm:px-6"
              >
                {item.question}
                <ChevronDown
                  className="size-5 shrink-0 text-slate-500 transition-transform duration-200 group-data-[state=open]:rotate-180"
                  aria-hidden
                />
              </button>
            </h3>
            <div
              id={`${id}-a${i}`}
              role="region"
              aria-labelledby={`${id}-q${i}`}
              hidden={!expanded}
              className="px-5 pb-5 text-sm leading-relaxed text-slate-600 sm:px-6"
            >
              {item.answer}
            </div>
          </div>
        )
      })}
    </div>
  )
}
