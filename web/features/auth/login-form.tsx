import { Link, useNavigate } from '@tanstack/react-router'
import { KeyRound, Smartphone } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import type { AuthResponse, loginBodySchema } from '../../../contract/auth'
import { TOASTS } from '../../../contract/messages'
import type { AuthenticatorSignInResponse } from '../../../contract/authenticator'
import {
  AUTHENTICATOR,
  AUTHENTICATOR_MESSAGES,
  isRecoveryCode,
  isTotpCode,
  normalizeRecoveryCode,
  normalizeTotpCode,
} from '../../../contract/authenticator-constants'
import type { SecondFactorResponse } from '../../../contract/webauthn'
import { WEBAUTHN_MESSAGES } from '../../../contract/webauthn-constants'
import { Button } from '@/components/ui/button'
import { InputField, PasswordField } from '@/components/ui/form-field'
import { CodeField } from '@/features/authenticator/code-field'
import { securityKeysSupported } from '@/features/security-keys/support'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { homeFor, useAuthenticatorSignIn, useLogin, useSecurityKeySignIn } from './api'

type LoginInput = z.input<typeof loginBodySchema>
type LoginOutput = z.output<typeof loginBodySchema>

// /login is a public page: zod and the contract's schema load when the form is first checked (or as
// soon as a field takes focus), and WebAuthn's browser half when a key is used, not with the page.
const loadResolver = () => import('./login-resolver').then((m) => m.loginResolver)
const loadCeremonies = () => import('@/features/security-keys/ceremonies')

/** The sign-in form, used by /login and by /admin and /account when signed out. */
export function LoginForm({ redirectTo }: { redirectTo?: string }) {
  const navigate = useNavigate()
  const login = useLogin()
  const keySignIn = useSecurityKeySignIn()
  // Set when the password was right and the account also asks for a security key.
  const [secondFactor, setSecondFactor] = useState<SecondFactorResponse | null>(null)
  const [supported] = useState(securityKeysSupported)
  const form = useForm<LoginInput, unknown, LoginOutput>({
    resolver: async (values, context, options) => (await loadResolver())(values, context, options),
    defaultValues: { email: '', password: '' },
  })
  const { errors } = form.formState

  const signedIn = async ({ user }: AuthResponse, title: string, description?: string) => {
    toast({ title, description, variant: 'success' })
    await navigate({ to: redirectTo ?? homeFor(user) })
  }

  const signInWithKey = (step?: SecondFactorResponse) =>
    keySignIn.mutate(step, {
      onSuccess: (data) => signedIn(data, WEBAUTHN_MESSAGES.authSuccess),
      onError: async (error) => {
        const { failedInBrowser, reportAbandonedSecondFactor, signInFailureToast } = await loadCeremonies()
        toast({ ...signInFailureToast(error, step ? 'second_factor' : 'key_alone'), variant: 'destructive' })
        if (!step) return
        // A second step is answered once: a failed one is the owner's failed attempt (the server
        // counts it), and trying again starts from the password, unless the app's code is still
        // there to try (the key's challenge is spent either way).
        if (failedInBrowser(error) && step.options) reportAbandonedSecondFactor(step.options)
        setSecondFactor(step.methods.includes('authenticator') ? { ...step, methods: ['authenticator'], options: undefined } : null)
      },
    })

  const onSubmit = form.handleSubmit((values) =>
    login.mutate(values, {
      onSuccess: async (data) => {
        if ('token' in data) return signedIn(data, TOASTS.loginSuccess)
        setSecondFactor(data)
        // With the authenticator app, the code is asked first (the key stays a button away).
        if (!data.methods.includes('authenticator')) signInWithKey(data)
      },
      onError: (error) =>
        toast({ title: TOASTS.loginFailed, description: errorText(error, TOASTS.loginFailedFallback), variant: 'destructive' }),
    }),
  )

  if (secondFactor?.methods.includes('authenticator') && secondFactor.ticket) {
    return (
      <CodeStep
        step={secondFactor}
        keyPending={keySignIn.isPending}
        onUseKey={secondFactor.methods.includes('security_key') && supported ? () => signInWithKey(secondFactor) : undefined}
        onSignedIn={(data) =>
          signedIn(data, TOASTS.loginSuccess, data.method === 'recovery_code' ? AUTHENTICATOR_MESSAGES.recoveryCodeUsed(data.recoveryCodesLeft ?? 0) : undefined)
        }
        onBack={() => setSecondFactor(null)}
      />
    )
  }

  if (secondFactor) {
    return (
      <div className="grid gap-4" role="group" aria-labelledby="second-factor-title">
        <div className="flex items-start gap-3 rounded-lg border border-brand-200 bg-brand-50 p-4">
          <KeyRound className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden />
          <div>
            <p id="second-factor-title" className="font-semibold text-slate-900">
              Confirm it&apos;s you
            </p>
            <p className="text-sm text-slate-600">{secondFactor.message}</p>
          </div>
        </div>
        <Button size="lg" onClick={() => signInWithKey(secondFactor)} disabled={keySignIn.isPending}>
          {keySignIn.isPending ? 'Waiting for your security key...' : 'Use Security Key'}
        </Button>
        <Button variant="ghost" onClick={() => setSecondFactor(null)} disabled={keySignIn.isPending}>
          Back to sign in
        </Button>
      </div>
    )
  }

  return (
    <div className="grid gap-6">
      <form onSubmit={onSubmit} onFocus={() => void loadResolver()} noValidate className="grid gap-4">
        <InputField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
        <PasswordField label="Password" autoComplete="current-password" error={errors.password?.message} {...form.register('password')} />
        <div className="-mt-2 text-right text-sm">
          <Link to="/forgot-password" className="text-brand-700 hover:underline">
            Forgot your password?
          </Link>
        </div>
        <Button type="submit" size="lg" disabled={login.isPending || keySignIn.isPending}>
          {login.isPending ? 'Signing in...' : 'Sign In'}
        </Button>
      </form>
      {supported && (
        <div className="grid gap-4">
          <div className="flex items-center gap-3 text-xs uppercase tracking-wide text-slate-500" aria-hidden>
            <span className="h-px flex-1 bg-slate-200" />
            Or continue with
            <span className="h-px flex-1 bg-slate-200" />
          </div>
          <Button variant="outline" size="lg" onClick={() => signInWithKey()} disabled={keySignIn.isPending || login.isPending}>
            <KeyRound aria-hidden />
            {keySignIn.isPending ? 'Waiting for your security key...' : 'Security Key'}
          </Button>
        </div>
      )}
    </div>
  )
}

