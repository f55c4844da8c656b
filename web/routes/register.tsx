import { zodResolver } from '@hookform/resolvers/zod'
import { createFileRoute, Link, Navigate, useNavigate } from '@tanstack/react-router'
import { AlertTriangle, CheckCircle2, Gift, KeyRound, Usb } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { registerFormSchema } from '../../contract/auth'
import { VAULT_PASSPHRASE_MIN } from '../../contract/constants'
import { TOASTS } from '../../contract/messages'
import { VAULT_MESSAGES } from '../../contract/vault'
import { WEBAUTHN_MESSAGES } from '../../contract/webauthn'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { CheckboxField } from '@/components/ui/checkbox'
import { Field, PasswordInput } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { PageSpinner } from '@/components/ui/spinner'
import { useCurrentUser, useRegister } from '@/features/auth/api'
import { AuthLayout } from '@/features/auth/auth-layout'
import { planName, pendingSubscriptionStore, registrationExtras } from '@/features/billing/logic'
import { useAddSecurityKey } from '@/features/security-keys/api'
import { securityKeysSupported, setupFailureToast } from '@/features/security-keys/ceremonies'
import { useCreateVault } from '@/features/vault/api'
import { PassphraseAdvice } from '@/features/vault/passphrase-advice'
import { checkGuessing, GUESSING_MESSAGES, usePassphraseGuessing } from '@/features/vault/passphrase-guessing'
import { RecoveryKitPanel, recoveryKitFor } from '@/features/vault/recovery/recovery-kit-panel'
import type { RecoveryKit } from '@/features/vault/recovery/recovery-kit'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'

const STEPS = ['account', 'setup-security', 'passphrase'] as const
type Step = (typeof STEPS)[number]

// Each step is in the address (?step=), so Back returns to the step before and Forward to the one
// after; the account step leaves it out, and any other query string (a plan chosen before signing
// up) stays with the steps.
export const Route = createFileRoute('/register')({
  validateSearch: (search: Record<string, unknown>): { step?: Exclude<Step, 'account'> } => {
    const step = STEPS.find((s) => s !== 'account' && s === search.step)
    return step && step !== 'account' ? { step } : {}
  },
  component: RegisterPage,
})

type RegisterInput = z.input<typeof registerFormSchema>
type RegisterOutput = z.output<typeof registerFormSchema>

/** The query string the visitor came with, without the wizard's own step. */
function searchWithoutStep(): string {
  const params = new URLSearchParams(window.location.search)
  params.delete('step')
  const rest = params.toString()
  return rest ? `?${rest}` : ''
}

// Seeds 000 §4: register form, then 'Set Up Security', then the passphrase (Back returns) or skip.
function RegisterPage() {
  const { data: user, isPending } = useCurrentUser()
  const step: Step = Route.useSearch().step ?? 'account'
  const navigate = useNavigate()
  if (isPending) return <PageSpinner />
  // The later steps need the account made in step 1: without it, they start over.
  if (!user && step !== 'account') return <Navigate to="/register" search={(prev) => ({ ...prev, step: undefined })} replace />
  // Someone whose vault is made has nothing left here (the passphrase step, while it shows the
  // recovery code it just made, stays: see PassphraseStep).
  if (user?.vaultSetup && step !== 'passphrase') return <Navigate to="/dashboard" replace />

  const goTo = (next: Exclude<Step, 'account'>) => void navigate({ to: '/register', search: (prev) => ({ ...prev, step: next }) })
  const complete = async () => {
    // With a query string (a plan chosen before signing up) the visitor continues to /subscribe.
    const search = searchWithoutStep()
    if (search) window.location.assign(`/subscribe${search}`)
    else await navigate({ to: '/dashboard' })
  }

  if (step === 'setup-security') {
    return (
      <AuthLayout title="Set Up Security" description="Step 2 of 3: protect your vault with a passphrase only you know, and your sign-in with a security key.">
        <SetupSecurity onPassphrase={() => goTo('passphrase')} onSkip={complete} />
      </AuthLayout>
    )
  }
  if (step === 'passphrase') {
    return (
      <AuthLayout title="Create Your Vault Passphrase" description="Step 3 of 3: at least 12 characters. It never leaves this device.">
        <PassphraseStep onBack={() => goTo('setup-security')} onDone={complete} />
      </AuthLayout>
    )
  }
  if (user) {
    // Back from step 2: the account exists, and cannot be made twice.
    return (
      <AuthLayout title="Create your account" description="Step 1 of 3: your account.">
        <div className="grid gap-4">
          <Alert variant="success">
            <CheckCircle2 aria-hidden />
            <AlertTitle>Your account is created</AlertTitle>
            <AlertDescription>You are signed in as {user.email}. Next, protect your vault with a passphrase only you know.</AlertDescription>
          </Alert>
          <Button size="lg" onClick={() => goTo('setup-security')}>
            Continue
          </Button>
        </div>
      </AuthLayout>
    )
  }
  return (
    <AuthLayout
      title="Create your account"
      description="Step 1 of 3: your account. Next you will protect your vault with a passphrase only you know."
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" className="font-medium text-brand-700 hover:underline">
            Sign In
          </Link>
        </>
      }
    >
      <RegisterForm onRegistered={() => goTo('setup-security')} />
    </AuthLayout>
  )
}

