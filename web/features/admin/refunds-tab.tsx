import { Badge } from '@/components/ui/badge'
import { useRefunds } from './api'
import { formatDate, formatDollars, refundPlan, refundStatusView, shortUserId } from './logic'
import { EmptyState, QueryState, ScrollTable, Td, Th } from './parts'

export function RefundsTab() {
  const refunds = useRefunds()
  return (
    <QueryState query={refunds} label="refunds">
      {() =>
        (refunds.data ?? []).length === 0 ? (
          <EmptyState>No refunds yet.</EmptyState>
        ) : (
          <ScrollTable label="Refunds">
            <thead>
              <tr>
                <Th>User Details</Th>
                <Th>Plan</Th>
                <Th>Amount</Th>
                <Th>Reason</Th>
                <Th>Status</Th>
                <Th>Date</Th>
              </tr>
            </thead>
            <tbody>
              {(refunds.data ?? []).map((refund) => {
                const status = refundStatusView(refund.status)
                return (
                  <tr key={refund.id} data-testid="admin-refund-row">
                    <Td>
                      <div className="break-all font-medium">{refund.user?.email ?? 'Deleted user'}</div>
                      {refund.user?.id && (
                        <div className="font-mono text-xs text-slate-500" title={refund.user.id}>
                          {shortUserId(refund.user.id)}
                        </div>
                      )}
                    </Td>
                    <Td className="capitalize">{refundPlan(refund)}</Td>
                    <Td className="tabular-nums font-medium">{formatDollars(refund.amount)}</Td>
                    <Td className="max-w-xs break-words">{refund.reason}</Td>
                    <Td>
                      <Badge variant={status.variant}>{status.label}</Badge>
                    </Td>
                    <Td className="whitespace-nowrap">{formatDate(refund.createdAt)}</Td>
                  </tr>
                )
              })}
            </tbody>
          </ScrollTable>
        )
      }
    </QueryState>
  )
}
