import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import {
  Activity,
  ArrowRight,
  CalendarClock,
  CircleCheck,
  CircleX,
  Clock,
  FileUp,
  FolderLock,
  Loader2,
  ScrollText,
  ShieldCheck,
  ShieldAlert,
  TriangleAlert,
  UserPlus,
  Users,
  Workflow,
  type LucideIcon,
} from 'lucide-react'
import { useEffect, useState, type ReactNode } from 'react'
import { AUDIT_MESSAGES } from '../../../contract/audit'
import type { PublicUser } from '../../../contract/auth'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { useAuditChain } from '@/features/audit/api'
import { formatTimestamp, HASH_CHARS, humaniseAction } from '@/features/audit/format'
import { useCurrentUser } from '@/features/auth/api'
import { EmailConfirmationNotice } from '@/features/auth/email-confirmation'
import { beneficiariesQuery } from '@/features/circle/api'
import { policiesQuery } from '@/features/policies/api'
import { vaultItemsQuery } from '@/features/vault/items/api'
import { errorText } from '@/lib/api-client'
import { cn } from '@/lib/utils'
import { formatBytes } from '@/lib/format-bytes'
import { engineStatusQuery, triggersQuery } from '@/features/triggers/api'
import { useReleaseReadiness } from '@/features/readiness/api'
import { FixLink } from '@/features/readiness/fix-link'
import { groupProblems } from '@/features/readiness/group'
import type { ReadinessProblem } from '../../../contract/readiness'
import {
  chainRow,
  encryptionRow,
  headline,
  lastActivityAt,
  lastActivityText,
  monitorRow,
  nextCheckInCard,
  paidPlanOf,
  planLine,
  planRow,
  RECENT_ACTIVITY_COUNT,
  systemSummary,
  type StatusRow,
  type StatusTone,
} from './view-model'

/** The current time, moved on every minute so relative times stay true on an open tab. */
function useNow(intervalMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    const id = setInterval(() => setNow(new Date()), intervalMs)
    return () => clearInterval(id)
  }, [intervalMs])
  return now
}

interface QueryLike {
  isPending: boolean
  isError: boolean
  isFetching: boolean
  error: unknown
  refetch: () => unknown
}

/** A card's body while its own data loads or after it failed; otherwise the children. */
function CardState({ query, label, children }: { query: QueryLike; label: string; children: ReactNode }) {
  if (query.isError) {
    return (
      <div className="grid justify-items-start gap-1 text-sm text-red-700">
        <span>{errorText(query.error, `${label} could not be loaded`)}</span>
        <Button variant="link" size="sm" className="h-auto p-0" onClick={() => query.refetch()} disabled={query.isFetching}>
          {query.isFetching ? 'Retrying...' : 'Try again'}
        </Button>
      </div>
    )
  }
  if (query.isPending) return <Spinner className="size-5" label={`Loading ${label.toLowerCase()}`} />
  return <>{children}</>
}

function StatCard({ label, icon: Icon, query, value }: { label: string; icon: LucideIcon; query: QueryLike; value: ReactNode }) {
  return (
    <Card className="p-4 sm:p-5">
      <div className="flex items-start justify-between gap-2">
        <p className="text-sm font-medium text-slate-600">{label}</p>
        <Icon className="size-5 shrink-0 text-brand-700" aria-hidden />
      </div>
      <div className="mt-2 min-h-9 text-3xl font-bold text-slate-900">
        <CardState query={query} label={label}>
          {value}
        </CardState>
      </div>
    </Card>
  )
}

const TONE_ICON: Record<StatusTone, { icon: LucideIcon; className: string }> = {
  ok: { icon: CircleCheck, className: 'text-emerald-600' },
  warn: { icon: TriangleAlert, className: 'text-amber-600' },
  bad: { icon: CircleX, className: 'text-red-600' },
  pending: { icon: Loader2, className: 'animate-spin text-slate-400' },
}

const TONE_TEXT: Record<StatusTone, string> = {
  ok: 'text-emerald-700',
  warn: 'text-amber-700',
  bad: 'text-red-700',
  pending: 'text-slate-500',
}

