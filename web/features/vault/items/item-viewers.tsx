import { useQuery } from '@tanstack/react-query'
import { Download, Info } from 'lucide-react'
import { useEffect, useState } from 'react'
import type { ItemMetadata, VaultItem } from '../../../../contract/vault-items'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Spinner } from '@/components/ui/spinner'
import { errorText } from '@/lib/api-client'
import { formatBytes } from '@/lib/format-bytes'
import { previewRefusal } from '../upload/file-rules'
import { vaultSession } from '../vault-session'
import { decryptItemToBlob, decryptPasswordEntry, saveBlob } from './download'
import { EntryDialog, PasswordEntryFields } from './entry-view'

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
    <EntryDialog open={!!item} title="Password entry" onClose={onClose}>
      {query.isPending ? (
        <DecryptProgress {...progress} label="Decrypting..." />
      ) : query.isError ? (
        <Alert variant="destructive">
          <AlertTitle>{DOWNLOAD_FAILED_TITLE}</AlertTitle>
          <AlertDescription>{errorText(query.error, DECRYPT_FALLBACK)}</AlertDescription>
        </Alert>
      ) : (
        <PasswordEntryFields
          entry={query.data}
          notes={
            query.data.notes && (
              <div className="grid gap-1">
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Notes</dt>
                <dd className="whitespace-pre-wrap break-words rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-900">
                  {query.data.notes}
                </dd>
              </div>
            )
          }
        />
      )}
    </EntryDialog>
  )
}

/**
 * 'Preview' for a photo: decrypted into memory and shown from an object URL, revoked on close. A
 * picture too large to hold in memory is not decrypted: the dialog says why and offers the
 * download, which streams to disk.
 */
export function PhotoPreviewDialog({
  target,
  onClose,
  onDownload,
}: {
  target: { item: VaultItem; metadata: ItemMetadata } | null
  onClose: () => void
  /** The streamed download of the same item. */
  onDownload: () => void
}) {
  const [progress, onProgress] = useProgress()
  const refusal = target ? previewRefusal(target.item.plainSize) : null
  const query = useQuery({
    queryKey: ['vault-item-preview', target?.item.id ?? ''],
    queryFn: () => decryptItemToBlob(target!.item, target!.metadata.mimetype, vaultSession.requireKey(), { onProgress }),
    enabled: !!target && !refusal,
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
            {target ? `${formatBytes(target.item.plainSize)} · decrypted in this browser, never stored unencrypted.` : ''}
          </DialogDescription>
        </DialogHeader>
        {refusal ? (
          <Alert variant="info" data-testid="preview-refused">
            <Info aria-hidden />
            <AlertTitle>Preview unavailable</AlertTitle>
            <AlertDescription>{refusal}</AlertDescription>
          </Alert>
        ) : query.isError ? (
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
          {refusal ? (
            <Button onClick={() => (onClose(), onDownload())}>
              <Download aria-hidden /> Download
            </Button>
          ) : (
            blob &&
            target && (
              <Button onClick={() => saveBlob(blob, target.metadata.filename)}>
                <Download aria-hidden /> Download
              </Button>
            )
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
