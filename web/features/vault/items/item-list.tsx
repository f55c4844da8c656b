import { Download, Eye, FolderLock, Image, KeyRound, Lock, LockOpen, Search, ShieldAlert, Tag, Trash2, TriangleAlert, Upload, X } from 'lucide-react'
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react'
import type { ReadinessProblem } from '../../../../contract/readiness'
import { ITEM_TYPES, VAULT_ITEM_MESSAGES, type ItemMetadata, type ItemType, type VaultItem } from '../../../../contract/vault-items'
import { FixLink } from '@/features/readiness/fix-link'
import { useReleaseReadiness } from '@/features/readiness/api'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { LoadError } from '@/components/ui/load-error'
import { Spinner } from '@/components/ui/spinner'
import { errorText, PaymentRedirectError } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { cn } from '@/lib/utils'
import { formatBytes } from '@/lib/format-bytes'
import { vaultSession } from '../vault-session'
import { useDeleteVaultItem, useVaultItems } from './api'
import { closesViewers, useDecryptedMetadata, type DecryptedMetadata } from './decrypt-items'
import { downloadItem } from './download'
import { formatDate, ITEM_TYPE_META } from './item-format'
import { visibleItems } from './search'
import { DOWNLOAD_FAILED_TITLE, PasswordEntryDialog, PhotoPreviewDialog } from './item-viewers'
import { isPreviewableImage } from '../upload/file-rules'

// The item list on /vault (seeds 001 §2 'Secure Vault page'). Names and tags are decrypted in the
// browser; while the vault is locked each item shows only what the server knows (type, size, date,
// policy) and the page invites the owner to unlock.

type TypeFilter = 'all' | ItemType

const FALLBACK = 'Please try again.'

function displayName(entry: DecryptedMetadata | undefined): string {
  if (entry?.status === 'ready') return entry.metadata.filename
  if (entry?.status === 'error') return 'Undecryptable item'
  if (entry?.status === 'pending') return 'Decrypting...'
  return 'Locked item'
}

