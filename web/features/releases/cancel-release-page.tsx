import { OctagonX } from 'lucide-react'
import { CIRCLE_MESSAGES } from '../../../contract/circle'
import { RELEASE_MESSAGES } from '../../../contract/releases'
import { Button } from '@/components/ui/button'
import { linkErrorText } from '@/features/circle/api'
import { InvalidLinkPage, LinkDonePage, LinkPage } from '@/features/circle/link-page'
import { useCancelRelease } from './api'
import { isBadLink } from './http'
import { FailureAlert } from './link-parts'

function cancelledText(count: number): string {
  if (count === 0) return 'No release was waiting any more, so nothing needed cancelling.'
  return count === 1 ? '1 pending release was cancelled.' : `${count} pending releases were cancelled.`
}

/** /cancel-release?token=… : the owner stops a release that is still waiting out its delay. */
export function CancelReleaseLinkPage({ token }: { token: string | undefined }) {
  const cancel = useCancelRelease()
  if (!token) return <InvalidLinkPage reason={CIRCLE_MESSAGES.noToken} />
  if (cancel.isError && isBadLink(cancel.error)) return <InvalidLinkPage reason={linkErrorText(cancel.error)} />
  if (cancel.isSuccess) {
    return (
      <LinkDonePage
        title="Release cancelled"
        description={cancel.data.message || RELEASE_MESSAGES.releaseCancelled}
        note="Sign in to review your triggers if you do not know why the release started."
      >
        <p className="rounded-lg border border-slate-200 bg-slate-50 p-4 text-center text-sm text-slate-700">{cancelledText(cancel.data.cancelledReleases)}</p>
      </LinkDonePage>
    )
  }
  return (
    <LinkPage
      icon={OctagonX}
      tone="warning"
      title="A release of your vault is pending"
      description="One of your triggers fired, and your vault’s items will be released to your beneficiaries when the delay you set runs out. If you are well and did not mean this to happen, cancel it now."
    >
      <ul className="grid list-disc gap-1 rounded-lg border border-slate-200 bg-slate-50 p-4 pl-8 text-sm text-slate-700">
        <li>Nothing has been released yet.</li>
        <li>Cancelling stops every release still waiting and resets your inactivity clock.</li>
        <li>Releases that already happened cannot be undone.</li>
      </ul>
      {cancel.isError && <FailureAlert title="Cancellation failed" error={cancel.error} />}
      <Button size="lg" variant="destructive" onClick={() => cancel.mutate(token)} disabled={cancel.isPending}>
        {cancel.isPending ? 'Cancelling...' : 'Cancel the release'}
      </Button>
    </LinkPage>
  )
}
