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
import { useNewPassphrase } from '@/features/vault/new-passphrase'
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
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const next = useNewPassphrase([user.email, user.displayName ?? ''])

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!current) return setError(VAULT_MESSAGES.enterCurrentPassphrase)
    const problem = next.ruleProblem((chosen) => (chosen === current ? VAULT_MESSAGES.samePassphrase : null))
    if (problem) return setError(problem)
    const vault = storedVault(user)
    if (!vault) return setError(VAULT_MESSAGES.changeFailed)
    setBusy(true)
    setError(null)
    try {
      const guessable = await next.guessingProblem()
      if (guessable) return setError(guessable)
      const changed = await vaultSession.changePassphrase(current, next.value, vault, async (body: PassphraseChangeBody) => {
        queryClient.setQueryData(currentUserKey, (await apiJson<{ user: PublicUser }>('POST', '/api/vault/passphrase', body)).user)
      })
      if (!changed) return setError(VAULT_MESSAGES.currentPassphraseWrong)
      setCurrent('')
      next.reset()
      toast({ title: VAULT_MESSAGES.passphraseChanged, description: VAULT_MESSAGES.passphraseChangedBody, variant: 'success' })
    } catch (e) {
      setError(e instanceof VaultKeyProblemError ? e.message : errorText(e, VAULT_MESSAGES.changeFailed))
    } finally {
      setBusy(false)
    }
  }

  const disabled = busy || !current || !next.ready
  return (
    <form onSubmit={(e) => void onSubmit(e)} className="grid gap-4" noValidate aria-label="Change vault passphrase">
      <PasswordField label="Current vault passphrase" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
      {next.fields()}
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
