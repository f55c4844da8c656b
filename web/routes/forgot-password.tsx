import { createFileRoute, Link } from '@tanstack/react-router'
import { AlertTriangle, MailCheck } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { SUPPORT_EMAIL } from '../../contract/constants'
import { TOASTS } from '../../contract/messages'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { useForgotPassword } from '@/features/auth/api'
import { AuthLayout } from '@/features/auth/auth-layout'
import { ApiRequestError } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'

export const Route = createFileRoute('/forgot-password')({
  component: ForgotPasswordPage,
})

function ForgotPasswordPage() {
  const [email, setEmail] = useState('')
  const [sentTo, setSentTo] = useState<string | null>(null)
  const forgot = useForgotPassword()

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const address = email.trim()
    if (!address) return
    forgot.mutate(
      { email: address },
      {
        onSuccess: () => setSentTo(address),
        onError: (error) =>
          toast({
            title:
              error instanceof ApiRequestError
                ? error.detail || TOASTS.forgotPasswordFallback
                : error instanceof TypeError
                  ? TOASTS.networkError
                  : TOASTS.forgotPasswordFallback,
            variant: 'destructive',
          }),
      },
    )
  }

  const footer = (
    <>
      Remembered it?{' '}
      <Link to="/login" className="font-medium text-brand-700 hover:underline">
        Sign In
      </Link>{' '}
      · Need help?{' '}
      <a href={`mailto:${SUPPORT_EMAIL}`} className="font-medium text-brand-700 hover:underline">
        Contact support
      </a>
    </>
  )

  if (sentTo) {
    return (
      <AuthLayout title="Check Your Email" footer={footer}>
        <div className="grid gap-4 text-sm text-slate-700">
          <MailCheck className="size-10 text-emerald-600" aria-hidden />
          <p>
            If an account exists for <strong className="break-all">{sentTo}</strong>, we have sent it a link to reset your
            password. The link works once and expires in one hour.
          </p>
          <p className="text-slate-500">Nothing arrived after a few minutes? Look in your spam or junk folder.</p>
          <Button variant="outline" onClick={() => setSentTo(null)}>
            Try a Different Email
          </Button>
          <Button asChild>
            <Link to="/login">Back to Sign In</Link>
          </Button>
        </div>
      </AuthLayout>
    )
  }

  return (
    <AuthLayout
      title="Reset your password"
      description="Enter the e-mail address of your account and we will send you a link to choose a new password."
      footer={footer}
    >
      <form onSubmit={onSubmit} className="grid gap-4">
        <Field label="Email">
          {({ id }) => (
            <Input id={id} type="email" required autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          )}
        </Field>
        <Alert variant="warning">
          <AlertTriangle aria-hidden />
          <AlertDescription>
            A password reset restores access to your account only, not to your vault. If you have also forgotten your vault
            passphrase, sign in and use the recovery code from your Recovery Kit. Without the passphrase or that code, nobody —
            including us — can decrypt your vault.
          </AlertDescription>
        </Alert>
        <Button type="submit" size="lg" disabled={!email.trim() || forgot.isPending}>
          {forgot.isPending ? 'Sending...' : 'Send Reset Instructions'}
        </Button>
      </form>
    </AuthLayout>
  )
}
