import { LogOut, Monitor, MonitorSmartphone, Smartphone } from 'lucide-react'
import { useState } from 'react'
import { lastActiveText, SESSION_MESSAGES, signedInText, type SignedInSession } from '../../../contract/sessions'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardIconTitle } from '@/components/ui/card'
import { InlineLoadState } from '@/components/ui/inline-load-state'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { TRUSTED_DEVICE_MESSAGES, TRUSTED_DEVICE_PATHS } from '../../../contract/trusted-devices'
import { TrustButton, TrustedBadge } from '@/features/trusted-devices/trust-button'
import { sessionsKey, useSessions, useSignOutOthers, useSignOutSession } from './api'
import { canSignOut, otherSessions } from './session-rules'

const PHONE = /iPhone|iPad|iPod|Android|Windows Phone/

function DeviceRow({ session, onSignOut, now }: { session: SignedInSession; onSignOut: (session: SignedInSession) => void; now: number }) {
  const Icon = PHONE.test(session.device) ? Smartphone : Monitor
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 p-3" data-testid="signed-in-device" aria-current={session.current ? 'true' : undefined}>
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <Icon className="mt-0.5 size-5 shrink-0 text-slate-500" aria-hidden />
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
            <span className="break-words">{session.device}</span>
            {session.current && <Badge variant="success">{SESSION_MESSAGES.thisDevice}</Badge>}
            {session.trusted && <TrustedBadge />}
          </p>
          <p className="text-sm text-slate-700">{session.place ?? SESSION_MESSAGES.unknownPlace}</p>
          <p className="text-xs text-slate-600">
            {signedInText(session.createdAt)} · {lastActiveText(session.lastSeenAt, now)}
          </p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        {session.canTrust && <TrustButton trusted={session.trusted} deviceName={session.device} path={TRUSTED_DEVICE_PATHS.session(session.id)} listKey={sessionsKey} />}
        {canSignOut(session) && (
          <Button variant="outline" size="sm" onClick={() => onSignOut(session)} aria-label={`${SESSION_MESSAGES.signOut} ${session.device}`}>
            <LogOut aria-hidden /> {SESSION_MESSAGES.signOut}
          </Button>
        )}
      </div>
    </li>
  )
}

/**
 * The profile's signed-in devices: each browser signed in to the account, where and when, with a
 * way to sign out any other one, or all of them at once. No fresh proof is asked: signing out only
 * ever takes access away.
 */
export function SessionsCard() {
  const sessions = useSessions()
  const signOut = useSignOutSession()
  const signOutOthers = useSignOutOthers()
  const [target, setTarget] = useState<SignedInSession | null>(null)
  const [confirmAll, setConfirmAll] = useState(false)
  const list = sessions.data?.sessions ?? []
  const others = otherSessions(list)
  const now = sessions.dataUpdatedAt || Date.now()

  const failed = (error: unknown) => toast({ title: SESSION_MESSAGES.signOutFailed, description: errorText(error, 'Please try again.'), variant: 'destructive' })

  return (
    <Card>
      <CardHeader>
        <CardIconTitle icon={MonitorSmartphone}>{SESSION_MESSAGES.title}</CardIconTitle>
        <CardDescription>
          {SESSION_MESSAGES.description} {TRUSTED_DEVICE_MESSAGES.hint}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <InlineLoadState query={sessions} loadingLabel={SESSION_MESSAGES.loading} errorFallback={SESSION_MESSAGES.loadFailed}>
          {list.length === 0 ? (
            <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600">{SESSION_MESSAGES.empty}</p>
          ) : (
            <>
              <ul aria-label="Your signed-in devices" className="divide-y divide-slate-200 rounded-lg border border-slate-200">
                {list.map((session) => (
                  <DeviceRow key={session.id} session={session} onSignOut={setTarget} now={now} />
                ))}
              </ul>
              {others.length === 0 ? (
                <p className="text-sm text-slate-600">{SESSION_MESSAGES.onlyThisDevice}</p>
              ) : (
                <div>
                  <Button variant="outline" className="w-full sm:w-auto" onClick={() => setConfirmAll(true)}>
                    <LogOut aria-hidden /> {SESSION_MESSAGES.signOutOthers}
                  </Button>
                </div>
              )}
            </>
          )}
        </InlineLoadState>
      </CardContent>

      <ConfirmDialog
        open={target !== null}
        onOpenChange={(open) => !open && !signOut.isPending && setTarget(null)}
        title={SESSION_MESSAGES.signOutOneTitle(target?.device ?? SESSION_MESSAGES.unknownDevice)}
        description={SESSION_MESSAGES.signOutOneBody}
        confirmLabel={signOut.isPending ? SESSION_MESSAGES.signingOut : SESSION_MESSAGES.signOut}
        pending={signOut.isPending}
        onConfirm={() => {
          if (!target) return
          signOut.mutate(target.id, {
            onSuccess: () => toast({ title: SESSION_MESSAGES.signedOutTitle, description: SESSION_MESSAGES.signedOutBody(target.device), variant: 'success' }),
            onError: failed,
            onSettled: () => setTarget(null),
          })
        }}
      />
      <ConfirmDialog
        open={confirmAll}
        onOpenChange={(open) => !open && !signOutOthers.isPending && setConfirmAll(false)}
        title={SESSION_MESSAGES.signOutOthersTitle}
        description={SESSION_MESSAGES.signOutOthersBody}
        confirmLabel={signOutOthers.isPending ? SESSION_MESSAGES.signingOut : SESSION_MESSAGES.signOutOthers}
        pending={signOutOthers.isPending}
        onConfirm={() =>
          signOutOthers.mutate(undefined, {
            onSuccess: ({ signedOut }) => toast({ title: SESSION_MESSAGES.othersSignedOutTitle, description: SESSION_MESSAGES.othersSignedOutBody(signedOut), variant: 'success' }),
            onError: failed,
            onSettled: () => setConfirmAll(false),
          })
        }
      />
    </Card>
  )
}
