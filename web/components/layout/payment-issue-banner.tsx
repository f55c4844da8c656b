import { Link } from '@tanstack/react-router'
import { TriangleAlert } from 'lucide-react'
import type { PublicUser } from '../../../contract/auth'
import { Button } from '@/components/ui/button'
import { PAYMENT_BANNER } from '@/features/billing/copy'
import { showsPaymentIssueBanner } from '@/features/billing/payment-rules'

/**
 * Everywhere in the app while the owner's last renewal has failed (0.2 · 7 of 7): calm words, the
 * vault still usable, and the way to /account, where the whole panel fixes it (and this is not shown).
 */
export function PaymentIssueBanner({ user, pathname }: { user: PublicUser; pathname: string }) {
  if (!showsPaymentIssueBanner(user, pathname)) return null
  return (
    <div
      role="status"
      data-testid="payment-issue-banner"
      className="mb-6 flex flex-col gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950 sm:flex-row sm:items-center sm:justify-between"
    >
      <p className="flex items-start gap-2">
        <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden />
        <span>
          <strong className="font-semibold">{PAYMENT_BANNER.title}:</strong> {PAYMENT_BANNER.text}
        </span>
      </p>
      <Button asChild size="sm" variant="outline" className="shrink-0 self-start sm:self-auto">
        <Link to="/account">{PAYMENT_BANNER.action}</Link>
      </Button>
    </div>
  )
}
