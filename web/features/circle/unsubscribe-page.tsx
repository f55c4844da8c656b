import { Link } from '@tanstack/react-router'
import { BellOff, CircleAlert, Loader2 } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { Button } from '@/components/ui/button'
import { ApiRequestError } from '@/lib/api-client'
import { useUnsubscribeFromNotifications } from './api'
import { LINK_COPY } from './copy'
import { LinkPage, ReturnHomeButton } from './link-page'

function ResubscribeButton({ token }: { token: string }) {
  return (
    <Button asChild className="w-full sm:w-auto sm:justify-self-center">
      <Link to="/beneficiary-opt-in" search={{ token }}>
        Resubscribe to Notifications
      </Link>
    </Button>
  )
}

/**
 * /unsubscribe (seeds 001 §2): one visit unsubscribes. The request is made once, even when React
 * runs effects twice in development; the ref remembers it was sent.
 */
export function UnsubscribePage({ token }: { token?: string }) {
  const unsubscribe = useUnsubscribeFromNotifications()
  const { mutate } = unsubscribe
  const sent = useRef(false)

  useEffect(() => {
    if (!token || sent.current) return
    sent.current = true
    mutate(token)
  }, [token, mutate])

  if (token && unsubscribe.isSuccess) {
    const already = unsubscribe.data.alreadyUnsubscribed
    return (
      <LinkPage
        icon={BellOff}
        tone="success"
        title={already ? 'Already Unsubscribed' : 'Unsubscribed Successfully'}
        description={
          already
            ? 'This address was already unsubscribed. You will not receive e-mail about this vault.'
            : 'You will no longer receive e-mail about this vault, including notifications if items are released to you.'
        }
      >
        <p className="text-center text-sm text-slate-600">Unsubscribed by mistake? You can turn notifications back on.</p>
        <ResubscribeButton token={token} />
      </LinkPage>
    )
  }

  if (!token || unsubscribe.isError) {
    const detail = unsubscribe.error instanceof ApiRequestError ? unsubscribe.error.detail : null
    return (
      <LinkPage icon={CircleAlert} tone="destructive" title="Unable to Unsubscribe" description={detail ?? LINK_COPY.unsubscribeFailed}>
        <div className="text-sm text-slate-700">
          <p className="font-medium">This can happen when:</p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {LINK_COPY.unsubscribeCauses.map((cause) => (
              <li key={cause}>{cause}</li>
            ))}
          </ul>
          <p className="mt-3 text-slate-600">
            Open the unsubscribe link from your most recent e-mail, or contact the person who named you as a beneficiary.
          </p>
        </div>
        <ReturnHomeButton variant="outline" />
      </LinkPage>
    )
  }

  return (
    <LinkPage icon={Loader2} title="Processing your request..." description="Unsubscribing you from notifications.">
      <span role="status" className="sr-only">
        Unsubscribing
      </span>
    </LinkPage>
  )
}
