import { zodResolver } from '@hookform/resolvers/zod'
import { useBlocker } from '@tanstack/react-router'
import { CircleCheck, Download, KeyRound, Printer } from 'lucide-react'
import { useId, useState, type ReactNode } from 'react'
import { Controller, useForm } from 'react-hook-form'
import type { z } from 'zod'
import { BENEFICIARY_FORM_DEFAULTS, beneficiaryFormSchema, type BeneficiaryForm } from '../../../contract/circle'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { InputField } from '@/components/ui/form-field'
import { Label } from '@/components/ui/label'
import { generateBeneficiaryKeyPair, privateKeyToPem, publicKeyFingerprint } from '@/crypto'
import { useCurrentUser } from '@/features/auth/api'
import { useVaultUnlocked, vaultSession } from '@/features/vault/vault-session'
import { VaultLockedAlert } from '@/features/vault/vault-locked-alert'
import { VaultUnlockDialog } from '@/features/vault/vault-unlock-dialog'
import { accessKitFileName, currentVaultFingerprint, downloadAccessKit, type AccessKit } from './access-kit'
import { AccessKitPrintView } from './access-kit-print'
import { useBeneficiaries, useCreateBeneficiary } from './api'
import { BENEFICIARY_FIELD_HINTS, CIRCLE_TOASTS, emailNotSentText, invitationOutcomeText } from './copy'
import { toastFailure, toastSuccess } from './notify'
import { statedFields, withStatementSequence } from './statements'
import { SwitchField } from './switch-field'
import { kitDialogMustStay } from './dialog-rules'

type FormOutput = z.output<typeof beneficiaryFormSchema>
type Phase = 'idle' | 'generating' | 'saving'

export interface KitStep {
  kit: AccessKit
  /** The server recorded a different key than the one made here: the kit must not be used. */
  fingerprintMismatch: boolean
}

/**
 * The Access Kit's rule, shared by adding a beneficiary and replacing a lost kit's key: while work
 * is under way, or a kit is shown that has been neither downloaded nor confirmed as saved, the
 * dialog cannot be left (close button hidden, Esc and outside clicks refused, in-app navigation
 * and page unload blocked).
 */
export function useAccessKitGuard(step: KitStep | null, busy: boolean) {
  const [downloaded, setDownloaded] = useState(false)
  const [confirmed, setConfirmed] = useState(false)
  const [closeBlocked, setCloseBlocked] = useState(false)
  const kitSaved = downloaded || confirmed
  const mustStay = kitDialogMustStay({ busy, kitShown: step !== null, downloaded, confirmed })

  // Leaving the page (back button, reload, closing the tab) would lose the key just the same.
  useBlocker({
    shouldBlockFn: () => {
      setCloseBlocked(true)
      return true
    },
    enableBeforeUnload: mustStay,
    disabled: !mustStay,
  })

  return {
    downloaded,
    confirmed,
    closeBlocked,
    kitSaved,
    mustStay,
    markDownloaded() {
      setDownloaded(true)
      setCloseBlocked(false)
    },
    setConfirmed(value: boolean) {
      setConfirmed(value)
      setCloseBlocked(false)
    },
    /** A close was asked for; true when it may go ahead. */
    mayClose(): boolean {
      if (mustStay) {
        if (step) setCloseBlocked(true)
        return false
      }
      return true
    },
    /** For onEscapeKeyDown / onInteractOutside. */
    preventIfStaying(event: Event) {
      if (mustStay) {
        event.preventDefault()
        if (step) setCloseBlocked(true)
      }
    },
    reset() {
      setDownloaded(false)
      setConfirmed(false)
      setCloseBlocked(false)
    },
  }
}

export type AccessKitGuard = ReturnType<typeof useAccessKitGuard>