function SetupSecurity({ onPassphrase, onSkip }: { onPassphrase: () => void; onSkip: () => void }) {
  const [supported] = useState(securityKeysSupported)
  const addKey = useAddSecurityKey()
  const keyAdded = addKey.isSuccess
  const onSecurityKey = () =>
    addKey.mutate(undefined, {
      onSuccess: () => toast({ title: WEBAUTHN_MESSAGES.registered, variant: 'success' }),
      onError: (error) => toast({ ...setupFailureToast(error), variant: 'destructive' }),
    })
  return (
    <div className="grid gap-4">
      <button
        type="button"
        onClick={onPassphrase}
        className="flex items-start gap-4 rounded-lg border-2 border-brand-600 bg-brand-50 p-4 text-left hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        <KeyRound className="mt-0.5 size-6 shrink-0 text-brand-700" aria-hidden />
        <span>
          <span className="block font-semibold text-slate-900">Choose a secure passphrase</span>
          <span className="block text-sm text-slate-600">
            Your vault is encrypted with a key made from it, in this browser. We never see it and cannot recover it.
          </span>
        </span>
      </button>
      {supported && (
        <button
          type="button"
          onClick={onSecurityKey}
          disabled={addKey.isPending || keyAdded}
          className="flex items-start gap-4 rounded-lg border-2 border-slate-200 p-4 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-default disabled:hover:bg-transparent"
        >
          {keyAdded ? (
            <CheckCircle2 className="mt-0.5 size-6 shrink-0 text-emerald-600" aria-hidden />
          ) : (
            <Usb className="mt-0.5 size-6 shrink-0 text-slate-700" aria-hidden />
          )}
          <span>
            <span className="block font-semibold text-slate-900">
              {keyAdded ? 'Security key added' : addKey.isPending ? 'Touch your security key...' : 'Use a hardware security key'}
            </span>
            <span className="block text-sm text-slate-600">
              {keyAdded
                ? 'You can sign in with it from now on. Your vault still needs a passphrase: choose it above, or later.'
                : 'Sign in by touching your key instead of typing a password. Add more keys from your profile.'}
            </span>
          </span>
        </button>
      )}
      <Button variant="ghost" onClick={onSkip}>
        Skip for now (less secure)
      </Button>
      <p className="text-xs text-slate-500">
        If you skip, you will create the passphrase the first time you open your vault. Nothing can be stored until then.
      </p>
    </div>
  )
}

