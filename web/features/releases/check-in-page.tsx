import { HeartPulse } from 'lucide-react'
import { CIRCLE_MESSAGES } from '../../../contract/circle'
import { RELEASE_MESSAGES } from '../../../contract/releases'
import { Button } from '@/components/ui/button'
import { linkErrorText } from '@/features/circle/api'
import { InvalidLinkPage, LinkDonePage, LinkPage } from '@/features/circle/link-page'
import { useCheckIn } from './api'
import { isBadLink } from './http'
import { FailureAlert } from './link-parts'

/** /check-in?token=… : the owner answers an inactivity check-in e-mail with one click. */
export function CheckInLinkPage({ token }: { token: string | undefined }) {
  const checkIn = useCheckIn()
  if (!token) return <InvalidLinkPage reason={CIRCLE_MESSAGES.noToken} />
  if (checkIn.isError && isBadLink(checkIn.error)) return <InvalidLinkPage reason={linkErrorText(checkIn.error)} />
  if (checkIn.isSuccess) {
    return <LinkDonePage title="Check-in recorded" description={checkIn.data.message || RELEASE_MESSAGES.checkedIn} />
  }
  return (
    <LinkPage
      icon={HeartPulse}
      title="Are you still there?"
      description="You set up an inactivity trigger: if you stop answering these check-ins, your vault’s release instructions start. Confirm that you are still here to reset the clock."
    >
      {checkIn.isError && <FailureAlert title="Check-in failed" error={checkIn.error} />}
      <Button size="lg" onClick={() => checkIn.mutate(token)} disabled={checkIn.isPending}>
        {checkIn.isPending ? 'Checking in...' : "I'm still here"}
      </Button>
    </LinkPage>
  )
}
