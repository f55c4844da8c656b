import { Link } from '@tanstack/react-router'
import { Lock, LockOpen, ShieldPlus } from 'lucide-react'
import { useState } from 'react'
import { PageHeader } from '@/components/layout/page-header'
import { Button } from '@/components/ui/button'
import { useCurrentUser } from '@/features/auth/api'
import { useVaultUnlocked } from '@/features/vault/vault-session'
import { VaultUnlockDialog } from '@/features/vault/vault-unlock-dialog'
import { GUIDELINES } from './copy'
import { CreatePolicyDialog } from './create-policy-dialog'
import { PolicyList } from './policy-list'

/** /protocols, the Access Policies page (seeds 001 §2): the list, Create Policy, and the guidelines. */
export function PoliciesPage() {
  const { data: user } = useCurrentUser()
  const unlocked = useVaultUnlocked()
  const [creating, setCreating] = useState(false)
  const [unlockOpen, setUnlockOpen] = useState(false)

  return (
    <div className="grid grid-cols-1 gap-8">
      <PageHeader title="Access Policies" description="Which items go to which beneficiaries, after which triggers, with which delay and checks.">
        <Button onClick={() => setCreating(true)}>
          <ShieldPlus aria-hidden /> Create Policy
        </Button>
      </PageHeader>

      {!unlocked && user && (
        <div className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-700 sm:flex-row sm:items-center sm:justify-between">
          <p className="flex items-start gap-3">
            <Lock className="mt-0.5 size-5 shrink-0 text-slate-500" aria-hidden />
            <span>
              <span className="font-semibold text-slate-900" data-testid="policies-vault-state">
                Vault locked.
              </span>{' '}
              Your policies are listed, but which items each one covers is encrypted: unlock to see which items, and to
              create a policy.
            </span>
          </p>
          {user.vaultSetup ? (
            <Button variant="outline" className="shrink-0" onClick={() => setUnlockOpen(true)}>
              <LockOpen aria-hidden /> Unlock Vault
            </Button>
          ) : (
            <Link to="/vault" className="shrink-0 font-medium text-brand-700 underline-offset-4 hover:underline">
              Create your vault
            </Link>
          )}
        </div>
      )}

      <section aria-labelledby="policies-list-title">
        <h2 id="policies-list-title" className="sr-only">
          Your access policies
        </h2>
        <PolicyList onCreate={() => setCreating(true)} />
      </section>

      <section aria-labelledby="policy-guidelines" className="rounded-xl border border-brand-100 bg-brand-50/60 p-6">
        <h2 id="policy-guidelines" className="text-lg font-semibold text-slate-900">
          Policy guidelines
        </h2>
        <dl className="mt-4 grid gap-4 md:grid-cols-2">
          {GUIDELINES.map((g) => (
            <div key={g.title}>
              <dt className="font-medium text-slate-900">{g.title}</dt>
              <dd className="mt-1 text-sm text-slate-600">{g.text}</dd>
            </div>
          ))}
        </dl>
      </section>

      <CreatePolicyDialog open={creating} onOpenChange={setCreating} />
      <VaultUnlockDialog open={unlockOpen} onOpenChange={setUnlockOpen} />
    </div>
  )
}