function StatusList({ rows, vaultSetup }: { rows: StatusRow[]; vaultSetup: boolean }) {
  return (
    <ul className="grid gap-3">
      {rows.map((row) => {
        const { icon: Icon, className } = TONE_ICON[row.tone]
        return (
          <li key={row.label} className="flex items-center justify-between gap-3 text-sm" data-testid="status-row">
            <span className="flex items-center gap-2 text-slate-800">
              <Icon className={cn('size-4 shrink-0', className)} aria-hidden /> {row.label}
            </span>
            {row.label === 'Encryption' && !vaultSetup ? (
              <Link to="/vault" className="font-medium text-brand-700 underline-offset-4 hover:underline">
                {row.value}
              </Link>
            ) : row.label === 'Audit chain' && row.tone !== 'ok' && row.tone !== 'pending' ? (
              <Link to="/audit" className={cn('font-medium underline-offset-4 hover:underline', TONE_TEXT[row.tone])}>
                {row.value}
              </Link>
            ) : (
              <span className={cn('font-medium', TONE_TEXT[row.tone])}>{row.value}</span>
            )}
          </li>
        )
      })}
    </ul>
  )
}

function PlanCard({ user }: { user: PublicUser }) {
  const plan = paidPlanOf(user.planTier)
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your plan</CardTitle>
        <CardDescription>
          {planLine(user)}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2 text-sm text-slate-700">
        <p>
          Storage used: <strong>{formatBytes(user.storageUsed)}</strong>
          {plan && <> of {formatBytes(plan.limits.maxStorageBytes)}</>}
        </p>
        <p>
          Vault items: <strong>{user.vaultItemCount}</strong>
          {plan?.limits.maxItems != null && <> of {plan.limits.maxItems}</>}
        </p>
      </CardContent>
    </Card>
  )
}

const SHOWN_PROBLEMS = 6

/** What would stop a release today, each with the link that fixes it; items grouped by reason. */
function ReadinessPanel({ problems }: { problems: ReadinessProblem[] }) {
  const groups = groupProblems(problems)
  const shown = groups.slice(0, SHOWN_PROBLEMS)
  return (
    <Card className="border-amber-300" data-testid="readiness-panel">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <TriangleAlert className="size-5 text-amber-600" aria-hidden /> What would stop a release today
        </CardTitle>
        <CardDescription>Fix these so that what you chose reaches the people you chose.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3">
          {shown.map((g) => (
            <li key={g.key} className="flex flex-wrap items-start justify-between gap-2 text-sm" data-testid="readiness-problem">
              <span className="flex min-w-0 items-start gap-2 text-slate-800">
                {g.severity === 'error' ? (
                  <CircleX className="mt-0.5 size-4 shrink-0 text-red-600" aria-label="Problem" />
                ) : (
                  <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-600" aria-label="Warning" />
                )}
                <span>
                  {g.message}
                  {g.count > 1 && <span className="text-slate-600"> ({g.count} items)</span>}
                </span>
              </span>
              <FixLink fix={g.fix} className="font-medium text-brand-700 underline-offset-4 hover:underline" />
            </li>
          ))}
        </ul>
        {groups.length > shown.length && <p className="mt-3 text-sm text-slate-600">And {groups.length - shown.length} more.</p>}
      </CardContent>
    </Card>
  )
}

const quickActions = [
  { to: '/vault', label: 'Upload Documents', icon: FileUp },
  { to: '/beneficiaries', label: 'Add Beneficiary', icon: UserPlus },
  { to: '/protocols', label: 'Configure Access Policies', icon: Workflow },
] as const

