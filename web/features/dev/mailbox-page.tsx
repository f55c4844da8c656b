import { useQuery } from '@tanstack/react-query'
import { Inbox, RefreshCw } from 'lucide-react'
import { useState } from 'react'
import type { OutboxMessage } from '../../../contract/auth'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { PageSpinner } from '@/components/ui/spinner'
import { cn } from '@/lib/utils'

// Links in plain text become clickable; nothing else of the message is interpreted as HTML here
// (the HTML version is shown in a sandboxed frame with scripts disabled).
function linkify(text: string) {
  return text.split(/(https?:\/\/\S+)/g).map((part, i) =>
    /^https?:\/\//.test(part) ? (
      <a key={i} href={part} className="break-all text-brand-700 underline">
        {part}
      </a>
    ) : (
      <span key={i}>{part}</span>
    ),
  )
}

export function MailboxPage() {
  const [selected, setSelected] = useState(0)
  const [view, setView] = useState<'text' | 'html'>('text')
  const { data, isPending, isError, refetch, isFetching } = useQuery<OutboxMessage[]>({ queryKey: ['/api/dev/outbox'] })
  const messages = data ?? []
  const message = messages[selected]

  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">Local mailbox</h1>
          <p className="text-sm text-slate-600">Every e-mail this local server sent, newest first. Not part of a deployment.</p>
        </div>
        <Button variant="outline" onClick={() => refetch()} disabled={isFetching}>
          <RefreshCw aria-hidden className={cn(isFetching && 'animate-spin')} /> Refresh
        </Button>
      </div>
      {isPending ? (
        <PageSpinner />
      ) : isError ? (
        <p role="alert">The mailbox could not be loaded.</p>
      ) : messages.length === 0 ? (
        <Card className="p-10 text-center text-slate-600">
          <Inbox className="mx-auto mb-3 size-8" aria-hidden />
          No e-mail yet.
        </Card>
      ) : (
        <div className="grid gap-4 md:grid-cols-[320px_1fr]">
          <ul className="grid content-start gap-2" aria-label="Messages">
            {messages.map((m, i) => (
              <li key={`${m.createdAt}-${i}`}>
                <button
                  type="button"
                  onClick={() => setSelected(i)}
                  aria-current={i === selected}
                  className={cn(
                    'w-full rounded-lg border p-3 text-left text-sm',
                    i === selected ? 'border-brand-600 bg-brand-50' : 'border-slate-200 bg-white hover:bg-slate-50',
                  )}
                >
                  <span className="block truncate font-medium">{m.subject}</span>
                  <span className="block truncate text-slate-600">To: {m.to}</span>
                  <span className="block text-xs text-slate-500">{new Date(m.createdAt).toLocaleString()}</span>
                </button>
              </li>
            ))}
          </ul>
          {message && (
            <Card className="p-4">
              <h2 className="text-lg font-semibold">{message.subject}</h2>
              <p className="text-sm text-slate-600">To: {message.to}</p>
              <div className="my-3 flex gap-2">
                <Button size="sm" variant={view === 'text' ? 'default' : 'outline'} onClick={() => setView('text')}>
                  Text
                </Button>
                <Button size="sm" variant={view === 'html' ? 'default' : 'outline'} onClick={() => setView('html')}>
                  HTML
                </Button>
              </div>
              {view === 'text' ? (
                <pre className="whitespace-pre-wrap font-sans text-sm" data-testid="mail-text">
                  {linkify(message.text)}
                </pre>
              ) : (
                <iframe title="HTML version" sandbox="" srcDoc={message.html} className="h-[600px] w-full rounded border" />
              )}
            </Card>
          )}
        </div>
      )}
    </div>
  )
}
