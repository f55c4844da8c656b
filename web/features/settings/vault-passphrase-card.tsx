import { KeyRound } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import type { PublicUser } from '../../../contract/auth'
import { VAULT_MESSAGES, type PassphraseChangeBody } from '../../../contract/vault'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { PasswordField } from '@/components/ui/form-field'
import { useQueryClient } from '@tanstack/react-query'
import { currentUserKey, useCurrentUser } from '@/features/auth/api'
import { storedVault } from '@/features/vault/api'
import { PassphraseAdvice } from '@/features/vault/passphrase-advice'
import { checkGuessing, GUESSING_MESSAGES, usePassphraseGuessing } from '@/features/vault/passphrase-guessing'
import { scorePassphrase, STRENGTH_MIN } from '@/features/vault/passphrase-strength'
import { StrengthMeter } from '@/features/vault/strength-meter'
import { useVaultUnlocked, vaultSession, VaultKeyProblemError } from '@/features/vault/vault-session'
import { apiJson, errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'

/**
 * Changing the vault passphrase (vault format 2): the current one re-entered and checked in this
 * browser, the new one held to the same rules as at setup; one request re-wraps the vault key.
 */
export function VaultPassphraseCard() {
  const { data: user } = useCurrentUser()
  const unlocked = useVaultUnlocked()
  if (!user?.vaultSetup) return null
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound className="size-5 text-brand-700" aria-hidden /> Vault passphrase
        </CardTitle>
        <CardDescription>Change the passphrase that opens your vault. Everything in it stays as it is.</CardDescription>
      </CardHeader>
      <CardContent>
        {unlocked && user.vaultKey ? (
          <ChangeForm user={user} />
        ) : (
          <p className="text-sm text-slate-700">{unlocked ? VAULT_MESSAGES.moveFirst : VAULT_MESSAGES.changeNeedsUnlock}</p>
        )}
      </CardContent>
    </Card>
  )
}

function ChangeForm({ user }: { user: PublicUser }) {
  const queryClient = useQueryClient()
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const strength = scorePassphrase(next)
  const personal = [user.email, user.displayName ?? '']
  const guessing = usePassphraseGuessing(strength.score >= STRENGTH_MIN ? next : '', personal)
  const mismatch = confirmation.length > 0 && confirmation !== next

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!current) return setError(VAULT_MESSAGES.enterCurrentPassphrase)
    if (!next) return setError(VAULT_MESSAGES.enterPassphrase)
    if (next !== confirmation) return setError(VAULT_MESSAGES.passphrasesDoNotMatch)
    if (next === current) return setError(VAULT_MESSAGES.samePassphrase)
    if (strength.score < STRENGTH_MIN) return setError(VAULT_MESSAGES.tooWeak)
    const vault = storedVault(user)
    if (!vault) return setError(VAULT_MESSAGES.changeFailed)
    setBusy(true)
    setError(null)
    try {
      const verdict = await checkGuessing(next, personal)
      if (!verdict.ok) return setError([GUESSING_MESSAGES.tooGuessable, ...verdict.advice].join(' '))
      const changed = await vaultSession.changePassphrase(current, next, vault, async (body: PassphraseChangeBody) => {
        queryClient.setQueryData(currentUserKey, (await apiJson<{ user: PublicUser }>('POST', '/api/vault/passphrase', body)).user)
      })
      if (!changed) return setError(VAULT_MESSAGES.currentPassphraseWrong)
      setCurrent('')
      setNext('')
      setConfirmation('')
      toast({ title: VAULT_MESSAGES.passphraseChanged, description: VAULT_MESSAGES.passphraseChangedBody, variant: 'success' })
    } catch (e) {
      setError(e instanceof VaultKeyProblemError ? e.message : errorText(e, VAULT_MESSAGES.changeFailed))
    } finally {
      setBusy(false)
    }
  }

  const disabled = busy || !current || !next || next !== confirmation || strength.score < STRENGTH_MIN || guessing?.ok === false
  return (
    <form onSubmit={(e) => void onSubmit(e)} className="grid gap-4" noValidate aria-label="Change vault passphrase">
      <PasswordField label="Current vault passphrase" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
      <PasswordField label="New vault passphrase" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} />
      {next && <StrengthMeter strength={strength} />}
      <PassphraseAdvice verdict={guessing} />
      <PasswordField
        label="Confirm new passphrase"
        autoComplete="new-password"
        error={mismatch ? VAULT_MESSAGES.passphrasesDoNotMatch : undefined}
        value={confirmation}
        onChange={(e) => setConfirmation(e.target.value)}
      />
      {error && (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
      <div>
        <Button type="submit" disabled={disabled}>
          {busy ? 'Changing...' : 'Change passphrase'}
        </Button>
      </div>
    </form>
  )
}
