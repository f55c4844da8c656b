import { useQuery } from '@tanstack/react-query'
import { CircleCheckBig, ShieldCheck } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { HEIR_BACKUP_MESSAGES } from '../../../contract/heir-key-backup'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { PasswordField } from '@/components/ui/form-field'
import { IconHeading } from '@/components/ui/icon-heading'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { linkErrorText } from '@/features/circle/api'
import { PassphraseAdvice } from '@/features/vault/passphrase-advice'
import { usePassphraseGuessing } from '@/features/vault/passphrase-guessing'
import { scorePassphrase, STRENGTH_MIN } from '@/features/vault/passphrase-strength'
import { StrengthMeter } from '@/features/vault/strength-meter'
import { backupOffered, canSaveBackup, fetchBackupContext, saveHeirBackup } from './heir-backup'
import { KitFileButton } from './kit-file-button'
import { kitFileTooLarge } from './portal'
import { RELEASE_MESSAGES } from '../../../contract/releases'

// On the invitation's opt-in page: the heir protects a copy of their key with a passphrase of their
// own, so a lost Access Kit does not lose what is left to them. The kit's text is read here and
// wrapped here; only the wrapped bytes leave the browser.

export function HeirBackupCard({ token, personal = [] }: { token: string; personal?: readonly string[] }) {
  const context = useQuery({ queryKey: ['heir-backup-context', token], queryFn: () => fetchBackupContext(token), retry: false })
  const [kitText, setKitText] = useState('')
  const [passphrase, setPassphrase] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [saved, setSaved] = useState(false)
  const [open, setOpen] = useState(false)
  const strength = scorePassphrase(passphrase)
  const guessing = usePassphraseGuessing(strength.score >= STRENGTH_MIN ? passphrase : '', personal)

  if (!backupOffered(context.data)) return null
  const ctx = context.data

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setSaving(true)
    setError(null)
    try {
      const result = await saveHeirBackup(token, ctx, kitText, passphrase, confirmation, { personal })
      if (!result.ok) return setError(result.error)
      setSaved(true)
      setKitText('')
      setPassphrase('')
      setConfirmation('')
      void context.refetch()
    } catch (e) {
      setError(linkErrorText(e, 'The backup could not be saved. Please try again.'))
    } finally {
      setSaving(false)
    }
  }

  if (saved) {
    return (
      <Card className="grid gap-2 p-5" data-testid="heir-backup-saved">
        <p className="flex gap-2 font-semibold text-slate-900">
          <CircleCheckBig className="mt-0.5 size-5 shrink-0 text-emerald-600" aria-hidden />
          Passphrase backup saved
        </p>
        <p className="text-sm text-slate-600">{HEIR_BACKUP_MESSAGES.saved}</p>
        <p className="text-sm text-slate-600">{HEIR_BACKUP_MESSAGES.replacedKitNote}</p>
      </Card>
    )
  }

  return (
    <Card className="grid gap-4 p-5">
      <IconHeading icon={ShieldCheck} size="card" title={ctx.hasKeyBackup ? 'Your passphrase backup' : 'Protect your key with a passphrase'}>
        {ctx.hasKeyBackup
          ? 'You already have a passphrase backup of your key. You can replace it with a new passphrase here.'
          : 'Your Access Kit is the only way to open what is left to you. If you like, keep a copy of its key here, locked with a passphrase only you know, so that losing the kit does not lose everything.'}
      </IconHeading>
      {!open ? (
        <Button variant="outline" onClick={() => setOpen(true)}>
          {ctx.hasKeyBackup ? 'Replace my passphrase backup' : 'Set up a passphrase backup'}
        </Button>
      ) : (
        <form className="grid gap-3" noValidate onSubmit={(e) => void onSubmit(e)}>
          <div className="grid gap-1.5">
            <Label htmlFor="heir-backup-kit">Your Access Kit</Label>
            <Textarea
              id="heir-backup-kit"
              rows={5}
              value={kitText}
              onChange={(e) => setKitText(e.target.value)}
              placeholder={'Vault fingerprint: …\n-----BEGIN PRIVATE KEY-----\n…\n-----END PRIVATE KEY-----'}
              className="font-mono text-xs sm:text-xs"
              autoComplete="off"
              spellCheck={false}
              disabled={saving}
            />
            <KitFileButton
              size="sm"
              className="justify-self-start"
              disabled={saving}
              onFile={(chosen) => {
                // An Access Kit is a few kilobytes: a larger file is not one, and saying so beats ignoring it.
                if (kitFileTooLarge(chosen.size)) return setError(RELEASE_MESSAGES.privateKeyInvalid)
                setError(null)
                void chosen.text().then(setKitText)
              }}
            />
          </div>
          <PasswordField label="Backup passphrase" autoComplete="new-password" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} disabled={saving} />
          {passphrase && <StrengthMeter strength={strength} />}
          <PassphraseAdvice verdict={guessing} />
          <PasswordField label="Confirm backup passphrase" autoComplete="new-password" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} disabled={saving} />
          <p className="text-xs text-slate-500">
            The kit and the passphrase stay in this browser; only the locked copy is stored. Nobody, including us, can recover this passphrase.{' '}
            {HEIR_BACKUP_MESSAGES.replacedKitNote}
          </p>
          {error && (
            <p role="alert" className="text-sm text-red-600">
              {error}
            </p>
          )}
          <Button type="submit" disabled={!canSaveBackup({ saving, kitText, passphrase, guessing })}>
            {saving ? 'Saving...' : 'Save passphrase backup'}
          </Button>
        </form>
      )}
    </Card>
  )
}
