import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ShieldAlert, ShieldCheck } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import type { Beneficiary } from '../../../contract/circle'
import { KEY_SIGNING_MESSAGES } from '../../../contract/key-signing'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { useVaultUnlocked, vaultSession } from '@/features/vault/vault-session'
import { beneficiariesKey, useBeneficiaries } from './api'
import { toastFailure, toastSuccess } from './notify'
import { keyTrustShown, restatementsDue } from './key-trust-rules'
import { judgeStatements, restate, restateV1Rows } from './statements'

/**
 * What this vault makes of every beneficiary's statement (web/features/circle/statements.ts), checked
 * in this browser while the vault is unlocked, over the whole list at once: only a complete list
 * moves this browser's high-water mark and forgets who left.
 */
export function useStatementVerdicts() {
  const unlocked = useVaultUnlocked()
  const { data: list } = useBeneficiaries()
  return useQuery({
    queryKey: ['statement-verdicts', list?.map((b) => [b.id, b.fullName, b.relationship, b.email, b.keyVersion, b.publicKey, b.keySignature, b.statementSequence])],
    queryFn: () => judgeStatements(list!, { complete: true }),
    enabled: unlocked && list !== undefined && !vaultSession.hasSigningProblem(),
    staleTime: Infinity,
  })
}

/**
 * Restates as v2, once per row and visit, every beneficiary still on a v1 statement this vault
 * signed (one request each): mounted on the Beneficiaries page, so it runs when the page loads with
 * the vault unlocked, or when the vault is unlocked there.
 */
export function useRestatement(): void {
  const verdicts = useStatementVerdicts().data
  const { data: list } = useBeneficiaries()
  const queryClient = useQueryClient()
  const tried = useRef(new Set<string>())
  useEffect(() => {
    if (!verdicts || !list) return
    const due = restatementsDue(list, verdicts, tried.current)
    if (due.size === 0) return
    void restateV1Rows(list, due).then(async (n) => {
      if (n > 0) await queryClient.invalidateQueries({ queryKey: beneficiariesKey, exact: true })
    })
  }, [verdicts, list, queryClient])
}

/**
 * What this vault makes of a beneficiary's key: signed by it (a v1 statement, trusted until it is
 * restated, shows the same), never signed (a key stored before signing keys: the owner confirms its
 * fingerprint here), or signed by nothing of this vault's, or older than what this browser verified
 * (changed outside it).
 */
export function KeyTrust({ beneficiary: b }: { beneficiary: Beneficiary }) {
  const unlocked = useVaultUnlocked()
  const queryClient = useQueryClient()
  const [confirming, setConfirming] = useState(false)
  const known = useBeneficiaries().data ?? []
  const verdict = useStatementVerdicts().data?.get(b.id)
  const trust = keyTrustShown(unlocked, verdict)
  const confirm = useMutation({
    mutationFn: () => restate(b, known),
    onSuccess: async () => {
      setConfirming(false)
      toastSuccess(KEY_SIGNING_MESSAGES.keyConfirmed, `${b.fullName}'s key is now signed by your vault.`)
      await queryClient.invalidateQueries({ queryKey: beneficiariesKey, exact: true })
    },
    onError: (error) => toastFailure('The key could not be confirmed', error),
  })

  if (!trust) return null
  if (trust === 'signed') {
    return (
      <Badge variant="success" title="This key carries your vault's signature">
        <ShieldCheck className="size-3" aria-hidden /> Key signed
      </Badge>
    )
  }
  if (trust === 'changed') {
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
