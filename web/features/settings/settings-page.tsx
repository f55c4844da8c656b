import { Link } from '@tanstack/react-router'
import { BellRing, Info } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { CHECKIN_FREQUENCY_OPTIONS, CHECKIN_GRACE_DAYS } from '../../../contract/constants'
import {
  CHECKIN_FREQUENCY_LABELS,
  inactivityMonitoringText,
  SETTINGS_CLOCK_COPY,
  SETTINGS_MESSAGES,
  settingsFrequencyDays,
  settingsGraceText,
  settingsNotice,
} from '../../../contract/settings'
import type { EngineStatus, Trigger } from '../../../contract/triggers'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { useCurrentUser } from '@/features/auth/api'
import { ChannelsCard } from '@/features/channels/channels-card'
import { useEngineStatus, useTriggers } from '@/features/triggers/api'
import { formatWhen, noClockText, scheduleText } from '@/features/triggers/copy'
import { Fact } from '@/features/triggers/trigger-parts'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { cn } from '@/lib/utils'
import { useUpdatePingSettings } from './api'
import { SafetyWindowCard } from './safety-window-card'
import { VaultPassphraseCard } from './vault-passphrase-card'
import { VaultRecoveryCard } from './vault-recovery-card'
import { ExportCard } from './export-card'
import { EstateCard } from '@/features/export/estate-card'

const linkClass = 'font-medium text-brand-700 underline-offset-4 hover:underline'

/** The schedule the check-in clock runs on (the inactivity trigger's), or why none runs. */
function RunningSchedule({ engine, triggers }: { engine: EngineStatus | undefined; triggers: Trigger[] | undefined }) {
  if (!engine) return null
  if (!engine.inactivityTriggerId) {
    return (
      <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700" data-testid="running-schedule">
        {noClockText(triggers)}{' '}
        <Link to="/triggers" className={linkClass}>
          {triggers?.some((t) => t.type === 'inactivity') ? SETTINGS_CLOCK_COPY.change : SETTINGS_CLOCK_COPY.setUp}
        </Link>
        .
      </p>
    )
  }
  return (
    <section className="grid gap-3 rounded-lg border border-brand-100 bg-brand-50/40 p-3" data-testid="running-schedule" aria-label={SETTINGS_CLOCK_COPY.runningTitle}>
      <p className="text-sm font-medium text-slate-900">{SETTINGS_CLOCK_COPY.runningTitle}</p>
      <dl className="grid gap-3 sm:grid-cols-3">
        <Fact label="Check-in schedule" testId="settings-schedule">
          {scheduleText(engine)}
        </Fact>
        <Fact label="Next check-in e-mail" testId="settings-next-check-in">
          {formatWhen(engine.nextCheckInAt)}
        </Fact>
        <Fact label="Fires" testId="settings-fires-at">
          {formatWhen(engine.firesAt)} unless you check in
        </Fact>
      </dl>
      <Link to="/triggers" className={cn(linkClass, 'text-sm')}>
        {SETTINGS_CLOCK_COPY.change}
      </Link>
    </section>
  )
}

/**
 * /settings (seeds 000 §2): the check-in frequency a new inactivity trigger starts at, beside the
 * schedule the clock runs on now (the inactivity trigger's own).
 */
export function SettingsPage() {
  const { data: user } = useCurrentUser()
  const update = useUpdatePingSettings()
  const engine = useEngineStatus()
  const triggers = useTriggers()
  const [frequency, setFrequency] = useState<number>(settingsFrequencyDays(user?.pingFrequency ?? null))
  if (!user) return null
  const grace = settingsGraceText(engine.data?.graceDays ?? null)

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    update.mutate(
      // The request's grace period is the spec's fixed field; the grace that runs is the trigger's.
      { pingFrequency: frequency, gracePeriod: CHECKIN_GRACE_DAYS },
      {
        onSuccess: () => toast({ title: SETTINGS_MESSAGES.updatedTitle, description: SETTINGS_MESSAGES.updatedBody, variant: 'success' }),
        onError: (error) =>
          toast({ title: SETTINGS_MESSAGES.failedTitle, description: errorText(error, SETTINGS_MESSAGES.failedBody), variant: 'destructive' }),
      },
    )
  }

  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <h1 className="text-2xl font-bold text-slate-900">Account Settings</h1>
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <BellRing className="size-5 text-brand-700" aria-hidden /> Inactivity Monitoring
          </CardTitle>
          <CardDescription>{inactivityMonitoringText(Boolean(engine.data?.inactivityTriggerId))}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          <RunningSchedule engine={engine.data} triggers={triggers.data} />
          <form onSubmit={onSubmit} className="grid gap-6">
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-medium text-slate-800">Check-in frequency</legend>
              <p className="-mt-1 mb-1 text-sm text-slate-600">{SETTINGS_CLOCK_COPY.frequencyHint}</p>
              {CHECKIN_FREQUENCY_OPTIONS.map((days) => {
                const option = CHECKIN_FREQUENCY_LABELS[days]
                const selected = frequency === days
                return (
                  <label
                    key={days}
                    className={cn(
                      'flex cursor-pointer items-start gap-3 rounded-lg border p-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600',
                      selected ? 'border-brand-600 bg-brand-50' : 'border-slate-200 hover:bg-slate-50',
                    )}
                  >
                    <input
                      type="radio"
                      name="pingFrequency"
                      value={days}
                      checked={selected}
                      onChange={() => setFrequency(days)}
                      className="mt-1 accent-brand-700"
                    />
                    <span>
                      <span className="block font-medium text-slate-900">
                        {option.label} ({days} days)
                      </span>
                      <span className="block text-sm text-slate-600">{option.description}</span>
                    </span>
                  </label>
                )
              })}
            </fieldset>
            <div className="grid gap-1">
              <span className="text-sm font-medium text-slate-800">Grace period</span>
              <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700" data-testid="grace-period">
                {grace}
              </p>
            </div>
            <div>
              <Button type="submit" disabled={update.isPending}>
                {update.isPending ? 'Saving...' : 'Save Settings'}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
      <SafetyWindowCard />
      <ChannelsCard />
      <VaultPassphraseCard />
      <VaultRecoveryCard />
      <ExportCard />
      <EstateCard />
      <Card>
        <CardHeader>
          <CardTitle>Current Settings Summary</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3 text-sm text-slate-700">
          <p>
            Check-in frequency: <strong data-testid="summary-frequency">{settingsFrequencyDays(user.pingFrequency)} days</strong>
          </p>
          <p>
            Grace period: <strong data-testid="summary-grace">{grace}</strong>
          </p>
          <Alert variant="info">
            <Info aria-hidden />
            <AlertDescription data-testid="settings-notice">{settingsNotice(settingsFrequencyDays(user.pingFrequency))}</AlertDescription>
          </Alert>
        </CardContent>
      </Card>
    </div>
  )
}
