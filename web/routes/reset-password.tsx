import { zodResolver } from '@hookform/resolvers/zod'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { resetPasswordFormSchema } from '../../contract/auth'
import { TOASTS } from '../../contract/messages'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Field, PasswordInput } from '@/components/ui/form-field'
import { useResetPassword } from '@/features/auth/api'
import { AuthLayout } from '@/features/auth/auth-layout'
import { errorText } from '@/lib/api-client'
import { tokenSearch } from '@/lib/search-params'
import { toast } from '@/lib/toast-store'

export const Route = createFileRoute('/reset-password')({
  validateSearch: tokenSearch,
  component: ResetPasswordPage,
})

type ResetInput = z.input<typeof resetPasswordFormSchema>
type ResetOutput = z.output<typeof resetPasswordFormSchema>

function ResetPasswordPage() {
  const { token } = Route.useSearch()
  const navigate = useNavigate()
  const reset = useResetPassword()
  const form = useForm<ResetInput, unknown, ResetOutput>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  })
  const { errors } = form.formState

  if (!token) {
    return (
      <AuthLayout title="Invalid reset link">
        <div className="grid gap-4 text-sm text-slate-700">
          <p>This page needs the link from your password reset e-mail. Request a new one if it was lost.</p>
          <Button asChild>
            <Link to="/forgot-password">Request a new link</Link>
          </Button>
        </div>
      </AuthLayout>
    )
  }

  const onSubmit = form.handleSubmit(({ password }) =>
    reset.mutate(
      { token, password },
      {
        onSuccess: async () => {
          toast({ title: TOASTS.resetSuccess, description: TOASTS.resetSuccessBody, variant: 'success' })
          await navigate({ to: '/login' })
        },
      },
    ),
  )

  return (
    <AuthLayout title="Choose a new password" description="Every device signed in to your account will be signed out.">
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        {reset.isError && (
          <Alert variant="destructive">
            <AlertTitle>{TOASTS.resetFailed}</AlertTitle>
            <AlertDescription>
              {errorText(reset.error, TOASTS.registrationFailedFallback)}{' '}
              <Link to="/forgot-password" className="font-medium underline">
                Request a new link
              </Link>
            </AlertDescription>
          </Alert>
        )}
        <Field label="New password" error={errors.password?.message} hint="At least 8 characters.">
          {({ id, describedBy, invalid }) => (
            <PasswordInput id={id} autoComplete="new-password" aria-describedby={describedBy} aria-invalid={invalid} {...form.register('password')} />
          )}
        </Field>
        <Field label="Confirm new password" error={errors.confirmPassword?.message}>
          {({ id, describedBy, invalid }) => (
            <PasswordInput id={id} autoComplete="new-password" aria-describedby={describedBy} aria-invalid={invalid} {...form.register('confirmPassword')} />
          )}
        </Field>
        <Button type="submit" size="lg" disabled={reset.isPending}>
          {reset.isPending ? 'Saving...' : 'Set New Password'}
        </Button>
      </form>
    </AuthLayout>
  )
}
