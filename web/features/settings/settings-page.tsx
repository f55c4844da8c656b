import { BellRing, Info } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { CHECKIN_FREQUENCY_OPTIONS, CHECKIN_GRACE_DAYS } from '../../../contract/constants'
import { CHECKIN_FREQUENCY_LABELS, frequencyInForce, SETTINGS_MESSAGES, settingsNotice } from '../../../contract/settings'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { useCurrentUser } from '@/features/auth/api'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { cn } from '@/lib/utils'
import { useUpdatePingSettings } from './api'
import { SafetyWindowCard } from './safety-window-card'

/** /settings: the inactivity check-in frequency, with the fixed 3-day grace period (seeds 000 §2). */
export function SettingsPage() {
  const { data: user } = useCurrentUser()
  const update = useUpdatePingSettings()
  // The selection starts at the frequency the clock runs on now, never at another default.
  const [frequency, setFrequency] = useState<number>(frequencyInForce(user?.pingFrequency ?? null))
  if (!user) return null

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    update.mutate(
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
          <CardDescription>
            We send you regular check-in e-mails. If you do not respond within the grace period, your inheritance triggers
            activate automatically.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={onSubmit} className="grid gap-6">
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-medium text-slate-800">Check-in frequency</legend>
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
                {CHECKIN_GRACE_DAYS} days (fixed)
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
      <Card>
        <CardHeader>
          <CardTitle>Current Settings Summary</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3 text-sm text-slate-700">
          <p>
            Check-in frequency: <strong data-testid="summary-frequency">{frequencyInForce(user.pingFrequency)} days</strong>
          </p>
          <p>
            Grace period: <strong>{CHECKIN_GRACE_DAYS} days</strong>
          </p>
          <Alert variant="info">
            <Info aria-hidden />
            <AlertDescription data-testid="settings-notice">{settingsNotice(frequencyInForce(user.pingFrequency))}</AlertDescription>
          </Alert>
        </CardContent>
      </Card>
    </div>
  )
}
