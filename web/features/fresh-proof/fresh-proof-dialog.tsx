import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { KeyRound, ShieldCheck } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { FRESH_PROOF_PATHS, type ProofMethod } from '../../../contract/fresh-proof-constants'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Field, PasswordInput } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { apiJson, errorText } from '@/lib/api-client'
import { freshProofDialogChanged, settleFreshProof, useFreshProofRequest } from '@/lib/fresh-proof-store'
import { missingProofText, proofBody, type TypedProof } from './proof-rules'

async function proveWithKey(): Promise<void> {
  const { startAuthentication } = await import('@simplewebauthn/browser')
  const optionsJSON = await apiJson<PublicKeyCredentialRequestOptionsJSON>('POST', FRESH_PROOF_PATHS.keyOptions)
  const response = await startAuthentication({ optionsJSON })
  await apiJson('POST', FRESH_PROOF_PATHS.prove, { method: 'security_key', response })
}

/**
 * "Confirm it's you": shown when the API refuses an act for want of fresh proof. The password, a
 * security key or an authenticator code; once given, the act that asked is sent again.
 */
export function FreshProofDialog() {
  const request = useFreshProofRequest()
  return <Dialog open={request !== null} onOpenChange={freshProofDialogChanged}>{request && <ProofForm methods={request.methods} />}</Dialog>
}

function ProofForm({ methods }: { methods: ProofMethod[] }) {
  const [method, setMethod] = useState<TypedProof>('password')
  const [secret, setSecret] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)

  const attempt = async (prove: () => Promise<unknown>) => {
    setBusy(true)
    setError(undefined)
    try {
      await prove()
      settleFreshProof(true)
    } catch (failure) {
      setError(errorText(failure, 'That did not work. Try again.'))
      setBusy(false)
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const body = proofBody(method, secret)
    if (!body) {
      setError(missingProofText(method))
      return
    }
    void attempt(() => apiJson('POST', FRESH_PROOF_PATHS.prove, body))
  }

  return (
    <DialogContent aria-describedby="fresh-proof-description">
      <DialogHeader>
        <DialogTitle className="flex items-center gap-2">
          <ShieldCheck className="size-5 text-brand-700" aria-hidden />
          Confirm it’s you
        </DialogTitle>
        <DialogDescription id="fresh-proof-description">
          This change protects your account and the people you leave things to, so it needs more than being signed in. You will not be asked again for 5 minutes.
        </DialogDescription>
      </DialogHeader>
      <form onSubmit={submit} className="grid gap-4" noValidate>
        {method === 'password' ? (
          <Field label="Your password" error={error}>
            {({ id, describedBy, invalid }) => (
              <PasswordInput id={id} aria-describedby={describedBy} aria-invalid={invalid} autoComplete="current-password" autoFocus value={secret} onChange={(e) => setSecret(e.target.value)} />
            )}
          </Field>
        ) : (
          <Field label="Code from your authenticator app (or a recovery code)" error={error}>
            {({ id, describedBy, invalid }) => (
              <Input id={id} aria-describedby={describedBy} aria-invalid={invalid} inputMode="numeric" autoComplete="one-time-code" autoFocus value={secret} onChange={(e) => setSecret(e.target.value)} />
            )}
          </Field>
        )}
        <DialogFooter className="sm:justify-between">
          <div className="flex flex-col gap-2 sm:flex-row">
            {methods.includes('security_key') && (
              <Button type="button" variant="outline" disabled={busy} onClick={() => void attempt(proveWithKey)}>
                <KeyRound aria-hidden /> Use a security key
              </Button>
            )}
            {methods.includes('authenticator') && (
              <Button
                type="button"
                variant="ghost"
                disabled={busy}
                onClick={() => {
                  setMethod(method === 'password' ? 'authenticator' : 'password')
                  setSecret('')
                  setError(undefined)
                }}
              >
                {method === 'password' ? 'Use authenticator app' : 'Use password'}
              </Button>
            )}
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row">
            <Button type="button" variant="outline" disabled={busy} onClick={() => settleFreshProof(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Checking…' : 'Confirm'}
            </Button>
          </div>
        </DialogFooter>
      </form>
    </DialogContent>
  )
}

