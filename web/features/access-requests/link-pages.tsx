import { useQuery } from '@tanstack/react-query'
import { DoorOpen, OctagonX } from 'lucide-react'
import { accessDate } from '../../../contract/access-requests'
import { CIRCLE_MESSAGES } from '../../../contract/circle'
import { Button } from '@/components/ui/button'
import { linkErrorText } from '@/features/circle/api'
import { InvalidLinkPage, LinkDonePage, LinkPage, LoadingLinkPage } from '@/features/circle/link-page'
import { isBadLink } from '@/features/releases/http'
import { FailureAlert, LoadFailedPage } from '@/features/releases/link-parts'
import { refuseViewQuery, useRefuseByLink } from './api'
import { AskForAccessCards } from './ask-cards'
import { refuseLinkEnding } from './request-lines'

/** /access-refuse?token=… : the owner refuses an access request from the e-mail, without signing in. */
export function RefuseAccessLinkPage({ token }: { token: string | undefined }) {
  if (!token) return <InvalidLinkPage reason={CIRCLE_MESSAGES.noToken} />
  return <RefuseAccess token={token} />
}

function RefuseAccess({ token }: { token: string }) {
  const view = useQuery(refuseViewQuery(token))
  const refuse = useRefuseByLink()
  if (refuse.isError && isBadLink(refuse.error)) return <InvalidLinkPage reason={linkErrorText(refuse.error)} />
  if (refuse.isSuccess) {
    return <LinkDonePage title="Request refused" description={refuse.data.message} note="The person who asked is told. They can ask again in a week." />
  }
  if (view.isPending) return <LoadingLinkPage label="Loading the request" />
  if (view.isError) return <LoadFailedPage error={view.error} title="The request could not be loaded" onRetry={() => view.refetch()} retrying={view.isFetching} />
  const v = view.data
  const ended = refuseLinkEnding(v.status)
  if (ended !== null) return <LinkDonePage title="Nothing to refuse" description={ended} />
  return (
    <LinkPage
      icon={OctagonX}
      tone="warning"
      title={`${v.requesterName} asked for access`}
      description={`They asked for the items of your policy “${v.policyName}”. Unless you refuse, they are released on ${accessDate(v.decideBy)}.`}
    >
      {refuse.isError && <FailureAlert title="Refusing did not work" error={refuse.error} />}
      <Button size="lg" variant="destructive" onClick={() => refuse.mutate(token)} disabled={refuse.isPending}>
        {refuse.isPending ? 'Refusing...' : 'Refuse'}
      </Button>
    </LinkPage>
  )
}

/** /access-request?token=… : an approver's own link, to ask for access to what a policy lets them ask for. */
export function ApproverAccessLinkPage({ token }: { token: string | undefined }) {
  if (!token) return <InvalidLinkPage reason={CIRCLE_MESSAGES.noToken} />
  return (
    <LinkPage icon={DoorOpen} title="Ask for access" description="The owner is told at once, and can refuse. If they do not, what you ask for is released to the people they chose.">
      <AskForAccessCards link={{ kind: 'approver', token }} />
    </LinkPage>
  )
}
