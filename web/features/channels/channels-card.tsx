import { MailPlus } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { backupEmailBodySchema, CHANNEL_COPY, emergencyContactBodySchema, type ChannelsView } from '../../../contract/channels'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Checkbox } from '@/components/ui/checkbox'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { LoadError } from '@/components/ui/load-error'
import { Spinner } from '@/components/ui/spinner'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { useChannels, useRemoveBackup, useResendBackup, useSetBackup, useSetContact } from './api'

const notSaved = (e: unknown) => toast({ title: 'Not saved', description: errorText(e, 'Please try again.'), variant: 'destructive' })

/** Settings: the owner's backup address and emergency contact (worker/mail/channels.ts says who hears what). */
export function ChannelsCard() {
  const query = useChannels()
  return (
    <Card data-testid="channels-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MailPlus className="size-5 text-brand-700" aria-hidden /> {CHANNEL_COPY.title}
        </CardTitle>
        <CardDescription>{CHANNEL_COPY.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {query.isPending ? (
          <Spinner label="Loading your addresses" />
        ) : query.isError ? (
          <LoadError title="Your addresses could not be loaded" message={errorText(query.error, 'Please try again.')} onRetry={() => query.refetch()} retrying={query.isFetching} />
        ) : (
          <>
            <p className="text-sm text-slate-700">
              {CHANNEL_COPY.primaryLabel}: <span className="font-medium">{query.data.primary.address}</span>{' '}
              {query.data.primary.bouncing && <Badge variant="destructive">{CHANNEL_COPY.bouncing}</Badge>}
            </p>
            <BackupSection backup={query.data.backup} />
            <ContactSection key={`${query.data.contact?.address}:${query.data.contact?.alerts}`} contact={query.data.contact} />
          </>
        )}
      </CardContent>
    </Card>
  )
}

function BackupSection({ backup }: { backup: ChannelsView['backup'] }) {
  const set = useSetBackup()
  const remove = useRemoveBackup()
  const resend = useResendBackup()
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | null>(null)
  const id = useId()

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = backupEmailBodySchema.safeParse({ email: value })
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? null)
    setError(null)
    set.mutate(parsed.data, {
      onSuccess: (r) => {
        setValue('')
        toast({ title: r.message, variant: 'success' })
      },
      onError: notSaved,
    })
  }

  return (
    <section className="grid gap-3" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
        {CHANNEL_COPY.backupLabel}
      </h3>
      {backup && (
        <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="backup-status">
          <span className="font-medium">{backup.address}</span>
          {backup.verified ? <Badge variant="success">{CHANNEL_COPY.confirmed}</Badge> : <Badge variant="warning">{CHANNEL_COPY.waiting}</Badge>}
          {backup.bouncing && <Badge variant="destructive">{CHANNEL_COPY.bouncing}</Badge>}
          {!backup.verified && (
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={resend.isPending}
              onClick={() => resend.mutate(undefined, { onSuccess: (r) => toast({ title: r.message, variant: 'success' }), onError: notSaved })}
            >
              {CHANNEL_COPY.backupResend}
            </Button>
          )}
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={remove.isPending}
            onClick={() => remove.mutate(undefined, { onSuccess: (r) => toast({ title: r.message, variant: 'success' }), onError: notSaved })}
          >
            {CHANNEL_COPY.backupRemove}
          </Button>
        </div>
      )}
      <form onSubmit={onSubmit} noValidate className="grid gap-2 sm:max-w-md">
        <Label htmlFor={`${id}-email`}>{backup ? CHANNEL_COPY.backupReplace : CHANNEL_COPY.backupLabel}</Label>
        <Input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        />
        {error && (
          <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {CHANNEL_COPY.backupHint}
        </p>
        <div>
          <Button type="submit" disabled={set.isPending}>
            {set.isPending ? 'Sending...' : backup ? CHANNEL_COPY.backupReplace : CHANNEL_COPY.backupAdd}
          </Button>
        </div>
      </form>
    </section>
  )
}

function ContactSection({ contact }: { contact: ChannelsView['contact'] }) {
  const set = useSetContact()
  const [email, setEmail] = useState(contact?.address ?? '')
  const [alerts, setAlerts] = useState(contact?.alerts ?? false)
  const [error, setError] = useState<string | null>(null)
  const id = useId()

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = emergencyContactBodySchema.safeParse({ email, alerts })
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? null)
    setError(null)
    set.mutate(parsed.data, { onSuccess: (r) => toast({ title: r.message, variant: 'success' }), onError: notSaved })
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-2 sm:max-w-md" aria-label={CHANNEL_COPY.contactLabel}>
      <Label htmlFor={`${id}-email`}>{CHANNEL_COPY.contactLabel}</Label>
      <div className="flex items-center gap-2">
        <Input
          id={`${id}-email`}
          type="email"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        />
        {contact?.bouncing && <Badge variant="destructive">{CHANNEL_COPY.bouncing}</Badge>}
      </div>
      <div className="flex items-center gap-2">
        <Checkbox id={`${id}-alerts`} checked={alerts} onCheckedChange={(v) => setAlerts(v === true)} />
        <Label htmlFor={`${id}-alerts`}>{CHANNEL_COPY.contactAlerts}</Label>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        {CHANNEL_COPY.contactHint}
      </p>
      <div>
        <Button type="submit" variant="outline" disabled={set.isPending}>
          {CHANNEL_COPY.contactSave}
        </Button>
      </div>
    </form>
  )
}
