import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ShieldAlert, ShieldCheck } from 'lucide-react'
import { useState } from 'react'
import type { Beneficiary } from '../../../contract/circle'
import { KEY_SIGNING_MESSAGES } from '../../../contract/key-signing'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { useVaultUnlocked, vaultSession } from '@/features/vault/vault-session'
import { apiJson } from '@/lib/api-client'
import { beneficiariesKey } from './api'
import { toastFailure, toastSuccess } from './notify'

type Trust = 'signed' | 'unconfirmed' | 'changed'

/**
 * What this vault makes of a beneficiary's key, checked in this browser while the vault is
 * unlocked: signed by it, never signed (a key stored before signing keys: the owner confirms its
 * fingerprint here), or signed by nothing of this vault's (changed outside it).
 */
export function KeyTrust({ beneficiary: b }: { beneficiary: Beneficiary }) {
  const unlocked = useVaultUnlocked()
  const queryClient = useQueryClient()
  const [confirming, setConfirming] = useState(false)
  const trust = useQuery({
    queryKey: ['key-trust', b.id, b.keyVersion, b.email, b.publicKey, b.keySignature],
    queryFn: async (): Promise<Trust> => {
      if (b.keySignature === null) return 'unconfirmed'
      return (await vaultSession.isSignedKey(b)) ? 'signed' : 'changed'
    },
    enabled: unlocked && !vaultSession.hasSigningProblem(),
    staleTime: Infinity,
  })
  const confirm = useMutation({
    mutationFn: async () => {
      const keySignature = await vaultSession.signKey({ email: b.email, keyVersion: b.keyVersion, publicKey: b.publicKey })
      return apiJson<Beneficiary>('POST', `/api/beneficiaries/${encodeURIComponent(b.id)}/key-signature`, { keySignature })
    },
    onSuccess: async () => {
      setConfirming(false)
      toastSuccess(KEY_SIGNING_MESSAGES.keyConfirmed, `${b.fullName}'s key is now signed by your vault.`)
      await queryClient.invalidateQueries({ queryKey: beneficiariesKey, exact: true })
    },
    onError: (error) => toastFailure('The key could not be confirmed', error),
  })

  if (!unlocked || !trust.data) return null
  if (trust.data === 'signed') {
    return (
      <Badge variant="success" title="This key carries your vault's signature">
        <ShieldCheck className="size-3" aria-hidden /> Key signed
      </Badge>
    )
  }
  if (trust.data === 'changed') {
    return (
      <Badge variant="destructive" title={KEY_SIGNING_MESSAGES.keyChangedOutside} data-testid="key-changed">
        <ShieldAlert className="size-3" aria-hidden /> {KEY_SIGNING_MESSAGES.keyChangedOutside}
      </Badge>
    )
  }
  return (
    <>
      <Button size="sm" variant="outline" onClick={() => setConfirming(true)}>
        <ShieldAlert aria-hidden /> {KEY_SIGNING_MESSAGES.confirmKeyTitle}
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Confirm ${b.fullName}'s key`}
        description={
          <>
            Compare this fingerprint with the one printed on the Access Kit you gave {b.fullName}. Confirm only if every group
            matches: your vault then signs this key, and nothing changes it without you.
            <span className="mt-3 block break-words font-mono text-slate-900">{b.publicKeyFingerprint}</span>
          </>
        }
        confirmLabel="The fingerprint matches"
        destructive={false}
        pending={confirm.isPending}
        onConfirm={() => confirm.mutate()}
      />
    </>
  )
}