function PassphraseStep({ onBack, onDone }: { onBack: () => void; onDone: () => void }) {
  const [passphrase, setPassphrase] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const createVault = useCreateVault()
  const { data: user } = useCurrentUser()
  const personal = user ? [user.email, user.displayName ?? ''] : []
  const guessing = usePassphraseGuessing(passphrase.length >= VAULT_PASSPHRASE_MIN ? passphrase : '', personal)
  const [checking, setChecking] = useState(false)
  const [kit, setKit] = useState<RecoveryKit | null>(null)
  // Reached again (Back, Forward) after the vault was made: the passphrase is chosen already.
  const [madeBefore] = useState(() => user?.vaultSetup === true)
  if (madeBefore) return <Navigate to="/dashboard" replace />

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (passphrase !== confirmation) return toast({ title: VAULT_MESSAGES.registrationMismatch, variant: 'destructive' })
    if (passphrase.length < VAULT_PASSPHRASE_MIN) return toast({ title: VAULT_MESSAGES.registrationTooShort, variant: 'destructive' })
    setChecking(true)
    const verdict = await checkGuessing(passphrase, personal)
    setChecking(false)
    if (!verdict.ok) return toast({ title: GUESSING_MESSAGES.tooGuessable, description: verdict.advice.join(' '), variant: 'destructive' })
    createVault.mutate(passphrase, {
      onSuccess: ({ user: created, recoveryCode }) => {
        toast({ title: VAULT_MESSAGES.setupComplete, variant: 'success' })
        setKit(recoveryKitFor(created, recoveryCode))
      },
      onError: (error) =>
        toast({ title: VAULT_MESSAGES.registrationSetupFailed, description: errorText(error, VAULT_MESSAGES.setupFailed), variant: 'destructive' }),
    })
  }

  if (kit) {
    return (
      <section aria-labelledby="recovery-kit-heading" className="grid gap-3">
        <h2 id="recovery-kit-heading" className="text-lg font-semibold">
          Save your recovery code
        </h2>
        <RecoveryKitPanel kit={kit} doneLabel="Continue" onDone={onDone} />
      </section>
    )
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} className="grid gap-4" noValidate>
      <Field label="Vault passphrase" hint={`At least ${VAULT_PASSPHRASE_MIN} characters. Different from your account password.`}>
        {({ id, describedBy }) => (
          <PasswordInput id={id} autoComplete="new-password" aria-describedby={describedBy} value={passphrase} onChange={(e) => setPassphrase(e.target.value)} />
        )}
      </Field>
      <PassphraseAdvice verdict={guessing} />
      <Field label="Confirm vault passphrase">
        {({ id }) => (
          <PasswordInput id={id} autoComplete="new-password" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} />
        )}
      </Field>
      <Alert variant="warning">
        <AlertTriangle aria-hidden />
        <AlertDescription>
          Write it down and keep it safe. Next you get a recovery code, the only other way in if you forget it.
        </AlertDescription>
      </Alert>
      <div className="flex gap-3">
        <Button variant="outline" className="flex-1" onClick={onBack} disabled={createVault.isPending}>
          Back
        </Button>
        <Button type="submit" className="flex-1" disabled={!passphrase || !confirmation || guessing?.ok === false || checking || createVault.isPending}>
          {createVault.isPending ? 'Creating...' : 'Create Passphrase'}
        </Button>
      </div>
    </form>
  )
}

function RegisterForm({ onRegistered }: { onRegistered: () => void }) {
  const register = useRegister()
  // A free guest subscription (seeds 000 §2, §3): prefills the e-mail; its id goes with the registration.
  const [pending] = useState(() => pendingSubscriptionStore.read())
  const form = useForm<RegisterInput, unknown, RegisterOutput>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: { email: pending?.email ?? '', displayName: '', password: '', confirmPassword: '', acceptTerms: false },
  })
  const { errors } = form.formState

  const onSubmit = form.handleSubmit(({ email, password, displayName }) =>
    register.mutate(
      { email, password, displayName, ...registrationExtras(pending) },
      {
        onSuccess: () => {
          pendingSubscriptionStore.clear()
          toast({ title: TOASTS.registrationSuccess, variant: 'success' })
          onRegistered()
        },
        onError: (error) =>
          toast({
            title: TOASTS.registrationFailed,
            description: errorText(error, TOASTS.registrationFailedFallback),
            variant: 'destructive',
          }),
      },
    ),
  )

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      {pending && (
        <Alert variant="success">
          <Gift aria-hidden />
          <AlertTitle>Free subscription activated</AlertTitle>
          <AlertDescription>
            Your {planName(pending.plan)} plan starts when you create your account with {pending.email}.
          </AlertDescription>
        </Alert>
      )}
      <Field label="Email" error={errors.email?.message}>
        {({ id, describedBy, invalid }) => (
          <Input id={id} type="email" autoComplete="email" aria-describedby={describedBy} aria-invalid={invalid} {...form.register('email')} />
        )}
      </Field>
      <Field label="Display name" error={errors.displayName?.message}>
        {({ id, describedBy, invalid }) => (
          <Input id={id} autoComplete="name" aria-describedby={describedBy} aria-invalid={invalid} {...form.register('displayName')} />
        )}
      </Field>
      <Field label="Password" error={errors.password?.message} hint="At least 8 characters. This is your account password, not your vault passphrase.">
        {({ id, describedBy, invalid }) => (
          <PasswordInput id={id} autoComplete="new-password" aria-describedby={describedBy} aria-invalid={invalid} {...form.register('password')} />
        )}
      </Field>
      <Field label="Confirm password" error={errors.confirmPassword?.message}>
        {({ id, describedBy, invalid }) => (
          <PasswordInput id={id} autoComplete="new-password" aria-describedby={describedBy} aria-invalid={invalid} {...form.register('confirmPassword')} />
        )}
      </Field>
      <CheckboxField
        control={form.control}
        name="acceptTerms"
        label={
          <>
            I am 18 or older and accept the{' '}
            <Link to="/terms" className="text-brand-700 underline">Terms of Service</Link> and the{' '}
            <Link to="/privacy" className="text-brand-700 underline">Privacy Policy</Link>.
          </>
        }
        error={errors.acceptTerms?.message}
      />
      <Button type="submit" size="lg" disabled={register.isPending}>
        {register.isPending ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  )
}
