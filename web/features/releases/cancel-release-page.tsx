import { useQuery } from '@tanstack/react-query'
import { OctagonX } from 'lucide-react'
import { CIRCLE_MESSAGES } from '../../../contract/circle'
import { describeCopyItem, RELEASE_MESSAGES, type DownloadedCopy } from '../../../contract/releases'
import { Button } from '@/components/ui/button'
import { linkErrorText } from '@/features/circle/api'
import { InvalidLinkPage, LinkDonePage, LinkPage, LoadingLinkPage } from '@/features/circle/link-page'
import { cancelViewQuery, useCancelRelease } from './api'
import { at, cancelEnding, cancelledFacts, pendingFacts } from './cancel-rules'
import { isBadLink } from './http'
import { FailureAlert, LoadFailedPage } from './link-parts'

function Downloaded({ copies }: { copies: DownloadedCopy[] }) {
  if (copies.length === 0) return null
  return (
    <div className="grid gap-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900" data-testid="downloaded-copies">
      <p className="font-medium">Already downloaded (a downloaded copy cannot be taken back):</p>
      <ul className="grid list-disc gap-1 pl-5">
        {copies.map((c, i) => (
          <li key={i}>
            {describeCopyItem(c)}, by {c.beneficiaryName}, {at(c.downloadedAt)}
          </li>
        ))}
      </ul>
    </div>
  )
}

function Facts({ facts }: { facts: string[] }) {
  return (
    <ul className="grid list-disc gap-1 rounded-lg border border-slate-200 bg-slate-50 p-4 pl-8 text-sm text-slate-700" data-testid="cancel-facts">
      {facts.map((f) => (
        <li key={f}>{f}</li>
      ))}
    </ul>
  )
}

/** /cancel-release?token=… : the owner takes back a release their trigger started, having seen what it would take back. */
export function CancelReleaseLinkPage({ token }: { token: string | undefined }) {
  if (!token) return <InvalidLinkPage reason={CIRCLE_MESSAGES.noToken} />
  return <CancelRelease token={token} />
}

function CancelRelease({ token }: { token: string }) {
  const view = useQuery(cancelViewQuery(token))
  const cancel = useCancelRelease()
  if (cancel.isError && isBadLink(cancel.error)) return <InvalidLinkPage reason={linkErrorText(cancel.error)} />
  if (cancel.isSuccess) {
    return (
      <LinkDonePage
        title="Release cancelled"
        description={cancel.data.message || RELEASE_MESSAGES.releaseCancelled}
        note="Sign in to review your triggers if you do not know why the release started."
      >
        <Facts facts={cancelledFacts(cancel.data)} />
        <Downloaded copies={cancel.data.downloaded} />
      </LinkDonePage>
    )
  }
  if (view.isPending) return <LoadingLinkPage label="Loading the release" />
  if (view.isError) return <LoadFailedPage error={view.error} title="The release could not be loaded" onRetry={() => view.refetch()} retrying={view.isFetching} />
  const v = view.data
  const ended = cancelEnding(v.state)
  if (ended) {
    return (
      <LinkDonePage
        title={ended.title}
        description={ended.description}
        note="Sign in to review your triggers if you do not know why the release started."
      >
        <Downloaded copies={v.downloaded} />
      </LinkDonePage>
    )
  }
  return (
    <LinkPage
      icon={OctagonX}
      tone="warning"
      title={v.state === 'available' ? 'Items from your vault are available to your beneficiaries' : 'A release of your vault is pending'}
      description={`Your ${v.triggerLabel} trigger fired. If you are well and did not mean this to happen, cancel it now.`}
    >
      <Facts facts={pendingFacts(v)} />
      <Downloaded copies={v.downloaded} />
      {cancel.isError && <FailureAlert title="Cancellation failed" error={cancel.error} />}
      <Button size="lg" variant="destructive" onClick={() => cancel.mutate(token)} disabled={cancel.isPending}>
        {cancel.isPending ? 'Cancelling...' : 'Cancel the release'}
      </Button>
    </LinkPage>
  )
}
