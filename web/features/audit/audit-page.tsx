import { ChevronDown, Download, FileJson, FileSpreadsheet, History, Loader2, RefreshCw, Search, ShieldAlert, ShieldCheck, ShieldQuestion } from 'lucide-react'
import { useId, useMemo, useState, type ComponentProps } from 'react'
import { AUDIT_ACTORS, AUDIT_MESSAGES, type AuditEntry } from '../../../contract/audit'
import { PageHeader } from '@/components/layout/page-header'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import { selectClass } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { LoadError } from '@/components/ui/load-error'
import { Spinner } from '@/components/ui/spinner'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { cn } from '@/lib/utils'
import { useAuditChain } from './api'
import { useAuditNames } from './names'
import type { ChainState } from './chain'
import { downloadText } from '@/lib/download-text'
import { auditCsv, auditJsonExport, exportFileName } from './export'
import {
  ACTOR_LABELS,
  filterEntries,
  describeDetails,
  formatTimestamp,
  GROUP_OPTIONS,
  HASH_CHARS,
  humaniseAction,
  isFiltered,
  NO_FILTERS,
  PREV_HASH_CHARS,
  type ActorFilter,
  type AuditFilters,
  type GroupFilter,
} from './format'

const PAGE_SIZE = 100

const ACTOR_BADGE = { user: 'default', system: 'secondary', beneficiary: 'warning', approver: 'outline' } as const

function entriesText(n: number): string {
  return `${n.toLocaleString('en')} ${n === 1 ? 'entry' : 'entries'}`
}

export function ChainBanner({ state }: { state: ChainState }) {
  if (state.status === 'checking') {
    return (
      <Alert role="status" data-testid="chain-banner">
        <Loader2 className="animate-spin text-brand-700" aria-hidden />
        <AlertTitle>Verifying chain...</AlertTitle>
        <AlertDescription>Every entry's hash is being recomputed in your browser.</AlertDescription>
      </Alert>
    )
  }
  if (state.status === 'unavailable') {
    return (
      <Alert variant="warning" data-testid="chain-banner">
        <ShieldQuestion aria-hidden />
        <AlertTitle>Chain not verified</AlertTitle>
        <AlertDescription>Your browser could not read the whole chain to check it. Reload the page to try again.</AlertDescription>
      </Alert>
    )
  }
  if (state.status === 'verified') {
    return (
      <Alert variant="success" data-testid="chain-banner">
        <ShieldCheck aria-hidden />
        <AlertTitle>{AUDIT_MESSAGES.chainVerified}</AlertTitle>
        <AlertDescription>
          {AUDIT_MESSAGES.chainVerifiedBody} {entriesText(state.checked)} checked in your browser
          {state.serverConfirmed ? ' and confirmed by the server.' : ". The server's own check could not be loaded."}
        </AlertDescription>
      </Alert>
    )
  }
  return (
    <Alert variant="destructive" data-testid="chain-banner">
      <ShieldAlert aria-hidden />
      <AlertTitle>{AUDIT_MESSAGES.chainCompromised}</AlertTitle>
      <AlertDescription className="grid gap-1">
        <p>{AUDIT_MESSAGES.chainCompromisedBody}</p>
        {state.brokenAt !== null && <p className="font-medium">First break at entry #{state.brokenAt}.</p>}
        {state.headRemoved && <p className="font-medium">The newest entry was removed: the log no longer ends with the last hash the server wrote.</p>}
      </AlertDescription>
    </Alert>
  )
}

function HashText({ label, value, chars }: { label: string; value: string; chars: number }) {
  return (
    <span className="inline-flex min-w-0 items-baseline gap-1.5">
      <span className="text-slate-500">{label}</span>
      <code className="truncate font-mono text-slate-700" title={value}>
        {value.slice(0, chars)}
      </code>
    </span>
  )
}

function EntryRow({ entry, broken, name }: { entry: AuditEntry; broken: boolean; name: (id: string) => string | undefined }) {
  const details = describeDetails(entry.details, name)
  return (
    <li>
      <Card className={cn('grid gap-3 p-4', broken && 'border-red-400 bg-red-50 ring-1 ring-red-300')} data-testid="audit-entry" data-seq={entry.seq}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <p className="font-medium break-words text-slate-900">{humaniseAction(entry.action)}</p>
            <p className="text-xs text-slate-500">
              #{entry.seq} · <time dateTime={entry.createdAt}>{formatTimestamp(entry.createdAt)}</time>
            </p>
          </div>
          <div className="flex flex-wrap gap-1.5">
            {broken && (
              <Badge variant="destructive">
                <ShieldAlert className="size-3" aria-hidden /> Chain breaks here
              </Badge>
            )}
            <Badge variant={ACTOR_BADGE[entry.actor] ?? 'secondary'}>{ACTOR_LABELS[entry.actor] ?? entry.actor}</Badge>
          </div>
        </div>
        {details.length > 0 && (
          <ul className="flex flex-wrap gap-1.5" aria-label="Details">
            {details.map(({ label, text }) => (
              <li key={label} className="max-w-full break-words rounded-md bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
                <span className="text-slate-600">{label}:</span> {text}
              </li>
            ))}
          </ul>
        )}
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
          <HashText label="hash" value={entry.hash} chars={HASH_CHARS} />
          <HashText label="prev" value={entry.prevHash} chars={PREV_HASH_CHARS} />
        </div>
      </Card>
    </li>
  )
}

/** A filter's select, its label for screen readers only. */
function FilterSelect({ label, ...props }: Omit<ComponentProps<'select'>, 'id' | 'className'> & { label: string }) {
  const id = useId()
  return (
    <div>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select id={id} className={selectClass} {...props} />
    </div>
  )
}

function FilterBar({ filters, onChange }: { filters: AuditFilters; onChange: (next: AuditFilters) => void }) {
  const id = useId()
  return (
    <div className="grid gap-3 sm:grid-cols-[1fr_auto_auto]">
      <div className="relative">
        <label htmlFor={`${id}-search`} className="sr-only">
          Search the audit log
        </label>
        <Search className="pointer-events-none absolute top-3 left-3 size-4 text-slate-400" aria-hidden />
        <Input
          id={`${id}-search`}
          type="search"
          placeholder="Search actions, actors and details"
          className="pl-9"
          value={filters.search}
          onChange={(e) => onChange({ ...filters, search: e.currentTarget.value })}
        />
      </div>
      <FilterSelect label="Actor" value={filters.actor} onChange={(e) => onChange({ ...filters, actor: e.currentTarget.value as ActorFilter })}>
        <option value="all">All actors</option>
        {AUDIT_ACTORS.map((a) => (
          <option key={a} value={a}>
            {ACTOR_LABELS[a]}
          </option>
        ))}
      </FilterSelect>
      <FilterSelect label="Action group" value={filters.group} onChange={(e) => onChange({ ...filters, group: e.currentTarget.value as GroupFilter })}>
        {GROUP_OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </FilterSelect>
    </div>
  )
}

function ExportMenu({ entries }: { entries: readonly AuditEntry[] | undefined }) {
  const save = (format: 'json' | 'csv') => {
    if (!entries) return
    try {
      const now = new Date()
      if (format === 'json') downloadText(auditJsonExport(entries, now), exportFileName('json', now), 'application/json')
      else downloadText(auditCsv(entries), exportFileName('csv', now), 'text/csv;charset=utf-8')
    } catch (error) {
      toast({ title: 'Export failed', description: errorText(error, 'The file could not be created.'), variant: 'destructive' })
    }
  }
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" disabled={!entries}>
          <Download aria-hidden /> Export <ChevronDown aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => save('json')}>
          <FileJson aria-hidden /> Export as JSON
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => save('csv')}>
          <FileSpreadsheet aria-hidden /> Export as CSV
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}

