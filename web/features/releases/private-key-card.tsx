import { CircleCheckBig, KeyRound, ShieldAlert } from 'lucide-react'
import { RELEASE_MESSAGES } from '../../../contract/releases'
import { useId, useState, type Ref } from 'react'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { IconHeading } from '@/components/ui/icon-heading'
import { PasswordField } from '@/components/ui/form-field'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { KitFileButton } from './kit-file-button'

// The beneficiary's private key: pasted, or read from the Access Kit's text file. Only the imported
// (non-extractable) key is kept, by the page, in memory; the text is cleared once it is imported.


export function PrivateKeyCard({
  loaded,
  error,
  mismatch,
  disabled,
  onText,
  onFile,
  onForget,
  onPassphrase,
  ref,
}: {
  loaded: boolean
  error: string | null
  /** A loaded key that opened none of the assets. */
  mismatch: boolean
  disabled: boolean
  onText: (text: string) => Promise<boolean>
  onFile: (file: File) => Promise<boolean>
  onForget: () => void
  /** Opens the heir's passphrase backup of their key instead of the kit. */
  onPassphrase?: (passphrase: string) => Promise<boolean>
  ref?: Ref<HTMLTextAreaElement>
}) {
  const id = useId()
  const [text, setText] = useState('')
  const [checking, setChecking] = useState(false)
  const [usePassphrase, setUsePassphrase] = useState(false)
  const [passphrase, setPassphrase] = useState('')

  const run = async (load: () => Promise<boolean>) => {
    setChecking(true)
    try {
      if (await load()) {
        setText('')
        setPassphrase('')
      }
    } finally {
      setChecking(false)
    }
  }

  if (loaded && mismatch) {
    // A key that opens nothing is not "loaded" in any sense that helps: say so, and offer another.
    return (
      <Card className="grid gap-3 border-red-200 p-5 sm:p-6" data-testid="key-does-not-fit">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex items-start gap-3">
            <ShieldAlert className="mt-0.5 size-5 shrink-0 text-red-600" aria-hidden />
            <div className="grid gap-1" role="alert">
              <h2 className="font-semibold text-slate-900">{RELEASE_MESSAGES.keyDoesNotFitTitle}</h2>
              <p className="text-sm text-red-700">{RELEASE_MESSAGES.keyDoesNotFit}</p>
            </div>
          </div>
          <Button variant="outline" size="sm" onClick={onForget} disabled={disabled}>
            Use another key
          </Button>
        </div>
      </Card>
    )
  }

  if (loaded) {
    return (
      <Card className="grid gap-3 p-5 sm:p-6">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex items-start gap-3">
            <CircleCheckBig className="mt-0.5 size-5 shrink-0 text-emerald-600" aria-hidden />
            <div className="grid gap-1">
              <h2 className="font-semibold text-slate-900">Private key loaded</h2>
              <p className="text-sm text-slate-600">
                It stays in this browser tab, is never sent anywhere, and is forgotten when you close the tab.
              </p>
            </div>
          </div>
          <Button variant="outline" size="sm" onClick={onForget} disabled={disabled}>
            Forget key
          </Button>
        </div>
      </Card>
    )
  }

  if (usePassphrase && onPassphrase) {
    return (
      <Card className="grid gap-4 p-5 sm:p-6">
        <IconHeading icon={KeyRound} size="card" title="Your passphrase backup">
          If you set up a passphrase backup of your key from your invitation e-mail, your passphrase opens it here, in this browser. The
          passphrase is never sent.
        </IconHeading>
        <form
          className="grid gap-3"
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            void run(() => onPassphrase(passphrase))
          }}
        >
          <PasswordField
            label="Backup passphrase"
            autoComplete="current-password"
            value={passphrase}
            onChange={(e) => setPassphrase(e.target.value)}
            error={error ?? undefined}
            disabled={checking || disabled}
          />
          <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={() => setUsePassphrase(false)} disabled={checking || disabled}>
              Use my Access Kit instead
            </Button>
            <Button type="submit" disabled={checking || disabled}>
              {checking ? 'Checking...' : 'Open with passphrase'}
            </Button>
          </div>
        </form>
      </Card>
    )
  }

  return (
    <Card className="grid gap-4 p-5 sm:p-6">
      <IconHeading icon={KeyRound} size="card" title="Your private key">
        Paste the private key from your Beneficiary Access Kit, from the “Vault fingerprint” line above it (older kits have none: then
        from the BEGIN line) to the END line, or load the kit’s text file. It is used only in this browser to decrypt what was left to
        you, and is never sent or stored.
      </IconHeading>
      <form
        className="grid gap-3"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          void run(() => onText(text))
        }}
      >
        <div className="grid gap-1.5">
          <Label htmlFor={id}>Private key</Label>
          <Textarea
            ref={ref}
            id={id}
            rows={6}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={'Vault fingerprint: …\n-----BEGIN PRIVATE KEY-----\n…\n-----END PRIVATE KEY-----'}
            className="font-mono text-xs sm:text-xs"
            autoComplete="off"
            autoCorrect="off"
            autoCapitalize="off"
            spellCheck={false}
            aria-invalid={!!error}
            aria-describedby={error ? `${id}-error` : undefined}
            disabled={checking || disabled}
          />
          {error && (
            <p id={`${id}-error`} role="alert" className="text-sm text-red-600">
              {error}
            </p>
          )}
        </div>
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <KitFileButton onFile={(chosen) => void run(() => onFile(chosen))} disabled={checking || disabled} />
          {onPassphrase && (
            <Button variant="ghost" onClick={() => setUsePassphrase(true)} disabled={checking || disabled}>
              Use my passphrase instead
            </Button>
          )}
          <Button type="submit" disabled={checking || disabled}>
            {checking ? 'Checking...' : 'Use this key'}
          </Button>
        </div>
      </form>
    </Card>
  )
}
