import { Link } from '@tanstack/react-router'
import { CircleCheckBig, Link2Off, MailCheck } from 'lucide-react'
import { CHANNEL_COPY, CHANNEL_MESSAGES } from '../../../contract/channels-constants'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { PageSpinner } from '@/components/ui/spinner'
import { useCurrentUser } from '@/features/auth/api'
import { linkErrorText } from '@/features/circle/api'
import { LinkPage } from '@/features/circle/link-page'
import { useVerifyBackup } from './api'

/**
 * /verify-backup-email, from the link sent to the backup address. The owner confirms it signed in
 * (the link of another account is not found), and with a click: a mail scanner opening links must
 * not confirm an address.
 */
export function VerifyBackupPage({ token }: { token?: string }) {
  const { data: user, isPending } = useCurrentUser()
  const verify = useVerifyBackup()
  if (!token) {
    return <LinkPage icon={Link2Off} tone="destructive" title="Invalid Link" description={CHANNEL_MESSAGES.linkInvalid} />
  }
  if (isPending) return <PageSpinner />
  if (!user) {
    return (
      <LinkPage icon={MailCheck} title={CHANNEL_COPY.verifyTitle} description={CHANNEL_COPY.verifySignIn}>
        <Button asChild size="lg">
          <Link to="/login">Sign In</Link>
        </Button>
      </LinkPage>
    )
  }
  if (verify.isSuccess) {
    return (
      <LinkPage icon={CircleCheckBig} tone="success" title={CHANNEL_COPY.verifiedTitle} description={verify.data.message}>
        <Button asChild className="w-full sm:w-auto sm:justify-self-center">
          <Link to="/settings">Go to your settings</Link>
        </Button>
      </LinkPage>
    )
  }
  return (
    <LinkPage icon={MailCheck} title={CHANNEL_COPY.verifyTitle} description={CHANNEL_COPY.verifyDescription}>
      {verify.isError && (
        <Alert variant="destructive">
          <AlertDescription>{linkErrorText(verify.error, CHANNEL_MESSAGES.linkInvalid)}</AlertDescription>
        </Alert>
      )}
      <Button size="lg" onClick={() => verify.mutate(token)} disabled={verify.isPending}>
        {verify.isPending ? 'Confirming...' : CHANNEL_COPY.verifyButton}
      </Button>
    </LinkPage>
  )
}