/** /audit (seeds 001 §2): the owner's hash-chained log, verified in the browser and by the server. */
export function AuditPage() {
  const { entries, state, refetch } = useAuditChain()
  const name = useAuditNames()
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS)
  const [limit, setLimit] = useState(PAGE_SIZE)
  const shown = useMemo(() => filterEntries(entries.data ?? [], filters), [entries.data, filters])
  const brokenAt = state.status === 'compromised' ? state.brokenAt : null
  // The marked entry is always rendered, however far down it is.
  const brokenIndex = brokenAt === null ? -1 : shown.findIndex((e) => e.seq === brokenAt)
  const visible = shown.slice(0, Math.max(limit, brokenIndex + 1))

  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader title="Audit Log" description="Every action on your account, each entry sealed with the hash of the one before it.">
        <div className="flex gap-2">
          <Button variant="ghost" size="icon" onClick={() => refetch()} disabled={entries.isFetching} aria-label="Refresh">
            <RefreshCw className={cn(entries.isFetching && 'animate-spin')} aria-hidden />
          </Button>
          <ExportMenu entries={entries.data} />
        </div>
      </PageHeader>

      {!entries.isError && <ChainBanner state={state} />}

      <FilterBar
        filters={filters}
        onChange={(next) => {
          setFilters(next)
          setLimit(PAGE_SIZE)
        }}
      />

      <section aria-labelledby="audit-entries-title">
        <h2 id="audit-entries-title" className="sr-only">
          Entries, newest first
        </h2>
        {entries.isPending ? (
          <div className="flex justify-center rounded-xl border border-slate-200 bg-white py-16">
            <Spinner className="size-7" label="Loading audit log" />
          </div>
        ) : entries.isError ? (
          <LoadError
            title="The audit log could not be loaded"
            message={errorText(entries.error, 'Please try again.')}
            onRetry={() => refetch()}
            retrying={entries.isFetching}
          />
        ) : !entries.data?.length ? (
          <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
            <History className="mx-auto size-10 text-slate-400" aria-hidden />
            <p className="mx-auto mt-3 max-w-md text-sm text-slate-700">{AUDIT_MESSAGES.empty}</p>
          </div>
        ) : shown.length === 0 ? (
          <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-sm text-slate-700">
            <p>No entries match your search and filters.</p>
            <Button variant="link" onClick={() => setFilters(NO_FILTERS)}>
              Clear filters
            </Button>
          </div>
        ) : (
          <>
            {isFiltered(filters) && (
              <p className="mb-3 text-sm text-slate-600">
                Showing {shown.length} of {entriesText(entries.data.length)}
              </p>
            )}
            <ol className="grid gap-3">
              {visible.map((entry, i) => (
                // Index in the key: a tampered log may repeat an id.
                <EntryRow key={`${i}:${entry.id}`} entry={entry} broken={entry.seq === brokenAt} name={name} />
              ))}
            </ol>
            {visible.length < shown.length && (
              <div className="mt-4 flex justify-center">
                <Button variant="outline" onClick={() => setLimit(visible.length + PAGE_SIZE)}>
                  Show more ({shown.length - visible.length} older)
                </Button>
              </div>
            )}
          </>
        )}
      </section>
    </div>
  )
}
