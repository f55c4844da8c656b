import { FlaskConical, Rocket } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { TRIGGER_MESSAGES, TRIGGER_TYPE_LABELS, type ManualReleaseResult, type Trigger } from '../../../contract/triggers'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Field, SelectField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { toast } from '@/lib/toast-store'
import { useDryRun, useManualRelease } from './api'
import { configSummary, manualResultText, releaseNowText, TRIGGER_STATUS_BADGES, TRIGGER_TOASTS } from './copy'
import { dryRunShown } from './dry-run'
import { DryRunPanel } from './dry-run-panel'
import { isReleaseConfirmed, manualReleaseGuard, RELEASE_WORD } from './manual-release'
import { failureToast } from './trigger-parts'

const triggerOption = (t: Trigger) => `${TRIGGER_TYPE_LABELS[t.type].title}: ${configSummary(t)} (${TRIGGER_STATUS_BADGES[t.status].label})`

function ReleaseConfirmDialog({
  open,
  onOpenChange,
  trigger,
  reason,
  pending,
  onConfirm,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  trigger: Trigger | undefined
  reason: string
  pending: boolean
  onConfirm: () => void
}) {
  const [typed, setTyped] = useState('')
  const confirmed = isReleaseConfirmed(typed)
  const change = (next: boolean) => {
    if (pending) return
    if (!next) setTyped('')
    onOpenChange(next)
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (confirmed && !pending) onConfirm()
  }
  const prevent = (event: Event) => pending && event.preventDefault()
  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent hideClose={pending} onEscapeKeyDown={prevent} onInteractOutside={prevent}>
        <DialogHeader>
          <DialogTitle>Release now?</DialogTitle>
          <DialogDescription>{releaseNowText(trigger ? TRIGGER_TYPE_LABELS[trigger.type].title : 'this trigger')}</DialogDescription>
        </DialogHeader>
        <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
          Reason: <span className="break-words font-medium text-slate-900">{reason.trim()}</span>
        </p>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <Field label={`Type ${RELEASE_WORD} to confirm`} hint={TRIGGER_MESSAGES.confirmationRequired}>
            {({ id, describedBy }) => (
              <Input
                id={id}
                aria-describedby={describedBy}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                disabled={pending}
              />
            )}
          </Field>
          <DialogFooter>
            <Button variant="outline" onClick={() => change(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={!confirmed || pending}>
              {pending ? 'Releasing...' : 'Release Now'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

/** 'Manual Trigger Test' (seeds 001 §2, §5 'Manual trigger'): a harmless dry run, or a real release behind a typed RELEASE. */
export function ManualTestCard({ triggers }: { triggers: Trigger[] }) {
  const [triggerId, setTriggerId] = useState('')
  const [reason, setReason] = useState('')
  const [confirming, setConfirming] = useState(false)
  const dryRun = useDryRun()
  const release = useManualRelease()
  const selected = triggers.find((t) => t.id === triggerId)
  const shownDryRun = dryRunShown(dryRun.data, triggerId)

  const onDryRun = () => {
    if (!selected) {
      toast({ title: TRIGGER_MESSAGES.missingInformation, description: TRIGGER_TOASTS.selectTrigger, variant: 'destructive' })
      return
    }
    dryRun.mutate(selected.id, { onError: (error) => failureToast(TRIGGER_TOASTS.dryRunFailed, error) })
  }

  const onReleaseNow = () => {
    const guard = manualReleaseGuard(selected?.id, reason)
    if (!guard.ok) {
      toast({ title: guard.title, description: guard.description, variant: 'destructive' })
      return
    }
    setConfirming(true)
  }

  const confirmRelease = () => {
    const guard = manualReleaseGuard(selected?.id, reason)
    if (!guard.ok) return
    release.mutate(
      { triggerId: guard.triggerId, reason: guard.reason, confirm: RELEASE_WORD },
      {
        onSuccess: (result: ManualReleaseResult) => {
          toast({ title: TRIGGER_TOASTS.released, description: manualResultText(result), variant: 'success' })
          setConfirming(false)
          setReason('')
          dryRun.reset()
        },
        onError: (error) => {
          setConfirming(false)
          failureToast(TRIGGER_MESSAGES.executionFailed, error)
        },
      },
    )
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FlaskConical className="size-5 text-brand-700" aria-hidden /> Manual Trigger Test
        </CardTitle>
        <CardDescription>
          Dry Run shows what a trigger would release, and releases nothing. Release Now fires the trigger for real.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {triggers.length === 0 ? (
          <p className="text-sm text-slate-600">You have no triggers yet. Create one on the Security Triggers page to test it here.</p>
        ) : (
          <>
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField
                label="Trigger"
                value={triggerId}
                onChange={(e) => setTriggerId(e.target.value)}
                disabled={release.isPending}
                data-testid="manual-trigger-select"
              >
                <option value="">Select a trigger</option>
                {triggers.map((t) => (
                  <option key={t.id} value={t.id}>
                    {triggerOption(t)}
                  </option>
                ))}
              </SelectField>
              <div className="grid content-start gap-1.5">
                <span className="text-sm font-medium text-slate-800">Its settings</span>
                <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700" data-testid="manual-trigger-settings">
                  {selected ? configSummary(selected) : 'Select a trigger to see its settings'}
                </p>
              </div>
            </div>
            <Field label="Reason" hint="Recorded in your audit log with the release.">
              {({ id, describedBy }) => (
                <Textarea
                  id={id}
                  aria-describedby={describedBy}
                  rows={2}
                  maxLength={500}
                  value={reason}
                  onChange={(e) => setReason(e.target.value)}
                  disabled={release.isPending}
                  placeholder="e.g. Testing the release with my family present"
                />
              )}
            </Field>
            <div className="flex flex-col gap-2 sm:flex-row">
              <Button variant="outline" onClick={onDryRun} disabled={dryRun.isPending || release.isPending}>
                <FlaskConical aria-hidden /> {dryRun.isPending ? 'Running...' : 'Dry Run'}
              </Button>
              <Button variant="destructive" onClick={onReleaseNow} disabled={release.isPending}>
                <Rocket aria-hidden /> Release Now
              </Button>
            </div>
            {shownDryRun && <DryRunPanel result={shownDryRun} />}
          </>
        )}
      </CardContent>
      <ReleaseConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        trigger={selected}
        reason={reason}
        pending={release.isPending}
        onConfirm={confirmRelease}
      />
    </Card>
  )
}
