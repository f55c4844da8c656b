import { UserPlus } from 'lucide-react'
import { useState } from 'react'
import { PageHeader } from '@/components/layout/page-header'
import { Button } from '@/components/ui/button'
import { useCurrentUser } from '@/features/auth/api'
import { EmailConfirmationNotice } from '@/features/auth/email-confirmation'
import { AddBeneficiaryDialog } from './add-beneficiary-dialog'
import { ApproversSection } from './approvers-section'
import { BeneficiaryList } from './beneficiary-list'
import { HOW_ACCESS_WORKS } from './copy'
import { OlderKitsNotice } from './older-kits-notice'

/** /beneficiaries (seeds 001 §2): the people who inherit, their approvers, and how access works. */
export function BeneficiariesPage() {
  const { data: user } = useCurrentUser()
  const [adding, setAdding] = useState(false)

  return (
    <div className="grid grid-cols-1 gap-8">
      <PageHeader
        title="Beneficiaries"
        description="The people who will receive items from your vault when your triggers fire. Each one holds an Access Kit with the only key that opens what you leave them."
      >
        <Button onClick={() => setAdding(true)}>
          <UserPlus aria-hidden /> Add Beneficiary
        </Button>
      </PageHeader>

      <EmailConfirmationNotice />

      <OlderKitsNotice />

      <section aria-labelledby="beneficiaries-list-title">
        <h2 id="beneficiaries-list-title" className="sr-only">
          Your beneficiaries
        </h2>
        <BeneficiaryList onAdd={() => setAdding(true)} />
      </section>

      <ApproversSection />

      <section aria-labelledby="how-access-works" className="rounded-xl border border-brand-100 bg-brand-50/60 p-6">
        <h2 id="how-access-works" className="text-lg font-semibold text-slate-900">
          How beneficiary access works
        </h2>
        <ol className="mt-4 grid gap-4 md:grid-cols-3">
          {HOW_ACCESS_WORKS.map((step, i) => (
            <li key={step.title} className="flex gap-3">
              <span
                className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-700 text-sm font-semibold text-white"
                aria-hidden
              >
                {i + 1}
              </span>
              <div>
                <h3 className="font-medium text-slate-900">{step.title}</h3>
                <p className="mt-1 text-sm text-slate-600">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <AddBeneficiaryDialog open={adding} onOpenChange={setAdding} ownerName={user?.displayName ?? ''} />
    </div>
  )
}
