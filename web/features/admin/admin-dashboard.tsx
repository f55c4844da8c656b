import { ComingSoon } from '@/components/layout/coming-soon'
import { AdminLayout } from './admin-layout'

export function AdminDashboard() {
  return (
    <AdminLayout>
      <ComingSoon
        title="Back office"
        description="Users, promo codes, refunds and analytics arrive with the admin release. Every admin call is checked on the server."
      />
    </AdminLayout>
  )
}
