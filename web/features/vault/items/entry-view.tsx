import { Check, Copy, Eye, EyeOff } from 'lucide-react'
import { useEffect, useState, type ReactNode } from 'react'
import type { PasswordEntry } from '../../../../contract/vault-items'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { toast } from '@/lib/toast-store'

// A decrypted password entry, shown rather than saved: the owner's vault (View) and a
// beneficiary's released entry both show it this way, in a dialog that says where it was decrypted.

/** The dialog an entry is shown in; `children` is the entry, or where its decryption stands. */
export function EntryDialog({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="grid-cols-1">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>Decrypted in this browser. Close this window when you are done.</DialogDescription>
        </DialogHeader>
        {children}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), 2000)
    return () => clearTimeout(timer)
  }, [copied])
  return (
    <Button
      variant="outline"
      size="icon"
      className="size-9 shrink-0"
      aria-label={copied ? `${label} copied` : `Copy ${label.toLowerCase()}`}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value)
          setCopied(true)
        } catch {
          toast({ title: 'Copy failed', description: 'Your browser did not allow copying. Select the text and copy it instead.', variant: 'destructive' })
        }
      }}
    >
      {copied ? <Check className="text-emerald-600" aria-hidden /> : <Copy aria-hidden />}
    </Button>
  )
}

/** One field with a copy button; a secret one starts hidden, with a show/hide toggle. */
export function EntryRow({ label, value, secret = false }: { label: string; value: string; secret?: boolean }) {
  const [visible, setVisible] = useState(!secret)
  return (
    <div className="grid gap-1">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="flex items-center gap-2">
        <span
          className="min-w-0 flex-1 whitespace-pre-wrap break-all rounded-md border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900"
          data-testid={`entry-${label.toLowerCase()}`}
        >
          {value ? (visible ? value : '••••••••••••') : <span className="font-sans text-slate-500">Not set</span>}
        </span>
        {secret && value && (
          <Button
            variant="outline"
            size="icon"
            className="size-9 shrink-0"
            aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
            aria-pressed={visible}
            onClick={() => setVisible((v) => !v)}
          >
            {visible ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
          </Button>
        )}
        {value && <CopyButton value={value} label={label} />}
      </dd>
    </div>
  )
}

/** Site, username and the hidden password; `notes` (how the entry's notes are shown, if at all) follows them. */
export function PasswordEntryFields({ entry, notes }: { entry: PasswordEntry; notes?: ReactNode }) {
  return (
    <dl className="grid grid-cols-1 gap-4">
      <EntryRow label="Site" value={entry.site} />
      <EntryRow label="Username" value={entry.username} />
      <EntryRow label="Password" value={entry.password} secret />
      {notes}
    </dl>
  )
}
