import { Link } from '@tanstack/react-router'
import { BellOff, CircleCheckBig, EyeOff, Lock, UserRound } from 'lucide-react'
import { useState } from 'react'
import type { NotificationPreferences } from '../../../contract/circle'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { HeirBackupCard } from '@/features/releases/heir-backup-card'
import { PageSpinner } from '@/components/ui/spinner'
import { ApiRequestError } from '@/lib/api-client'
import { linkErrorText, useNotificationPreferences, useOptInToNotifications, useUnsubscribeFromNotifications } from './api'
import { LINK_COPY, optInStatusText } from './copy'
import { InvalidLinkPage, LinkPage, ReturnHomeButton } from './link-page'

function Details({ prefs }: { prefs: NotificationPreferences }) {
  const rows: Array<[string, string]> = [
    ['Name', prefs.fullName],
    ...(prefs.relationship ? ([['Relationship', prefs.relationship]] as Array<[string, string]>) : []),
    ['Vault owner', prefs.ownerName],
  ]
  return (
    <dl className="grid gap-2 rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="grid gap-0.5 sm:grid-cols-[8rem_1fr] sm:gap-4">
          <dt className="font-medium text-slate-600">{label}</dt>
          <dd className="break-words text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  )
}

function OptedIn({ token }: { token: string }) {
  return (
    <LinkPage
      icon={CircleCheckBig}
      tone="success"
      title="You're All Set!"
      description="You have opted in. We will e-mail you if items are ever released to you, and at no other time."
    >
      <HeirBackupCard token={token} />
      <ReturnHomeButton />
      <p className="text-center text-sm">
        <Link to="/unsubscribe" search={{ token }} className="text-slate-600 underline-offset-4 hover:text-slate-900 hover:underline">
          Unsubscribe from future notifications
        </Link>
      </p>
    </LinkPage>
  )
}

function Unsubscribed({ ownerName }: { ownerName: string }) {
  return (
    <LinkPage
      icon={BellOff}
      title="Unsubscribed"
      description="You will not receive any more e-mail about this vault."
    >
      <p className="text-center text-sm text-slate-600">{LINK_COPY.reAdd(ownerName)}</p>
      <ReturnHomeButton variant="outline" />
    </LinkPage>
  )
}

/** /beneficiary-opt-in (seeds 001 §2): a named beneficiary accepts or refuses notifications. */
export function OptInPage({ token }: { token?: string }) {
  const prefs = useNotificationPreferences(token)
  const optIn = useOptInToNotifications()
  const unsubscribe = useUnsubscribeFromNotifications()
  const [lastAction, setLastAction] = useState<'optIn' | 'unsubscribe' | null>(null)

  if (!token) return <InvalidLinkPage reason={LINK_COPY.noToken} />
  if (prefs.isPending) {
    return (
      <LinkPage icon={UserRound} title="You've Been Named as a Beneficiary">
        <PageSpinner label="Loading your details" />
      </LinkPage>
    )
  }
  if (prefs.isError) {
    if (prefs.error instanceof ApiRequestError && prefs.error.status === 400) {
      return <InvalidLinkPage reason={prefs.error.detail} />
    }
    return (
      <LinkPage icon={UserRound} tone="warning" title="Something went wrong" description={linkErrorText(prefs.error, LINK_COPY.loadFailed)}>
        <Button onClick={() => prefs.refetch()} disabled={prefs.isFetching}>
          {prefs.isFetching ? 'Trying again...' : 'Try again'}
        </Button>
      </LinkPage>
    )
  }
  if (optIn.isSuccess) return <OptedIn token={token} />
  if (unsubscribe.isSuccess) return <Unsubscribed ownerName={prefs.data.ownerName} />

  const p = prefs.data
  const busy = optIn.isPending || unsubscribe.isPending
  const statusText = optInStatusText(p.status)
  const failure =
    lastAction === 'optIn' && optIn.isError
      ? { title: LINK_COPY.optInFailed, error: optIn.error }
      : lastAction === 'unsubscribe' && unsubscribe.isError
        ? { title: LINK_COPY.unsubscribeFailed, error: unsubscribe.error }
        : null

  return (
    <LinkPage
      wide
      icon={UserRound}
      title="You've Been Named as a Beneficiary"
      description={`${p.ownerName} uses Legacy Vault to keep important documents and information safe, and has named you as someone who should receive some of it one day.`}
    >
      <Details prefs={p} />
      <section aria-labelledby="what-it-means" className="grid gap-2 text-sm text-slate-700">
        <h2 id="what-it-means" className="font-semibold text-slate-900">
          What this means
        </h2>
        <ul className="list-disc space-y-1.5 pl-5">
          <li>Nothing is shared with you now, and you do not need to do anything else today.</li>
          <li>Items become available only when the conditions {p.ownerName} set are met.</li>
          <li>If you opt in, we will e-mail you at that time, with a link to the beneficiary portal.</li>
          <li>
            To open the items you will need the private key from the Access Kit {p.ownerName} gives you, or a passphrase backup of it you
            can set up below.
          </li>
        </ul>
      </section>
      <HeirBackupCard token={token} personal={[p.fullName]} />
      {p.secrecyMode && (
        <Alert variant="info">
          <EyeOff aria-hidden />
          <AlertTitle>Secrecy Mode</AlertTitle>
          <AlertDescription>
            {p.ownerName} asked that details stay private. Notifications are delayed, and no details are shared until the
            conditions are met.
          </AlertDescription>
        </Alert>
      )}
      {statusText && <p className="text-sm text-slate-600">{statusText}</p>}
      <p className="flex gap-2 text-xs text-slate-500">
        <Lock className="mt-0.5 size-3.5 shrink-0" aria-hidden />
        {LINK_COPY.privacy}
      </p>
      {failure && (
        <Alert variant="destructive">
          <AlertTitle>{failure.title}</AlertTitle>
          {failure.error instanceof ApiRequestError && failure.error.detail && (
            <AlertDescription>{failure.error.detail}</AlertDescription>
          )}
        </Alert>
      )}
      <div className="grid gap-2">
        <Button
          size="lg"
          className="h-auto min-h-11 whitespace-normal"
          disabled={busy}
          onClick={() => {
            setLastAction('optIn')
            optIn.mutate(token)
          }}
        >
          {optIn.isPending ? 'Saving...' : 'Accept & Opt In to Notifications'}
        </Button>
        <Button
          variant="ghost"
          className="h-auto min-h-10 whitespace-normal text-slate-600"
          disabled={busy}
          onClick={() => {
            setLastAction('unsubscribe')
            unsubscribe.mutate(token)
          }}
        >
          {unsubscribe.isPending ? 'Unsubscribing...' : 'No, unsubscribe from all notifications'}
        </Button>
      </div>
    </LinkPage>
  )
}