/**
 * The second step with the authenticator app: its 6-digit code, or one of the recovery codes, and
 * the security key when the account has one. A wrong code is said at the field (and read out).
 */
function CodeStep({
  step,
  keyPending,
  onUseKey,
  onSignedIn,
  onBack,
}: {
  step: SecondFactorResponse
  keyPending: boolean
  onUseKey?: () => void
  onSignedIn: (data: AuthenticatorSignInResponse) => void
  onBack: () => void
}) {
  const codeSignIn = useAuthenticatorSignIn()
  const [recovery, setRecovery] = useState(false)
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | undefined>()
  const busy = codeSignIn.isPending || keyPending

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const valid = recovery ? isRecoveryCode(code) : isTotpCode(code)
    if (!valid) return setError(recovery ? AUTHENTICATOR_MESSAGES.codeOrRecoveryInvalid : AUTHENTICATOR_MESSAGES.codeInvalid)
    setError(undefined)
    codeSignIn.mutate(
      { ticket: step.ticket!, code: recovery ? normalizeRecoveryCode(code) : normalizeTotpCode(code) },
      {
        onSuccess: onSignedIn,
        onError: (e) => {
          const message = errorText(e, TOASTS.loginFailedFallback)
          // The five minutes after the password are over: start again from the password.
          if (message === AUTHENTICATOR_MESSAGES.ticketInvalid) {
            toast({ title: TOASTS.loginFailed, description: message, variant: 'destructive' })
            return onBack()
          }
          setError(message)
          setCode('')
        },
      },
    )
  }

  const switchMode = () => {
    setRecovery((r) => !r)
    setCode('')
    setError(undefined)
  }

  return (
    <div className="grid gap-4" role="group" aria-labelledby="second-factor-title">
      <div className="flex items-start gap-3 rounded-lg border border-brand-200 bg-brand-50 p-4">
        <Smartphone className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden />
        <div>
          <p id="second-factor-title" className="font-semibold text-slate-900">
            Confirm it&apos;s you
          </p>
          <p className="text-sm text-slate-600">
            {recovery ? 'Enter one of the recovery codes you saved when you set up your authenticator app. Each code works once.' : step.message}
          </p>
        </div>
      </div>
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <CodeField
          // A new field when the kind of code changes, so its label and keyboard are read afresh.
          key={recovery ? 'recovery' : 'code'}
          label={recovery ? 'Recovery code' : `${AUTHENTICATOR.digits}-digit code from your authenticator app`}
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete={recovery ? 'off' : 'one-time-code'}
          placeholder={recovery ? 'xxxx-xxxx-xxxx' : undefined}
          maxLength={recovery ? 20 : AUTHENTICATOR.digits + 2}
          // The step opens on this field: it is the one thing to do here.
          autoFocus
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={error}
          disabled={busy}
        />
        <Button type="submit" size="lg" disabled={busy}>
          {codeSignIn.isPending ? 'Checking...' : 'Verify'}
        </Button>
      </form>
      <Button variant="link" className="h-auto whitespace-normal" onClick={switchMode} disabled={busy}>
        {recovery ? 'Use a code from the app instead' : 'Use a recovery code instead'}
      </Button>
      {onUseKey && (
        <Button variant="outline" size="lg" onClick={onUseKey} disabled={busy}>
          <KeyRound aria-hidden />
          {keyPending ? 'Waiting for your security key...' : 'Use security key'}
        </Button>
      )}
      <Button variant="ghost" onClick={onBack} disabled={busy}>
        Back to sign in
      </Button>
    </div>
  )
}
