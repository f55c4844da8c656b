import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { CircleCheckBig, Link2Off, MailCheck, MailWarning } from 'lucide-react'
import type { EmailConfirmed } from '../../../contract/auth'
import { PRODUCT_NAME } from '../../../contract/constants'
import { EMAIL_CONFIRMATION } from '../../../contract/messages'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { approversKey, beneficiariesKey, linkErrorText } from '@/features/circle/api'
import { LinkPage } from '@/features/circle/link-page'
import { apiJson, errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { currentUserKey, currentUserQuery, useCurrentUser } from './api'

// The owner's own address, confirmed through the link sent at registration. Until then the
// vault holds every invitation (worker/services/invitations.ts), and these say why.

export function useConfirmEmail() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (token: string) => apiJson<EmailConfirmed>('POST', '/api/auth/confirm-email', { token }),
    onSuccess: () => {
      for (const queryKey of [currentUserKey, beneficiariesKey, approversKey]) void queryClient.invalidateQueries({ queryKey, exact: true })
    },
  })
}

export function useResendConfirmation() {
  return useMutation({ mutationFn: () => apiJson<{ message: string }>('POST', '/api/auth/confirm-email/resend') })
}

/**
 * Shown to a signed-in owner who has not confirmed their address yet, where they invite people:
 * why invitations wait, and a new link. Checks again when the owner comes back to the tab (the
 * link is usually followed in another one).
 */
export function EmailConfirmationNotice() {
  const { data: user } = useQuery({ ...currentUserQuery, refetchOnWindowFocus: true, staleTime: 0 })
  const resend = useResendConfirmation()
  if (!user || user.emailVerified) return null
  return (
    <Alert variant="warning" role="status" data-testid="email-confirmation-notice">
      <MailWarning aria-hidden />
      <AlertTitle>Confirm your e-mail address</AlertTitle>
      <AlertDescription className="grid gap-3">
        <p>
          We sent a confirmation link to <strong className="break-all">{user.email}</strong>. {EMAIL_CONFIRMATION.invitationsWait}
        </p>
        <Button
          variant="outline"
          size="sm"
          className="justify-self-start bg-white"
          disabled={resend.isPending}
          onClick={() =>
            resend.mutate(undefined, {
              onSuccess: (r) => toast({ title: 'Link sent', description: r.message, variant: 'success' }),
              onError: (e) => toast({ title: 'The link could not be sent', description: errorText(e, 'Please try again.'), variant: 'destructive' }),
            })
          }
        >
          {resend.isPending ? 'Sending...' : 'Send the link again'}
        </Button>
      </AlertDescription>
    </Alert>
  )
}

function ContinueButton() {
  const { data: user } = useCurrentUser()
  return (
    <Button asChild className="w-full sm:w-auto sm:justify-self-center">
      {user ? <Link to="/beneficiaries">Go to your beneficiaries</Link> : <Link to="/login">Sign In</Link>}
    </Button>
  )
}

/**
 * /confirm-email, from the link sent to the owner's address. It asks for a click rather than
 * confirming on load: a mail scanner that opens links must not confirm an address for whoever typed it.
 */
export function ConfirmEmailPage({ token }: { token?: string }) {
  const confirm = useConfirmEmail()
  if (!token) {
    return (
      <LinkPage icon={Link2Off} tone="destructive" title="Invalid Link" description={EMAIL_CONFIRMATION.linkInvalid}>
        <ContinueButton />
      </LinkPage>
    )
  }
  if (confirm.isSuccess) {
    const sent = confirm.data.invitationsSent
    return (
      <LinkPage icon={CircleCheckBig} tone="success" title="E-mail address confirmed" description={confirm.data.message}>
        {sent > 0 && (
          <p className="rounded-lg border border-slate-200 bg-slate-50 p-4 text-center text-sm text-slate-700">
            {sent === 1 ? 'The invitation you had prepared went out just now.' : `The ${sent} invitations you had prepared went out just now.`}
          </p>
        )}
        <ContinueButton />
      </LinkPage>
    )
  }
  return (
    <LinkPage
      icon={MailCheck}
      title="Confirm your e-mail address"
      description={`Confirm that this is the address you used for your ${PRODUCT_NAME} account. Invitations to the people you name wait until you do.`}
    >
      {confirm.isError && (
        <Alert variant="destructive">
          <AlertDescription>{linkErrorText(confirm.error, 'The address could not be confirmed. Please try again.')}</AlertDescription>
        </Alert>
      )}
      <Button size="lg" onClick={() => confirm.mutate(token)} disabled={confirm.isPending}>
        {confirm.isPending ? 'Confirming...' : 'Confirm my e-mail address'}
      </Button>
      <p className="text-center text-sm text-slate-600">If you did not create an account, close this page: nothing will be sent in your name.</p>
    </LinkPage>
  )
}
