import { AlertTriangle, Download } from 'lucide-react'
import { useRef, useState, type ReactNode } from 'react'
import { EXPORT_MESSAGES } from '../../../contract/vault-export'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { toast } from '@/lib/toast-store'
import type { ExportOutcome } from './run-export'
import { ExportStoppedError, type ExportProgress, type ExportReport } from './vault-zip'

/** What the dialog hands the export it starts. */
export interface ExportControls {
  signal: AbortSignal
  onProgress: (progress: ExportProgress) => void
  onListed: (total: number) => void
}

type Phase =
  | { kind: 'confirm' }
  | { kind: 'running'; progress: ExportProgress | null }
  | { kind: 'done'; report: ExportReport }
  | { kind: 'failed'; message: string }

/**
 * The steps of taking items out into one ZIP, for the owner and the heir alike: a confirmation
 * that says the file holds everything unencrypted, then "12 of 40 items" with Cancel, then what
 * was left out (if anything) or the failure, in words.
 */
export function ExportDialog({
  open,
  onOpenChange,
  title,
  children,
  confirmLabel,
  start,
  errorText,
  doneBody,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  /** The confirmation step's words. */
  children: ReactNode
  confirmLabel: string
  /** Called straight from the confirm click (the save dialog needs the user's gesture). */
  start: (controls: ExportControls) => Promise<ExportOutcome>
  errorText: (error: unknown) => string
  doneBody: (report: ExportReport) => string
}) {
  const [phase, setPhase] = useState<Phase>({ kind: 'confirm' })
  const controller = useRef<AbortController | null>(null)
  const running = phase.kind === 'running'

  const close = (next: boolean) => {
    if (next) return onOpenChange(true)
    // Closing while it runs is the Cancel button's job, not a stray Escape's.
    if (running) return
    setPhase({ kind: 'confirm' })
    onOpenChange(false)
  }

  const begin = async () => {
    const abort = new AbortController()
    controller.current = abort
    setPhase({ kind: 'running', progress: null })
    try {
      const outcome = await start({
        signal: abort.signal,
        onProgress: (progress) => setPhase({ kind: 'running', progress }),
        onListed: (total) => setPhase({ kind: 'running', progress: { done: 0, total, current: null } }),
      })
      if (outcome.kind === 'cancelled') {
        toast({ title: EXPORT_MESSAGES.cancelled, variant: 'default' })
        setPhase({ kind: 'confirm' })
        onOpenChange(false)
        return
      }
      toast({ title: EXPORT_MESSAGES.doneTitle, description: doneBody(outcome.report), variant: 'success' })
      if (outcome.report.leftOut.length === 0) {
        setPhase({ kind: 'confirm' })
        onOpenChange(false)
      } else {
        setPhase({ kind: 'done', report: outcome.report })
      }
    } catch (error) {
      setPhase({ kind: 'failed', message: error instanceof ExportStoppedError ? error.message : errorText(error) })
    } finally {
      controller.current = null
    }
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent hideClose={running} onEscapeKeyDown={(e) => running && e.preventDefault()} onPointerDownOutside={(e) => running && e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{phase.kind === 'confirm' || phase.kind === 'running' ? title : phase.kind === 'done' ? EXPORT_MESSAGES.doneTitle : EXPORT_MESSAGES.failedTitle}</DialogTitle>
          <DialogDescription className="sr-only">{title}</DialogDescription>
        </DialogHeader>
        {phase.kind === 'confirm' && (
          <>
            <div className="grid gap-3 text-sm text-slate-700">{children}</div>
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button onClick={() => void begin()}>
                <Download aria-hidden />
                {confirmLabel}
              </Button>
            </DialogFooter>
          </>
        )}
        {phase.kind === 'running' && (
          <>
            <RunningProgress progress={phase.progress} />
            <DialogFooter>
              <Button variant="outline" onClick={() => controller.current?.abort()}>
                Cancel
              </Button>
            </DialogFooter>
          </>
        )}
        {phase.kind === 'done' && (
          <>
            <p className="text-sm text-slate-700">{doneBody(phase.report)}</p>
            <LeftOutList items={phase.report.leftOut} />
            <DialogFooter>
              <Button onClick={() => close(false)}>Close</Button>
            </DialogFooter>
          </>
        )}
        {phase.kind === 'failed' && (
          <>
            <Alert variant="destructive" data-testid="export-error">
              <AlertTriangle aria-hidden />
              <AlertDescription>{phase.message}</AlertDescription>
            </Alert>
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)}>
                Close
              </Button>
              <Button onClick={() => setPhase({ kind: 'confirm' })}>Try again</Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}

function RunningProgress({ progress }: { progress: ExportProgress | null }) {
  const percent = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0
  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium text-slate-900" role="status" aria-live="polite" data-testid="export-progress">
        {progress ? EXPORT_MESSAGES.progress(progress.done, progress.total) : 'Preparing...'}
      </p>
      <div
        className="h-2 overflow-hidden rounded-full bg-slate-100"
        role="progressbar"
        aria-label="Items saved"
        aria-valuemin={0}
        aria-valuemax={progress?.total ?? 0}
        aria-valuenow={progress?.done ?? 0}
      >
        <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      {progress?.current && <p className="truncate text-xs text-slate-600">{progress.current}</p>}
    </div>
  )
}

export function LeftOutList({ items, title }: { items: readonly { name: string; problem: string }[]; title?: string }) {
  if (items.length === 0) return null
  return (
    <Alert variant="warning" data-testid="export-left-out">
      <AlertTriangle aria-hidden />
      <AlertTitle>{title ?? EXPORT_MESSAGES.leftOutTitle(items.length)}</AlertTitle>
      <AlertDescription>
        <ul className="grid gap-1">
          {items.map((item, i) => (
            <li key={i}>
              <span className="font-medium">{item.name}</span>: {item.problem}
            </li>
          ))}
        </ul>
        {!title && <p className="mt-1">{EXPORT_MESSAGES.leftOutBody}</p>}
      </AlertDescription>
    </Alert>
  )
}
