import { Check, Copy, Eye, EyeOff } from 'lucide-react'
import { useState } from 'react'
import type { PasswordEntry } from '../../../contract/vault-items'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { toast } from '@/lib/toast-store'

// A released password entry, shown rather than saved as a JSON file, as the owner's vault does.

function Row({ label, value, secret = false }: { label: string; value: string; secret?: boolean }) {
  const [visible, setVisible] = useState(!secret)
  const [copied, setCopied] = useState(false)
  return (
    <div className="grid gap-1">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="flex items-center gap-2">
        <span className="min-w-0 flex-1 whitespace-pre-wrap break-all rounded-md border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900">
          {value ? (visible ? value : '••••••••••••') : <span className="font-sans text-slate-400">Not set</span>}
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
        {value && (
          <Button
            variant="outline"
            size="icon"
            className="size-9 shrink-0"
            aria-label={copied ? `${label} copied` : `Copy ${label.toLowerCase()}`}
            onClick={async () => {
              try {
                await navigator.clipboard.writeText(value)
                setCopied(true)
                setTimeout(() => setCopied(false), 2000)
              } catch {
                toast({ title: 'Copy failed', description: 'Your browser did not allow copying. Select the text and copy it instead.', variant: 'destructive' })
              }
            }}
          >
            {copied ? <Check className="text-emerald-600" aria-hidden /> : <Copy aria-hidden />}
          </Button>
        )}
      </dd>
    </div>
  )
}

export function PasswordEntryDialog({ entry, title, onClose }: { entry: PasswordEntry | null; title: string; onClose: () => void }) {
  return (
    <Dialog open={entry !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="grid-cols-1">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>Decrypted in this browser. Close this window when you are done.</DialogDescription>
        </DialogHeader>
        {entry && (
          <dl className="grid grid-cols-1 gap-4">
            <Row label="Site" value={entry.site} />
            <Row label="Username" value={entry.username} />
            <Row label="Password" value={entry.password} secret />
            {entry.notes && <Row label="Notes" value={entry.notes} />}
          </dl>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