/** /dashboard (seeds 001 §2) with live figures: every card loads, and fails, on its own. */
export function DashboardPage() {
  const { data: user } = useCurrentUser()
  const enabled = !!user
  const now = useNow()
  const engine = useQuery({ ...engineStatusQuery, enabled })
  const items = useQuery({ ...vaultItemsQuery, enabled })
  const beneficiaries = useQuery({ ...beneficiariesQuery, enabled })
  const policies = useQuery({ ...policiesQuery, enabled })
  const audit = useAuditChain({ enabled })
  const triggers = useQuery({ ...triggersQuery, enabled })
  const readiness = useReleaseReadiness({ enabled })
  if (!user) return null

  const entries = audit.entries
  const rows = [planRow(readiness), encryptionRow(user.vaultSetup), monitorRow(engine, triggers.data), chainRow(audit.state)]
  const nextCheckIn = nextCheckInCard(engine.data, now)
  const summary = systemSummary(rows)
  const activityLoading = (engine.isPending && !engine.isError) || (entries.isPending && !entries.isError)
  const lastActivity = activityLoading
    ? 'Checking...'
    : lastActivityText(lastActivityAt(engine.data?.lastCheckInAt, entries.data?.[0]), now)
  const SummaryIcon = TONE_ICON[summary.tone].icon
  const title = headline(readiness, engine)

  return (
    <div className="grid grid-cols-1 gap-6">
      <section className="rounded-xl bg-gradient-to-r from-brand-800 to-brand-600 p-5 text-white sm:p-8" aria-labelledby="dashboard-title">
        <div className="flex items-center gap-3">
          {title.protected ? <ShieldCheck className="size-8 shrink-0" aria-hidden /> : <ShieldAlert className="size-8 shrink-0" aria-hidden />}
          <h1 id="dashboard-title" className="text-xl font-bold sm:text-2xl">
            {title.text}
          </h1>
        </div>
        <p className="mt-1 text-sm text-brand-100">Welcome, {user.displayName}</p>
        {title.next && (
          <FixLink
            fix={title.next}
            className="mt-3 inline-flex items-center rounded-md bg-white px-3 py-1.5 text-sm font-medium text-brand-800 hover:bg-brand-50"
          />
        )}
        <div className="mt-4 flex flex-col gap-2 text-sm sm:flex-row sm:flex-wrap sm:gap-6">
          <span className="flex items-center gap-2" data-testid="last-activity">
            <Clock className="size-4 shrink-0" aria-hidden /> Last Activity: {lastActivity}
          </span>
          <span className="flex items-center gap-2" data-testid="system-summary">
            <SummaryIcon className={cn('size-4 shrink-0', summary.tone === 'pending' && 'animate-spin')} aria-hidden />
            {summary.text}
          </span>
        </div>
      </section>

      <EmailConfirmationNotice />

      {readiness.data && readiness.data.problems.length > 0 && <ReadinessPanel problems={readiness.data.problems} />}

      <div className={cn('grid grid-cols-2 gap-3 sm:gap-4', nextCheckIn === null ? 'lg:grid-cols-3' : 'lg:grid-cols-4')}>
        <StatCard label="Vault Items" icon={FolderLock} query={items} value={items.data?.length} />
        <StatCard label="Beneficiaries" icon={Users} query={beneficiaries} value={beneficiaries.data?.length} />
        <StatCard
          label="Access Policies"
          icon={ScrollText}
          query={policies}
          value={policies.data?.filter((p) => p.status === 'active').length}
        />
        {nextCheckIn !== null && <StatCard label="Next Check-in" icon={CalendarClock} query={engine} value={nextCheckIn} />}
      </div>

      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Quick Actions</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-2">
            {quickActions.map((action) => (
              <Button key={action.label} variant="outline" className="justify-start" asChild>
                <Link to={action.to}>
                  <action.icon aria-hidden /> {action.label}
                </Link>
              </Button>
            ))}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>System Status</CardTitle>
          </CardHeader>
          <CardContent>
            <StatusList rows={rows} vaultSetup={user.vaultSetup} />
          </CardContent>
        </Card>
      </div>

      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader className="flex-row items-center justify-between gap-2">
            <CardTitle className="flex items-center gap-2">
              <Activity className="size-5 text-brand-700" aria-hidden /> Recent Activity
            </CardTitle>
            <Button variant="ghost" size="sm" asChild>
              <Link to="/audit">
                View All <ArrowRight aria-hidden />
              </Link>
            </Button>
          </CardHeader>
          <CardContent>
            <CardState query={entries} label="Recent activity">
              {entries.data?.length ? (
                <ul className="divide-y divide-slate-100">
                  {entries.data.slice(0, RECENT_ACTIVITY_COUNT).map((entry) => (
                    <li key={entry.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2.5">
                      <span className="min-w-0">
                        <span className="block font-medium break-words text-slate-900">{humaniseAction(entry.action)}</span>
                        <time dateTime={entry.createdAt} className="text-xs text-slate-500">
                          {formatTimestamp(entry.createdAt)}
                        </time>
                      </span>
                      <code className="font-mono text-xs text-slate-500" title={entry.hash}>
                        {entry.hash.slice(0, HASH_CHARS)}
                      </code>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-slate-600">{AUDIT_MESSAGES.empty}</p>
              )}
            </CardState>
          </CardContent>
        </Card>
        <PlanCard user={user} />
      </div>
    </div>
  )
}
