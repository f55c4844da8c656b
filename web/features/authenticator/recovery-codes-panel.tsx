import { Heading } from '@/components/ui/heading-level'
import { downloadText } from '@/lib/download-text'
import { Check, Copy, Download } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { PRODUCT_NAME } from '../../../contract/constants'
import { Button } from '@/components/ui/button'
import { toast } from '@/lib/toast-store'

/** The codes as a text file a person can keep: what they are for and how to use them. */
export function recoveryCodesText(codes: readonly string[], email: string, now = new Date()): string {
  return [
    `${PRODUCT_NAME} recovery codes for ${email}`,
    `Made on ${now.toISOString().slice(0, 10)}.`,
    '',
    'If you cannot use your authenticator app, type one of these codes instead of the 6-digit code when you sign in.',
    'Each code works once. Keep them somewhere safe, apart from your phone.',
    '',
    ...codes.map((code, i) => `${String(i + 1).padStart(2, ' ')}. ${code}`),
    '',
  ].join('\n')
}

/**
 * New recovery codes, shown this once: copy, download, and "I have saved these" to close. The
 * heading takes focus so a screen reader starts with what they are.
 */
export function RecoveryCodesPanel({ codes, email, onDone }: { codes: readonly string[]; email: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false)
  const title = useRef<HTMLHeadingElement>(null)
  useEffect(() => title.current?.focus(), [])
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), 2000)
    return () => clearTimeout(timer)
  }, [copied])
  const text = recoveryCodesText(codes, email)

  return (
    <section aria-labelledby="recovery-codes-title" className="grid gap-4 rounded-lg border border-amber-200 bg-amber-50/50 p-4">
      <div className="grid gap-1">
        <Heading id="recovery-codes-title" tabIndex={-1} ref={title} className="font-semibold text-slate-900 outline-none">
          Save your recovery codes
        </Heading>
        <p className="text-sm text-slate-700">
          If you lose your phone, each of these codes signs you in once instead of a code from the app. This is the only time we show them: we keep
          only a scrambled form we cannot read back.
        </p>
      </div>
      <ol aria-label="Your recovery codes" data-testid="recovery-codes" className="grid grid-cols-1 gap-2 rounded-md border border-slate-200 bg-white p-3 font-mono text-base sm:grid-cols-2">
        {codes.map((code) => (
          <li key={code} className="tracking-wider text-slate-900">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(text)
              setCopied(true)
            } catch {
              toast({ title: 'Copy failed', description: 'Your browser did not allow copying. Download the codes, or write them down.', variant: 'destructive' })
            }
          }}
        >
          {copied ? <Check className="text-emerald-600" aria-hidden /> : <Copy aria-hidden />}
          {copied ? 'Copied' : 'Copy codes'}
        </Button>
        <Button variant="outline" onClick={() => downloadText(text, `${PRODUCT_NAME.toLowerCase().replace(/\s+/g, '-')}-recovery-codes.txt`)}>
          <Download aria-hidden /> Download
        </Button>
      </div>
      <span className="sr-only" aria-live="polite">
        {copied ? 'Recovery codes copied' : ''}
      </span>
      <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
        Store them in a password manager, or print them and keep the paper apart from your phone. Anyone with one of these codes and your password
        can sign in.
      </p>
      <Button onClick={onDone}>I have saved these</Button>
    </section>
  )
}
