import { Hourglass } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { SAFETY_WINDOW, safetyWindowNotice } from '../../../contract/settings'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { LoadError } from '@/components/ui/load-error'
import { Spinner } from '@/components/ui/spinner'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { useSafetyWindow, useUpdateSafetyWindow } from './api'
import { readSafetyWindow } from './safety-window-rules'

/** The owner's safety window: how long a release nobody on their side started waits. */
export function SafetyWindowCard() {
  const query = useSafetyWindow()
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Hourglass className="size-5 text-brand-700" aria-hidden /> Safety window
        </CardTitle>
        <CardDescription>Time for you to stop a release you did not start.</CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <Spinner label="Loading the safety window" />
        ) : query.isError ? (
          <LoadError title="The safety window could not be loaded" message={errorText(query.error, 'Please try again.')} onRetry={() => query.refetch()} retrying={query.isFetching} />
        ) : (
          <SafetyWindowForm key={query.data.hours} hours={query.data.hours} />
        )}
      </CardContent>
    </Card>
  )
}

function SafetyWindowForm({ hours }: { hours: number }) {
  const update = useUpdateSafetyWindow()
  const [value, setValue] = useState(String(hours))
  const [error, setError] = useState<string | null>(null)
  const id = useId()

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const read = readSafetyWindow(value)
    if ('error' in read) {
      setError(read.error)
      return
    }
    setError(null)
    update.mutate(read.body, {
      onSuccess: (r) => toast({ title: r.message, description: safetyWindowNotice(r.hours), variant: 'success' }),
      onError: (e) => toast({ title: 'Not saved', description: errorText(e, 'Please try again.'), variant: 'destructive' }),
    })
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <div className="grid gap-1.5 sm:max-w-xs">
        <Label htmlFor={`${id}-hours`}>Safety window (hours)</Label>
        <Input
          id={`${id}-hours`}
          type="number"
          inputMode="numeric"
          min={SAFETY_WINDOW.minHours}
          max={SAFETY_WINDOW.maxHours}
          step={1}
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-notice${error ? ` ${id}-error` : ''}`}
        />
        {error && (
          <p id={`${id}-error`} className="text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
      <p id={`${id}-notice`} className="text-sm text-slate-600" data-testid="safety-window-notice">
        {safetyWindowNotice(hours)} At least {SAFETY_WINDOW.minHours} hours; {SAFETY_WINDOW.defaultHours} unless you change it.
      </p>
      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Safety Window'}
        </Button>
      </div>
    </form>
  )
}
