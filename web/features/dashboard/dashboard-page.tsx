import { Link } from '@tanstack/react-router'
import { FileUp, ShieldCheck, UserPlus, Workflow } from 'lucide-react'
import type { PublicUser } from '../../../contract/auth'
import { PAID_PLANS, PLANS, type PaidPlan } from '../../../contract/plans'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { useCurrentUser } from '@/features/auth/api'

function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`
}

function PlanCard({ user }: { user: PublicUser }) {
  const plan = (PAID_PLANS as readonly string[]).includes(user.planTier) ? PLANS[user.planTier as PaidPlan] : null
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your plan</CardTitle>
        <CardDescription>
          {plan ? `${plan.name} plan` : user.planTier === 'admin' ? 'Administrator account' : 'No paid plan'}
          {user.billingProvider === 'none' && ' · billing is off on this server'}
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

const quickActions = [
  { to: '/vault', label: 'Upload Documents', icon: FileUp },
  { to: '/beneficiaries', label: 'Add Beneficiary', icon: UserPlus },
  { to: '/vault', label: 'Configure Release Protocols', icon: Workflow },
] as const

export function DashboardPage() {
  const { data: user } = useCurrentUser()
  if (!user) return null
  return (
    <div className="grid gap-6">
      <section className="rounded-xl bg-gradient-to-r from-brand-800 to-brand-600 p-6 text-white sm:p-8">
        <div className="flex items-center gap-3">
          <ShieldCheck className="size-8" aria-hidden />
          <h1 className="text-2xl font-bold">Welcome, {user.displayName}</h1>
        </div>
        <p className="mt-2 max-w-2xl text-brand-100">
          Your account is ready. Encrypted items, beneficiaries and release triggers arrive in the next releases; this page
          will show their live status.
        </p>
      </section>
      <div className="grid gap-6 md:grid-cols-2">
        <PlanCard user={user} />
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
      </div>
    </div>
  )
}
