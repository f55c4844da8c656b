import { CircleCheck, Download, LifeBuoy, Printer } from 'lucide-react'
import { useId, useState } from 'react'
import { RECOVERY_MESSAGES } from '../../../../contract/vault-recovery'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { Label } from '@/components/ui/label'
import { downloadText } from '@/lib/download-text'
import { RecoveryKitPrintView } from './recovery-kit-print'
import { RECOVERY_KIT_FILE_NAME, recoveryKitText, type RecoveryKit } from './recovery-kit'

/**
 * A recovery code just made, shown once: the code, print and download, and a confirmation that
 * it is saved before `onDone` (the code is nowhere else, not even on our servers).
 */
export function RecoveryKitPanel({ kit, doneLabel, onDone }: { kit: RecoveryKit; doneLabel: string; onDone: () => void }) {
  const savedId = useId()
  const [saved, setSaved] = useState(false)
  const [downloaded, setDownloaded] = useState(false)
  return (
    <div className="grid gap-4" data-testid="recovery-kit">
      <Alert variant="warning">
        <LifeBuoy aria-hidden />
        <AlertTitle>Shown only now</AlertTitle>
        <AlertDescription>
          If you forget your vault passphrase, this code is the only other way into your vault. It was made in this browser and we do not
          have it. Print it or save it, and keep it apart from your passphrase.
        </AlertDescription>
      </Alert>
      <p
        className="rounded-lg bg-slate-50 p-4 text-center font-mono text-lg tracking-wider break-all"
        data-testid="recovery-code"
        aria-label="Recovery code"
      >
        {kit.code}
      </p>
      <div className="grid gap-2 sm:grid-cols-2">
        <Button
          onClick={() => {
            downloadText(recoveryKitText(kit), RECOVERY_KIT_FILE_NAME)
            setDownloaded(true)
          }}
        >
          <Download aria-hidden /> Download Recovery Kit
        </Button>
        <Button variant="outline" onClick={() => window.print()}>
          <Printer aria-hidden /> Print Recovery Kit
        </Button>
      </div>
      <p className="text-xs text-slate-500">
        {downloaded ? (
          <span className="inline-flex items-center gap-1 text-emerald-700">
            <CircleCheck className="size-3.5" aria-hidden /> Saved as {RECOVERY_KIT_FILE_NAME}. Print it or copy it to offline storage, then
            delete the file from this computer.
          </span>
        ) : (
          'Print opens your browser’s print window showing only the kit.'
        )}
      </p>
      <div className="flex items-start gap-3">
        <Checkbox id={savedId} checked={saved} onCheckedChange={(value) => setSaved(value === true)} />
        <Label htmlFor={savedId} className="font-normal leading-snug">
          {RECOVERY_MESSAGES.savedConfirmation}
        </Label>
      </div>
      <div className="flex justify-end">
        <Button onClick={onDone} disabled={!saved}>
          {doneLabel}
        </Button>
      </div>
      <RecoveryKitPrintView kit={kit} />
    </div>
  )
}

/** The kit for the signed-in owner and a code just made. */
export function recoveryKitFor(user: { email: string; displayName: string | null }, code: string): RecoveryKit {
  return { email: user.email, displayName: user.displayName ?? user.email, code, createdAt: new Date(), siteUrl: window.location.origin }
}
