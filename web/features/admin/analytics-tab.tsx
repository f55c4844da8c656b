import { useAnalytics } from './api'
import { Chart } from './charts'
import { formatDollars, weekLabel } from './logic'
import { EmptyState, QueryState } from './parts'

const count = (n: number) => n.toLocaleString('en-US')

export function AnalyticsTab() {
  const analytics = useAnalytics({ enabled: true })
  return (
    <QueryState query={analytics} label="analytics">
      {() => {
        const weeks = analytics.data?.weeks ?? []
        if (weeks.length === 0) return <EmptyState>No activity to chart yet.</EmptyState>
        const label = (i: number) => weekLabel(weeks[i]?.weekStart ?? '')
        return (
          <div className="grid gap-4 lg:grid-cols-2">
            <Chart
              title="Signups per week"
              xLabel="Week starting"
              yLabel="Signups"
              kind="bar"
              colorClass="fill-brand-600"
              format={count}
              points={weeks.map((w, i) => ({ label: label(i), value: w.signups }))}
            />
            <Chart
              title="Active subscriptions"
              xLabel="Week starting"
              yLabel="Active subscriptions"
              kind="line"
              colorClass="fill-emerald-600"
              strokeClass="stroke-emerald-600"
              format={count}
              points={weeks.map((w, i) => ({ label: label(i), value: w.activeSubscriptions }))}
            />
            <div className="lg:col-span-2">
              <Chart
                title="Revenue per week"
                xLabel="Week starting"
                yLabel="Revenue (USD)"
                kind="bar"
                money
                colorClass="fill-amber-500"
                format={(dollars) => formatDollars(Math.round(dollars * 100))}
                points={weeks.map((w, i) => ({ label: label(i), value: w.revenue / 100 }))}
              />
            </div>
          </div>
        )
      }}
    </QueryState>
  )
}