function ItemRow({
  item,
  entry,
  busy,
  onDownload,
  onView,
  onPreview,
  onDelete,
  problems = [],
}: {
  item: VaultItem
  entry: DecryptedMetadata | undefined
  /** What would stop this item reaching its people today (release readiness). */
  problems?: ReadinessProblem[]
  busy: { label: string; percent: number } | null
  onDownload: () => void
  onView: () => void
  onPreview: () => void
  onDelete: () => void
}) {
  const meta = ITEM_TYPE_META[item.type]
  const Icon = meta.icon
  const ready = entry?.status === 'ready' ? entry.metadata : null
  const locked = !entry || entry.status === 'locked'
  const name = displayName(entry)
  return (
    <li data-testid="vault-item" data-type={item.type}>
      <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
        <div className="flex min-w-0 flex-1 items-start gap-3">
          <span className={cn('flex size-10 shrink-0 items-center justify-center rounded-lg', locked ? 'bg-slate-100 text-slate-500' : meta.tile)} aria-hidden>
            <Icon className="size-5" />
          </span>
          <div className="grid min-w-0 flex-1 gap-1">
            <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
              <h3
                className={cn('min-w-0 max-w-full truncate font-medium', locked || entry?.status === 'error' ? 'text-slate-500' : 'text-slate-900')}
                data-testid="vault-item-name"
                title={ready?.filename}
              >
                {locked && <Lock className="mr-1 inline size-3.5 align-[-2px]" aria-hidden />}
                {name}
              </h3>
              <Badge variant="secondary">{meta.label}</Badge>
              {item.accessPolicy.requiresApprover && (
                <Badge variant="warning" title={item.accessPolicy.approverContact ?? undefined}>
                  <ShieldAlert className="size-3" aria-hidden /> Requires Approval
                </Badge>
              )}
              {!item.sealed && (
                <Badge variant="outline" className="font-normal text-slate-600" title={VAULT_ITEM_MESSAGES.notYetSealedHint} data-testid="vault-item-unsealed">
                  {VAULT_ITEM_MESSAGES.notYetSealed}
                  <span className="sr-only">: {VAULT_ITEM_MESSAGES.notYetSealedHint}</span>
                </Badge>
              )}
            </div>
            <p className="flex flex-wrap gap-x-2 text-xs text-slate-600">
              {/* A password is a few characters: its size would only say "0.0 KB". */}
              {item.type !== 'password' && (
                <>
                  <span>{formatBytes(item.plainSize)}</span>
                  <span aria-hidden>·</span>
                </>
              )}
              <span>Added {formatDate(item.createdAt)}</span>
              <span aria-hidden>·</span>
              <span data-testid="vault-item-policy">{item.accessPolicy.name}</span>
            </p>
            {problems.length > 0 && (
              <ul className="grid gap-1" aria-label="Release problems">
                {problems.map((p) => (
                  <li key={p.kind} className="flex flex-wrap items-center gap-x-2 text-xs text-red-700" data-testid="vault-item-problem">
                    <TriangleAlert className="size-3.5 shrink-0" aria-hidden />
                    <span>{p.message}</span>
                    <FixLink fix={p.fix} className="font-medium text-brand-700 underline-offset-4 hover:underline" />
                  </li>
                ))}
              </ul>
            )}
            {ready && ready.tags.length > 0 && (
              <ul className="flex flex-wrap gap-1" aria-label="Tags">
                {ready.tags.map((tag) => (
                  <li key={tag}>
                    <Badge variant="outline" className="font-normal">
                      <Tag className="size-3" aria-hidden /> {tag}
                    </Badge>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
        <div className="flex shrink-0 items-center justify-end gap-2">
          {busy ? (
            <span className="inline-flex h-9 items-center gap-2 px-2 text-sm text-slate-600" aria-live="polite">
              <Spinner className="size-4" label={busy.label} />
              <span aria-hidden>
                {busy.label} {busy.percent}%
              </span>
            </span>
          ) : ready ? (
            <>
              {item.type === 'password' ? (
                <Button variant="outline" size="sm" onClick={onView} aria-label={`View ${ready.filename}`}>
                  <Eye aria-hidden /> View
                </Button>
              ) : (
                <>
                  {item.type === 'photo' && isPreviewableImage(ready.mimetype) && (
                    <Button variant="outline" size="sm" onClick={onPreview} aria-label={`Preview ${ready.filename}`}>
                      <Image aria-hidden /> Preview
                    </Button>
                  )}
                  <Button variant="outline" size="sm" onClick={onDownload} aria-label={`Download ${ready.filename}`}>
                    <Download aria-hidden /> <span className="sm:sr-only lg:not-sr-only">Download</span>
                  </Button>
                </>
              )}
            </>
          ) : null}
          <Button
            variant="ghost"
            size="icon"
            className="size-9 text-slate-500 hover:bg-red-50 hover:text-red-700"
            onClick={onDelete}
            disabled={!!busy}
            aria-label={`Delete ${ready?.filename ?? `${meta.label.toLowerCase()} item`}`}
          >
            <Trash2 aria-hidden />
          </Button>
        </div>
      </Card>
    </li>
  )
}

function EmptyState({ icon: Icon, title, text, action }: { icon: typeof Upload; title: string; text: string; action: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <Icon className="mx-auto size-10 text-slate-400" aria-hidden />
      <h3 className="mt-3 font-semibold text-slate-900">{title}</h3>
      <p className="mx-auto mt-1 max-w-md text-sm text-slate-600">{text}</p>
      <div className="mt-5">{action}</div>
    </div>
  )
}

/** Search, type filter and the list, with its loading, error, empty and locked states. */
export function VaultItemList({ unlocked, onAdd, onUnlock }: { unlocked: boolean; onAdd: () => void; onUnlock: () => void }) {
  const { data: items, isPending, isError, error, refetch, isFetching } = useVaultItems()
  const readiness = useReleaseReadiness()
  const problemsByItem = useMemo(() => {
    const map = new Map<string, ReadinessProblem[]>()
    for (const p of readiness.data?.problems ?? []) {
      if (p.subject.type !== 'item') continue
      map.set(p.subject.id, [...(map.get(p.subject.id) ?? []), p])
    }
    return map
  }, [readiness.data])
  const metadata = useDecryptedMetadata(items)
  const remove = useDeleteVaultItem()
  const [search, setSearch] = useState('')
  const [typeFilter, setTypeFilter] = useState<TypeFilter>('all')
  const [deleting, setDeleting] = useState<VaultItem | null>(null)
  const [viewing, setViewing] = useState<VaultItem | null>(null)
  const [previewing, setPreviewing] = useState<{ item: VaultItem; metadata: ItemMetadata } | null>(null)
  const [busy, setBusy] = useState<Record<string, { label: string; percent: number }>>({})
  const searchId = useId()
  const filterId = useId()

  const { visible, filtered: filtersActive } = visibleItems(items ?? [], { type: typeFilter, search, unlocked }, (id) => metadata.get(id))

  // Decrypted content on screen goes away with the key.
  useEffect(() => {
    if (!closesViewers(unlocked)) return
    setViewing(null)
    setPreviewing(null)
  }, [unlocked])

  async function download(item: VaultItem, meta: ItemMetadata) {
    const progress = (percent: number) => setBusy((current) => ({ ...current, [item.id]: { label: 'Decrypting', percent } }))
    progress(0)
    try {
      await downloadItem(item, meta, vaultSession.requireKey(), {
        onProgress: (received, total) => progress(total > 0 ? Math.min(100, Math.round((received / total) * 100)) : 100),
      })
    } catch (err) {
      toast({ title: DOWNLOAD_FAILED_TITLE, description: errorText(err, FALLBACK), variant: 'destructive' })
    } finally {
      setBusy(({ [item.id]: _done, ...rest }) => rest)
    }
  }

  function confirmDelete() {
    if (!deleting) return
    const entry = metadata.get(deleting.id)
    remove.mutate(deleting.id, {
      onSuccess: () => {
        setDeleting(null)
        toast({
          title: 'Item deleted',
          description: entry?.status === 'ready' ? `${entry.metadata.filename} was removed from your vault.` : 'The item was removed from your vault.',
          variant: 'success',
        })
      },
      onError: (err) => {
        if (err instanceof PaymentRedirectError) return
        toast({ title: 'Delete failed', description: errorText(err, FALLBACK), variant: 'destructive' })
      },
    })
  }

  const deletingEntry = deleting ? metadata.get(deleting.id) : undefined
  const deletingName =
    deletingEntry?.status === 'ready' ? deletingEntry.metadata.filename : deleting ? `this ${ITEM_TYPE_META[deleting.type].label.toLowerCase()}` : ''

  let body: ReactNode
  if (isPending) {
    body = (
      <div className="flex justify-center rounded-xl border border-slate-200 bg-white py-16">
        <Spinner className="size-7" label="Loading vault items" />
      </div>
    )
  } else if (isError) {
    body = <LoadError title="Your vault items could not be loaded" message={errorText(error, FALLBACK)} onRetry={() => refetch()} retrying={isFetching} />
  } else if (items.length === 0) {
    body = (
      <EmptyState
        icon={FolderLock}
        title="No vault items yet"
        text="Add documents, photos, videos and passwords. Each one is encrypted in this browser before it is uploaded, and only the beneficiaries you choose can ever open it."
        action={
          <Button onClick={onAdd}>
            <Upload aria-hidden /> Upload First Item
          </Button>
        }
      />
    )
  } else if (visible.length === 0) {
    body = (
      <EmptyState
        icon={Search}
        title="No items found"
        text="Nothing in your vault matches this search or filter."
        action={
          <Button
            variant="outline"
            onClick={() => {
              setSearch('')
              setTypeFilter('all')
            }}
          >
            <X aria-hidden /> Clear filters
          </Button>
        }
      />
    )
  } else {
    body = (
      <ul className="grid grid-cols-1 gap-3" aria-label="Vault items">
        {visible.map((item) => {
          const entry = metadata.get(item.id)
          const ready = entry?.status === 'ready' ? entry.metadata : null
          return (
            <ItemRow
              key={item.id}
              item={item}
              entry={entry}
              busy={busy[item.id] ?? null}
              onDownload={() => ready && download(item, ready)}
              onView={() => setViewing(item)}
              onPreview={() => ready && setPreviewing({ item, metadata: ready })}
              onDelete={() => setDeleting(item)}
              problems={problemsByItem.get(item.id)}
            />
          )
        })}
      </ul>
    )
  }

  return (
    <section aria-labelledby="vault-items-title" className="grid grid-cols-1 gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="vault-items-title" className="text-lg font-semibold text-slate-900">
          Your items
          {items && items.length > 0 && (
            <span className="ml-2 text-sm font-normal text-slate-500">
              {filtersActive ? `${visible.length} of ${items.length}` : items.length}
            </span>
          )}
        </h2>
      </div>
      <div className="grid gap-3 sm:grid-cols-[1fr_12rem]">
        <div className="grid gap-1.5">
          <Label htmlFor={searchId} className="sr-only">
            Search vault items
          </Label>
          <div className="relative">
            <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden />
            <Input
              id={searchId}
              type="search"
              className="pl-9"
              placeholder={unlocked ? 'Search by name or tag' : 'Unlock your vault to search'}
              value={unlocked ? search : ''}
              onChange={(event) => setSearch(event.target.value)}
              disabled={!unlocked}
              autoComplete="off"
            />
          </div>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={filterId} className="sr-only">
            Filter by type
          </Label>
          <select
            id={filterId}
            value={typeFilter}
            onChange={(event) => setTypeFilter(event.target.value as TypeFilter)}
            className="h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-base text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 sm:text-sm"
          >
            <option value="all">All types</option>
            {ITEM_TYPES.map((type) => (
              <option key={type} value={type}>
                {ITEM_TYPE_META[type].plural}
              </option>
            ))}
          </select>
        </div>
      </div>

      {!unlocked && items && items.length > 0 && (
        <div className="flex flex-col gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900 sm:flex-row sm:items-center sm:justify-between">
          <p className="flex items-start gap-2">
            <KeyRound className="mt-0.5 size-4 shrink-0" aria-hidden />
            <span>Names, tags and contents are encrypted. Unlock your vault to see, search and open your items.</span>
          </p>
          <Button size="sm" onClick={onUnlock} className="self-start sm:self-auto">
            <LockOpen aria-hidden /> Unlock Vault
          </Button>
        </div>
      )}

      {body}

      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(open) => !open && !remove.isPending && setDeleting(null)}
        title="Delete this item?"
        description={
          <>
            <span className="font-medium text-slate-900">{deletingName}</span> will be permanently deleted from your vault,
            together with every beneficiary's access to it. This cannot be undone.
          </>
        }
        confirmLabel={remove.isPending ? 'Deleting...' : 'Delete'}
        onConfirm={confirmDelete}
        pending={remove.isPending}
      />
      <PasswordEntryDialog key={`password-${viewing?.id ?? 'none'}`} item={viewing} onClose={() => setViewing(null)} />
      <PhotoPreviewDialog
        key={`preview-${previewing?.item.id ?? 'none'}`}
        target={previewing}
        onClose={() => setPreviewing(null)}
        onDownload={() => previewing && void download(previewing.item, previewing.metadata)}
      />
    </section>
  )
}
