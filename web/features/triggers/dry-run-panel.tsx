import { Heading } from '@/components/ui/heading-level'
import { AlertTriangle, Lock, LockOpen, PackageOpen } from 'lucide-react'
import { useMemo, useState } from 'react'
import type { DryRunResult } from '../../../contract/triggers'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { useCurrentUser } from '@/features/auth/api'
import { useVaultItems } from '@/features/vault/items/api'
import { useDecryptedMetadata } from '@/features/vault/items/decrypt-items'
import { useVaultUnlocked } from '@/features/vault/vault-session'
import { VaultUnlockDialog } from '@/features/vault/vault-unlock-dialog'
import { formatWhen, LOCKED_NAMES_HINT } from './copy'
import { dryRunView, type DryRunCauseView, type KnownItem } from './dry-run'

export function PaymentHoldNotice({ until }: { until: string | null }) {
  return (
    <Alert variant="warning">
      <AlertTriangle aria-hidden />
      <AlertTitle>Triggers are on hold</AlertTitle>
      <AlertDescription>
        A payment issue is being resolved{until ? ` (grace period until ${formatWhen(until)})` : ''}. Until then no trigger fires
        and nothing is released.
      </AlertDescription>
    </Alert>
  )
}

/** A dry run's result: per source, its conditions, who and which items. File names only with the vault unlocked. */
export function DryRunPanel({ result }: { result: DryRunResult }) {
  const unlocked = useVaultUnlocked()
  const { data: user } = useCurrentUser()
  const [unlockOpen, setUnlockOpen] = useState(false)
  const vaultItems = useVaultItems()
  const referenced = useMemo(() => {
    const ids = new Set(result.causes.flatMap((c) => c.entries.flatMap((e) => e.itemIds)))
    return (vaultItems.data ?? []).filter((item) => ids.has(item.id))
  }, [vaultItems.data, result])
  const metadata = useDecryptedMetadata(referenced)
  const known = new Map<string, KnownItem>(
    referenced.map((item) => {
      const entry = metadata.get(item.id)
      return [item.id, { type: item.type, filename: entry?.status === 'ready' ? entry.metadata.filename : undefined }]
    }),
  )
  const view = dryRunView(result, known)

  return (
    <section aria-labelledby="dry-run-title" aria-live="polite" className="grid gap-4 rounded-lg border border-slate-200 bg-slate-50/60 p-4" data-testid="dry-run-result">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="dry-run-title" className="font-semibold text-slate-900">
          Dry Run Result
        </h3>
        <Badge variant="secondary">Nothing was released</Badge>
      </div>
      {view.paymentHold && <PaymentHoldNotice until={null} />}
      {vaultItems.isPending && (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4" label="Loading your items" /> Loading your items...
        </p>
      )}
      {view.namesHidden && !unlocked && (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-white p-3 text-sm text-slate-700">
          <span className="flex items-center gap-2">
            <Lock className="size-4 shrink-0 text-slate-500" aria-hidden /> {LOCKED_NAMES_HINT}
          </span>
          {user?.vaultSetup && (
            <Button size="sm" variant="outline" onClick={() => setUnlockOpen(true)}>
              <LockOpen aria-hidden /> Unlock Vault
            </Button>
          )}
        </div>
      )}
      {view.causes.map((cause) => (
        <CauseSection key={cause.key} cause={cause} safetyWindow={cause.key === 'fires' ? view.safetyWindow : null} />
      ))}
      <VaultUnlockDialog open={unlockOpen} onOpenChange={setUnlockOpen} />
    </section>
  )
}

/** One cause: what it would release, to whom, from when. */
function CauseSection({ cause, safetyWindow }: { cause: DryRunCauseView; safetyWindow: string | null }) {
  const id = `dry-run-cause-${cause.key}`
  return (
    <section aria-labelledby={id} className="grid gap-3 rounded-lg border border-slate-200 bg-white/70 p-3" data-testid={`dry-run-cause-${cause.key}`}>
      <Heading id={id} className="font-semibold text-slate-900">
        {cause.label}
      </Heading>
      <p className="text-sm font-medium text-slate-800">
        {cause.summary}
        {cause.when && <span className="font-normal text-slate-700"> · {cause.when}</span>}
      </p>
      {!cause.empty && safetyWindow && (
        <p className="text-sm text-slate-700" data-testid="dry-run-safety-window">
          {safetyWindow}
        </p>
      )}
      {cause.empty ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-6 text-center">
          <PackageOpen className="mx-auto size-7 text-slate-400" aria-hidden />
          <p className="mx-auto mt-1 max-w-md text-sm text-slate-600">No active policy or item release condition would go this way.</p>
        </div>
      ) : (
        <ol className="grid gap-3">
          {cause.entries.map((entry) => (
            <li key={entry.key} className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4">
              <p className="font-medium text-slate-900">{entry.source}</p>
              <ul className="flex flex-wrap gap-1.5" aria-label="Conditions">
                {entry.conditions.map((c) => (
                  <li key={c}>
                    <Badge variant="outline">{c}</Badge>
                  </li>
                ))}
              </ul>
              <div className="grid gap-1 text-sm">
                <span className="text-xs font-medium uppercase tracking-wide text-slate-500">Beneficiaries</span>
                {entry.beneficiaries.length ? (
                  <ul className="flex flex-wrap gap-x-3 gap-y-1">
                    {entry.beneficiaries.map((b) => (
                      <li key={b.id} className="text-slate-900">
                        {b.name}
                        {b.note && <span className="text-slate-500"> ({b.note})</span>}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <span className="text-slate-500">None</span>
                )}
              </div>
              <div className="grid gap-2 text-sm">
                <span className="text-xs font-medium uppercase tracking-wide text-slate-500">Items</span>
                {entry.groups.length === 0 && <span className="text-slate-500">No items</span>}
                {entry.groups.map((group) => (
                  <div key={group.heading}>
                    <p className="font-medium text-slate-800">{group.heading}</p>
                    <ul className="ml-4 list-disc text-slate-700">
                      {group.labels.map((label, i) => (
                        <li key={`${label}-${i}`} className="break-all">
                          {label}
                        </li>
                      ))}
                    </ul>
                  </div>
                ))}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
