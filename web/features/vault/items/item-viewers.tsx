import { useQuery } from '@tanstack/react-query'
import { Check, Copy, Download, Eye, EyeOff } from 'lucide-react'
import { useEffect, useState } from 'react'
import type { ItemMetadata, VaultItem } from '../../../../contract/vault-items'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Spinner } from '@/components/ui/spinner'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { vaultSession } from '../vault-session'
import { decryptItemToBlob, decryptPasswordEntry, saveBlob } from './download'
import { formatMegabytes } from './item-format'

// Viewing an item without saving it: a password entry's fields, or a photo. The plaintext lives in
// a query that is dropped as soon as the dialog closes (gcTime 0), and a photo's object URL is
// revoked with it.

export const DOWNLOAD_FAILED_TITLE = 'Download Failed'
const DECRYPT_FALLBACK = 'The item could not be decrypted. Please try again.'

function DecryptProgress({ received, total, label }: { received: number; total: number; label: string }) {
  const percent = total > 0 ? Math.min(100, Math.round((received / total) * 100)) : 0
  return (
    <div className="grid justify-items-center gap-3 py-8 text-sm text-slate-600">
      <Spinner className="size-7" label={label} />
      <p aria-live="polite">
        {label} {percent}%
      </p>
    </div>
  )
}

function useProgress() {
  const [progress, setProgress] = useState({ received: 0, total: 0 })
  return [progress, (received: number, total: number) => setProgress({ received, total })] as const
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

function EntryRow({ label, value, secret = false }: { label: string; value: string; secret?: boolean }) {
  const [visible, setVisible] = useState(!secret)
  return (
    <div className="grid gap-1">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="flex items-center gap-2">
        <span
          className="min-w-0 flex-1 break-all rounded-md border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900"
          data-testid={`entry-${label.toLowerCase()}`}
        >
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
        {value && <CopyButton value={value} label={label} />}
      </dd>
    </div>
  )
}

/** 'View' for a password entry: decrypted here, shown with copy buttons. */
export function PasswordEntryDialog({ item, onClose }: { item: VaultItem | null; onClose: () => void }) {
  const [progress, onProgress] = useProgress()
  const query = useQuery({
    queryKey: ['vault-item-password', item?.id ?? ''],
    queryFn: () => decryptPasswordEntry(item!, vaultSession.requireKey(), { onProgress }),
    enabled: !!item,
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
  })
  return (
    <Dialog open={!!item} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="grid-cols-1">
        <DialogHeader>
          <DialogTitle>Password entry</DialogTitle>
          <DialogDescription>Decrypted in this browser. Close this window when you are done.</DialogDescription>
        </DialogHeader>
        {query.isPending ? (
          <DecryptProgress {...progress} label="Decrypting..." />
        ) : query.isError ? (
          <Alert variant="destructive">
            <AlertTitle>{DOWNLOAD_FAILED_TITLE}</AlertTitle>
            <AlertDescription>{errorText(query.error, DECRYPT_FALLBACK)}</AlertDescription>
          </Alert>
        ) : (
          <dl className="grid grid-cols-1 gap-4">
            <EntryRow label="Site" value={query.data.site} />
            <EntryRow label="Username" value={query.data.username} />
            <EntryRow label="Password" value={query.data.password} secret />
            {query.data.notes && (
              <div className="grid gap-1">
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Notes</dt>
                <dd className="whitespace-pre-wrap break-words rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-900">
                  {query.data.notes}
                </dd>
              </div>
            )}
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

/** 'Preview' for a photo: decrypted into memory and shown from an object URL, revoked on close. */
export function PhotoPreviewDialog({
  target,
  onClose,
}: {
  target: { item: VaultItem; metadata: ItemMetadata } | null
  onClose: () => void
}) {
  const [progress, onProgress] = useProgress()
  const query = useQuery({
    queryKey: ['vault-item-preview', target?.item.id ?? ''],
    queryFn: () => decryptItemToBlob(target!.item, target!.metadata.mimetype, vaultSession.requireKey(), { onProgress }),
    enabled: !!target,
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
  })
  const blob = target ? query.data : undefined
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    if (!blob) return
    const objectUrl = URL.createObjectURL(blob)
    setUrl(objectUrl)
    return () => {
      URL.revokeObjectURL(objectUrl)
      setUrl(null)
    }
  }, [blob])

  return (
    <Dialog open={!!target} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl grid-cols-1">
        <DialogHeader>
          <DialogTitle className="truncate">{target?.metadata.filename ?? 'Preview'}</DialogTitle>
          <DialogDescription>
            {target ? `${formatMegabytes(target.item.plainSize)} · decrypted in this browser, never stored unencrypted.` : ''}
          </DialogDescription>
        </DialogHeader>
        {query.isError ? (
          <Alert variant="destructive">
            <AlertTitle>{DOWNLOAD_FAILED_TITLE}</AlertTitle>
            <AlertDescription>{errorText(query.error, DECRYPT_FALLBACK)}</AlertDescription>
          </Alert>
        ) : url ? (
          <div className="flex justify-center rounded-lg bg-slate-100 p-2">
            <img src={url} alt={target?.metadata.filename ?? ''} className="max-h-[65dvh] w-auto max-w-full rounded object-contain" />
          </div>
        ) : (
          <DecryptProgress {...progress} label="Decrypting..." />
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
          {blob && target && (
            <Button onClick={() => saveBlob(blob, target.metadata.filename)}>
              <Download aria-hidden /> Download
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