/** The kit step's body: what to do with it, the fingerprint, download and print, and Done. */
export function AccessKitStep({
  step,
  guard,
  title,
  description,
  mismatchText,
  onDone,
}: {
  step: KitStep
  guard: AccessKitGuard
  title: string
  description: ReactNode
  /** What to do when the server recorded another key. */
  mismatchText: string
  onDone: () => void
}) {
  const savedId = useId()
  return (
    <>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      <Alert variant="warning">
        <KeyRound aria-hidden />
        <AlertTitle>Their private key exists only now, in this browser</AlertTitle>
        <AlertDescription>
          It was created here and has not been sent to us, so we cannot recover it. Download the kit and print it,
          then hand it to {step.kit.fullName} outside this service: with your will, through your lawyer, or in a
          safe. Without it, {step.kit.fullName} cannot decrypt anything you leave them.
        </AlertDescription>
      </Alert>
      {step.fingerprintMismatch && (
        <Alert variant="destructive">
          <AlertTitle>The server recorded a different key</AlertTitle>
          <AlertDescription>{mismatchText}</AlertDescription>
        </Alert>
      )}
      <dl className="grid gap-3 rounded-lg bg-slate-50 p-4 text-sm">
        {(
          [
            ['Beneficiary', step.kit.fullName, 'break-words'],
            ['E-mail', step.kit.email, 'break-all'],
            ['Key fingerprint', step.kit.fingerprint, 'font-mono text-xs leading-relaxed'],
          ] as const
        ).map(([label, value, className]) => (
          <div key={label} className="grid gap-0.5 sm:grid-cols-[8rem_1fr] sm:gap-4">
            <dt className="font-medium text-slate-600">{label}</dt>
            <dd className={className} data-testid={label === 'Key fingerprint' ? 'kit-fingerprint' : undefined}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <div className="grid gap-2 sm:grid-cols-2">
        <Button
          onClick={() => {
            downloadAccessKit(step.kit)
            guard.markDownloaded()
          }}
        >
          <Download aria-hidden /> Download Access Kit
        </Button>
        <Button variant="outline" onClick={() => window.print()}>
          <Printer aria-hidden /> Print Access Kit
        </Button>
      </div>
      <p className="text-xs text-slate-500">
        {guard.downloaded ? (
          <span className="inline-flex items-center gap-1 text-emerald-700">
            <CircleCheck className="size-3.5" aria-hidden /> Saved as {accessKitFileName(step.kit.fullName)}. Print
            it or copy it to offline storage, then delete the file from this computer.
          </span>
        ) : (
          'Print opens your browser’s print window showing only the kit.'
        )}
      </p>
      <div className="flex items-start gap-3">
        <Checkbox id={savedId} checked={guard.confirmed} onCheckedChange={(value) => guard.setConfirmed(value === true)} />
        <Label htmlFor={savedId} className="font-normal leading-snug">
          I have saved the kit
        </Label>
      </div>
      {guard.closeBlocked && !guard.kitSaved && (
        <p role="alert" className="text-sm text-red-600">
          Download the kit or confirm that you have saved it before closing. Once this window closes, the private key
          is gone for good.
        </p>
      )}
      <DialogFooter>
        <Button onClick={onDone} disabled={!guard.kitSaved}>
          Done
        </Button>
      </DialogFooter>
      <AccessKitPrintView kit={step.kit} />
    </>
  )
}

/**
 * Add Beneficiary: the form, then the Access Kit. The key pair is made here; only the public key
 * is sent. The private key lives in this component's state until the dialog closes, and the
 * dialog cannot close before the owner has downloaded the kit or said it is saved.
 */
export function AddBeneficiaryDialog({
  open,
  onOpenChange,
  ownerName,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  ownerName: string
}) {
  const create = useCreateBeneficiary()
  const known = useBeneficiaries().data ?? []
  const unlocked = useVaultUnlocked()
  const { data: user } = useCurrentUser()
  const [unlockOpen, setUnlockOpen] = useState(false)
  const [lockedError, setLockedError] = useState(false)
  const [phase, setPhase] = useState<Phase>('idle')
  const [step, setStep] = useState<KitStep | null>(null)
  const form = useForm<BeneficiaryForm, unknown, FormOutput>({
    resolver: zodResolver(beneficiaryFormSchema),
    defaultValues: BENEFICIARY_FORM_DEFAULTS,
  })
  const { errors } = form.formState

  const busy = phase !== 'idle'
  const guard = useAccessKitGuard(step, busy)

  function close() {
    // The private key leaves memory with this state (as far as JavaScript lets it).
    setStep(null)
    guard.reset()
    setLockedError(false)
    form.reset(BENEFICIARY_FORM_DEFAULTS)
    onOpenChange(false)
  }

  function requestClose() {
    if (guard.mayClose()) close()
  }

  const onSubmit = form.handleSubmit(async (values) => {
    // The vault signs the new key: unlock it first (and carry on once unlocked).
    if (!vaultSession.isUnlocked()) {
      setLockedError(true)
      if (user?.vaultSetup) setUnlockOpen(true)
      return
    }
    setLockedError(false)
    setPhase('generating')
    let pair: Awaited<ReturnType<typeof generateBeneficiaryKeyPair>>
    try {
      pair = await generateBeneficiaryKeyPair()
    } catch {
      setPhase('idle')
      toastFailure(CIRCLE_TOASTS.addBeneficiaryFailed, new Error(CIRCLE_TOASTS.keyGenerationFailed))
      return
    }
    setPhase('saving')
    try {
      // The vault states who this is (their id, name, relationship, address and key): only a browser
      // holding the unlocked vault can. The id is chosen here because the statement names it.
      const id = crypto.randomUUID()
      const fields = statedFields({ id, ...values, keyVersion: 1, publicKey: pair.publicKeySpki })
      const created = await withStatementSequence(known, async (statementSequence) => {
        const keySignature = await vaultSession.signBeneficiary({ ...fields, sequence: statementSequence })
        return create.mutateAsync({ ...values, id, publicKey: pair.publicKeySpki, keySignature, statementSequence })
      })
      const fingerprint = await publicKeyFingerprint(pair.publicKeySpki)
      setStep({
        kit: {
          fullName: created.fullName,
          email: created.email,
          ownerName,
          createdAt: new Date(),
          fingerprint,
          vaultFingerprint: currentVaultFingerprint(),
          portalUrl: `${window.location.origin}/beneficiary-portal`,
          privateKeyPem: privateKeyToPem(pair.privateKeyPkcs8),
        },
        fingerprintMismatch: fingerprint !== created.publicKeyFingerprint,
      })
      toastSuccess(
        CIRCLE_TOASTS.beneficiaryAdded,
        invitationOutcomeText(created, emailNotSentText),
      )
    } catch (error) {
      toastFailure(CIRCLE_TOASTS.addBeneficiaryFailed, error)
    } finally {
      setPhase('idle')
    }
  })

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : requestClose())}>
      <DialogContent
        hideClose={guard.mustStay}
        onEscapeKeyDown={guard.preventIfStaying}
        onInteractOutside={guard.preventIfStaying}
        className={step ? 'max-w-xl' : undefined}
      >
        {step ? (
          <AccessKitStep
            step={step}
            guard={guard}
            title="Beneficiary Access Kit"
            description={`${step.kit.fullName} has been added. Now save the kit that lets them open what you leave them.`}
            mismatchText={`Do not use this kit. Delete ${step.kit.fullName} and add them again.`}
            onDone={requestClose}
          />
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Add Beneficiary</DialogTitle>
              <DialogDescription>
                Name someone who should receive items from your vault. Their encryption keys are created in this
                browser; only the public key is stored with us.
              </DialogDescription>
            </DialogHeader>
            {!unlocked && (
              <VaultLockedAlert
                hasVault={!user || user.vaultSetup}
                why="Your vault signs each beneficiary's key, so that only you can change who receives what."
                tried={lockedError}
                onUnlock={() => setUnlockOpen(true)}
              />
            )}
            <form onSubmit={onSubmit} noValidate className="grid gap-4">
              <InputField label="Full name" error={errors.fullName?.message} autoComplete="off" {...form.register('fullName')} />
              <InputField label="Email" error={errors.email?.message} type="email" autoComplete="off" {...form.register('email')} />
              <InputField label="Relationship" error={errors.relationship?.message} placeholder="e.g. Daughter, Spouse, Friend" {...form.register('relationship')} />
              {(['sendVerificationEmail', 'sendAssetNotifications', 'delayNotifications'] as const).map((name) => (
                <Controller
                  key={name}
                  control={form.control}
                  name={name}
                  render={({ field }) => (
                    <SwitchField
                      label={BENEFICIARY_FIELD_HINTS[name].label}
                      hint={BENEFICIARY_FIELD_HINTS[name].hint}
                      checked={field.value}
                      onCheckedChange={field.onChange}
                      disabled={busy}
                    />
                  )}
                />
              ))}
              <DialogFooter>
                <Button variant="outline" onClick={requestClose} disabled={busy}>
                  Cancel
                </Button>
                <Button type="submit" disabled={busy}>
                  {phase === 'generating' ? 'Generating keys...' : phase === 'saving' ? 'Adding...' : 'Add Beneficiary'}
                </Button>
              </DialogFooter>
            </form>
            <VaultUnlockDialog open={unlockOpen} onOpenChange={setUnlockOpen} onUnlocked={() => void onSubmit()} />
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}
