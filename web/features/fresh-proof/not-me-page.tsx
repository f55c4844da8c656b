import { useMutation } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { ShieldAlert } from 'lucide-react'
import { CIRCLE_MESSAGES } from '../../../contract/circle'
import { FRESH_PROOF_PATHS } from '../../../contract/fresh-proof-constants'
import { Button } from '@/components/ui/button'
import { linkErrorText } from '@/features/circle/api'
import { InvalidLinkPage, LinkDonePage, LinkPage } from '@/features/circle/link-page'
import { FailureAlert } from '@/features/releases/link-parts'
import { isBadLink, linkJson } from '@/features/releases/http'
import { tokenStore } from '@/lib/api-client'

interface NotMeAnswer {
  message: string
  sessionsSignedOut: number
  keysRemoved: number
  resetToken: string
}

/** /not-me?token=… : "This wasn't me" from an e-mail about a change of trust. Acts only on the click. */
export function NotMePage({ token }: { token: string | undefined }) {
  const undo = useMutation({
    mutationFn: (link: string) => linkJson<NotMeAnswer>('POST', FRESH_PROOF_PATHS.notMe, { token: link }),
    // Every session has ended, this browser's too.
    onSuccess: () => tokenStore.clear(),
  })
  if (!token) return <InvalidLinkPage reason={CIRCLE_MESSAGES.noToken} />
  if (undo.isError && isBadLink(undo.error)) return <InvalidLinkPage reason={linkErrorText(undo.error)} />
  if (undo.isSuccess) {
    return (
      <LinkDonePage title="Your account is secured" description={undo.data.message} note="Choose a password you have not used anywhere else.">
        <Button asChild size="lg">
          <Link to="/reset-password" search={{ token: undo.data.resetToken }}>
            Choose a new password
          </Link>
        </Button>
      </LinkDonePage>
    )
  }
  return (
    <LinkPage
      icon={ShieldAlert}
      tone="destructive"
      title="Someone else changed your account?"
      description="This signs out every device that is signed in to your account, removes any security key added since the change you were told of, and then asks you to choose a new password. Nothing in your vault is deleted."
    >
      {undo.isError && <FailureAlert title="That did not work" error={undo.error} />}
      <Button size="lg" variant="destructive" onClick={() => undo.mutate(token)} disabled={undo.isPending}>
        {undo.isPending ? 'Securing your account...' : 'Sign out everywhere and secure my account'}
      </Button>
    </LinkPage>
  )
}
