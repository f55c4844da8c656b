import { BarChart3, DollarSign, HardDrive, Receipt, Tag, Users, UserCheck, type LucideIcon } from 'lucide-react'
import { Tabs } from 'radix-ui'
import { useState, type ReactNode } from 'react'
import { Card } from '@/components/ui/card'
import { LoadError } from '@/components/ui/load-error'
import { errorText } from '@/lib/api-client'
import { cn } from '@/lib/utils'
import { useAdminActions, useAdminDashboard } from './api'
import { AdminLayout } from './admin-layout'
import { useAdminGuard } from './admin-guard'
import { AnalyticsTab } from './analytics-tab'
import { formatBytes } from '@/lib/format-bytes'
import { formatDate, formatDollars, shortUserId } from './logic'
import { PromoTab } from './promo-tab'
import { RefundsTab } from './refunds-tab'
import { UsersTab } from './users-tab'

const TABS = [
  { value: 'users', label: 'Users', icon: Users },
  { value: 'promo-codes', label: 'Promo Codes', icon: Tag },
  { value: 'refunds', label: 'Refunds', icon: Receipt },
  { value: 'analytics', label: 'Analytics', icon: BarChart3 },
] as const

export function AdminDashboard() {
  const dashboard = useAdminDashboard()
  useAdminGuard(dashboard.error)
  const [tab, setTab] = useState<string>('users')

  return (
    <AdminLayout>
      {/* Grid items may shrink below their content (min-w-0): a wide table scrolls in its card, not the page. */}
      <div className="grid grid-cols-1 gap-8 [&>*]:min-w-0">
        <StatCards query={dashboard} />
        <Tabs.Root value={tab} onValueChange={setTab} className="grid grid-cols-1 gap-4 [&>*]:min-w-0">
          {/* Two by two on a phone: every section in view, none hidden past the edge. */}
          <Tabs.List aria-label="Admin sections" className="grid w-full grid-cols-2 gap-1 rounded-lg bg-slate-100 p-1 sm:flex sm:w-fit">
            {TABS.map(({ value, label, icon: Icon }) => (
              <Tabs.Trigger
                key={value}
                value={value}
                className="inline-flex shrink-0 items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm"
              >
                <Icon className="size-4" aria-hidden /> {label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value="users" className="focus-visible:outline-none">
            <UsersTab />
          </Tabs.Content>
          <Tabs.Content value="promo-codes" className="focus-visible:outline-none">
            <PromoTab />
          </Tabs.Content>
          <Tabs.Content value="refunds" className="focus-visible:outline-none">
            <RefundsTab />
          </Tabs.Content>
          <Tabs.Content value="analytics" className="focus-visible:outline-none">
            <AnalyticsTab />
          </Tabs.Content>
        </Tabs.Root>
        <AdminActivity />
      </div>
    </AdminLayout>
  )
}

function StatCards({ query }: { query: ReturnType<typeof useAdminDashboard> }) {
  if (query.isError && !query.data) {
    return (
      <LoadError
        title="Could not load the figures"
        message={errorText(query.error, 'The dashboard figures could not be loaded.')}
        onRetry={() => query.refetch()}
        retrying={query.isFetching}
      />
    )
  }
  const d = query.data
  const loading = !d
  return (
    <section aria-label="Summary" aria-busy={loading} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard icon={Users} title="Total Users" value={d ? d.totalUsers.toLocaleString('en-US') : null} sub={d ? `+${d.newSignupsThisMonth} new this month` : null} />
      <StatCard
        icon={UserCheck}
        title="Active Subscriptions"
        value={d ? d.activeSubscriptions.toLocaleString('en-US') : null}
        sub={d ? `+${d.upgradesThisMonth} upgrades this month` : null}
      />
      <StatCard
        icon={DollarSign}
        title="Monthly Revenue"
        value={d ? formatDollars(d.monthlyRevenue) : null}
        sub={d ? `${formatDollars(d.refundsThisMonth)} refunded this month` : null}
      />
      <StatCard icon={HardDrive} title="Storage Used" value={d ? formatBytes(d.storageUsedBytes) : null} sub={d ? 'Across all vaults' : null} />
    </section>
  )
}

function StatCard({ icon: Icon, title, value, sub }: { icon: LucideIcon; title: string; value: ReactNode | null; sub: ReactNode | null }) {
  return (
    <Card className="p-5" data-testid="admin-stat">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-sm font-medium text-slate-600">{title}</h2>
        <Icon className="size-5 text-brand-700" aria-hidden />
      </div>
      {value === null ? (
        <div className="mt-3 grid gap-2" aria-hidden>
          <div className="h-7 w-24 animate-pulse rounded bg-slate-200" />
          <div className="h-4 w-32 animate-pulse rounded bg-slate-100" />
        </div>
      ) : (
        <>
          <p className="mt-2 text-2xl font-bold tabular-nums text-slate-900">{value}</p>
          <p className="mt-1 text-xs text-slate-500">{sub}</p>
        </>
      )}
    </Card>
  )
}

const ACTION_LABELS: Record<string, string> = {
  'user.pause': 'Account paused',
  'user.resume': 'Account resumed',
  'user.extend': 'Subscription extended',
  'user.delete': 'Account deleted',
  'user.vault_export': 'Vault exported for support',
  'refund.create': 'Refund issued',
  'promo.create': 'Promo code created',
  'promo.delete': 'Promo code deleted',
}
const actionLabel = (action: string) => ACTION_LABELS[action] ?? action

/** The admin audit trail, shown only when the server offers it. */
function AdminActivity() {
  const actions = useAdminActions()
  const list = actions.data
  if (!Array.isArray(list)) return null
  return (
    <section aria-labelledby="admin-activity-title" className="grid gap-3">
      <h2 id="admin-activity-title" className="text-lg font-semibold text-slate-900">
        Recent admin actions
      </h2>
      {list.length === 0 ? (
        <p className="text-sm text-slate-600">No admin actions yet.</p>
      ) : (
        <ol className="grid gap-2">
          {list.slice(0, 10).map((a) => (
            <li key={a.id} className={cn('flex flex-wrap items-baseline justify-between gap-2 rounded-lg border border-slate-200 bg-white px-4 py-2 text-sm')}>
              <span className="font-medium text-slate-900">
                {actionLabel(a.action)}
                {a.adminEmail ? <span className="font-normal text-slate-500"> by {a.adminEmail}</span> : null}
              </span>
              <span className="text-slate-500">
                {a.targetUserId ? <span className="font-mono">{shortUserId(a.targetUserId)} · </span> : null}
                <time dateTime={a.createdAt}>{formatDate(a.createdAt)}</time>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
