import { useNavigate, useSearch } from '@tanstack/react-router'
import { Bell, CircleCheck, CircleCheckBig, KeyRound, MailCheck, ShieldCheck, Timer } from 'lucide-react'
import { CIRCLE_MESSAGES } from '../../../contract/circle'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { BeneficiaryAssetsPage } from '@/features/releases/assets-page'
import { PortalHomePage } from '@/features/releases/portal-home'
import { isAlreadyVerified, linkErrorText, useVerifyApprover, useVerifyBeneficiary } from './api'
import { InvalidLinkPage, LinkPage, ReturnHomeButton } from './link-page'

type Kind = 'beneficiary' | 'approver'

const INTRO: Record<Kind, string> = {
  beneficiary:
    'You have been named as a beneficiary. Confirm that this e-mail address is yours, so that messages reach you when the time comes.',
  approver:
    'You have been named as an approver. Confirm that this e-mail address is yours, so that you can be reached when an approval is needed.',
}

const BENEFICIARY_ACCESS_STATUS = [
  { icon: Timer, text: 'Assets become available to you only when the owner’s triggers activate. Nothing is shared before then.' },
  { icon: Bell, text: 'You will receive an e-mail when items are released to you.' },
  {
    icon: KeyRound,
    text: 'You will need the private key from the Beneficiary Access Kit the owner gives you to decrypt them. Keep the kit safe.',
  },
] as const

function Completed({ kind, already, ownerName }: { kind: Kind; already: boolean; ownerName?: string }) {
  return (
    <LinkPage
      icon={CircleCheckBig}
      tone="success"
      title="Verification Complete"
      description={
        already
          ? 'This address was already verified. There is nothing more to do.'
          : kind === 'beneficiary'
            ? `Thank you. Your e-mail address is confirmed${ownerName ? ` as ${ownerName}’s beneficiary` : ''}.`
            : 'Thank you. Your e-mail address is confirmed.'
      }
    >
      {kind === 'beneficiary' ? (
        <section aria-labelledby="access-status" className="rounded-lg border border-slate-200 bg-slate-50 p-4">
          <h2 id="access-status" className="text-sm font-semibold text-slate-900">
            Your access status
          </h2>
          <ul className="mt-3 grid gap-3">
            {BENEFICIARY_ACCESS_STATUS.map(({ icon: Icon, text }) => (
              <li key={text} className="flex gap-3 text-sm text-slate-700">
                <Icon className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden />
                {text}
              </li>
            ))}
          </ul>
        </section>
      ) : (
        <p className="flex gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700">
          <Bell className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden />
          You will be notified by e-mail when approval actions are needed for asset releases.
        </p>
      )}
      <ReturnHomeButton />
    </LinkPage>
  )
}

function VerifyForm({
  kind,
  pending,
  error,
  onVerify,
}: {
  kind: Kind
  pending: boolean
  error: unknown
  onVerify: () => void
}) {
  return (
    <LinkPage
      icon={kind === 'beneficiary' ? MailCheck : ShieldCheck}
      title={kind === 'beneficiary' ? 'Beneficiary Verification' : 'Approver Verification'}
      description={INTRO[kind]}
    >
      {/* The link's token stays in the address: a person needs to know only that the link arrived whole. */}
      <p className="flex items-center justify-center gap-2 text-sm font-medium text-emerald-800" data-testid="link-checked">
        <CircleCheck className="size-4" aria-hidden /> Link checked
      </p>
      {error != null && (
        <Alert variant="destructive">
          <AlertDescription>{linkErrorText(error)}</AlertDescription>
        </Alert>
      )}
      <Button size="lg" onClick={onVerify} disabled={pending}>
        {pending ? 'Verifying...' : 'Complete Verification'}
      </Button>
    </LinkPage>
  )
}

/** Both routes' component: the page below, from the URL's search. */
export function VerifyBeneficiaryRoute() {
  const { token, id, view } = useSearch({ strict: false })
  const navigate = useNavigate()
  return (
    <VerifyBeneficiaryPage
      token={token}
      id={id}
      view={view}
      onBackToVerification={() => void navigate({ to: '.', search: (prev) => ({ ...prev, view: undefined }) })}
    />
  )
}

/**
 * /beneficiary-portal: with `view=assets` and its link, what was released; otherwise the portal's
 * home, which offers the assets (when the URL holds a portal link) and a new link by e-mail. Going
 * back from the assets lands here, never on the address-verification form (whose link it is not).
 */
export function BeneficiaryPortalRoute() {
  const { token, id, view } = useSearch({ strict: false })
  const navigate = useNavigate()
  if (view === 'assets' && id && token) {
    return <BeneficiaryAssetsPage id={id} token={token} onBack={() => void navigate({ to: '.', search: (prev) => ({ ...prev, view: undefined }) })} />
  }
  const openAssets = id && token ? () => void navigate({ to: '.', search: (prev) => ({ ...prev, view: 'assets' as const }) }) : undefined
  return <PortalHomePage onOpenAssets={openAssets} link={id && token ? { id, token } : undefined} />
}

/**
 * /verify-beneficiary (seeds 001 §2): confirms a beneficiary's address. With
 * `id`, `token` and `view=assets` (the release e-mail's link) it shows the released assets instead.
 */
export function VerifyBeneficiaryPage({
  token,
  id,
  view,
  onBackToVerification,
}: {
  token?: string
  id?: string
  view?: 'assets'
  /** Leaves the assets view (drops `view` from the URL). */
  onBackToVerification?: () => void
}) {
  if (view === 'assets' && id && token && onBackToVerification) {
    return <BeneficiaryAssetsPage id={id} token={token} onBack={onBackToVerification} />
  }
  return <VerifyBeneficiaryForm token={token} id={id} />
}

function VerifyBeneficiaryForm({ token, id }: { token?: string; id?: string }) {
  const verify = useVerifyBeneficiary()
  if (!token) return <InvalidLinkPage reason={CIRCLE_MESSAGES.noToken} />
  if (verify.isSuccess || isAlreadyVerified(verify.error)) {
    return <Completed kind="beneficiary" already={!verify.isSuccess} ownerName={verify.data?.beneficiary.ownerName} />
  }
  return (
    <VerifyForm
      kind="beneficiary"
      pending={verify.isPending}
      error={verify.error}
      onVerify={() => verify.mutate({ token, id })}
    />
  )
}

/** /verify-approver (seeds 001 §2): confirms an approver's address. */
export function VerifyApproverPage({ token }: { token?: string }) {
  const verify = useVerifyApprover()
  if (!token) return <InvalidLinkPage reason={CIRCLE_MESSAGES.noToken} />
  if (verify.isSuccess || isAlreadyVerified(verify.error)) return <Completed kind="approver" already={!verify.isSuccess} />
  return (
    <VerifyForm kind="approver" pending={verify.isPending} error={verify.error} onVerify={() => verify.mutate({ token })} />
  )
}
