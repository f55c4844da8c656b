import { zodResolver } from '@hookform/resolvers/zod'
import { createFileRoute, Link, Navigate, useNavigate } from '@tanstack/react-router'
import { Controller, useForm } from 'react-hook-form'
import type { z } from 'zod'
import { registerFormSchema } from '../../contract/auth'
import { TOASTS } from '../../contract/messages'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { Field, PasswordInput } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { PageSpinner } from '@/components/ui/spinner'
import { useCurrentUser, useRegister } from '@/features/auth/api'
import { AuthLayout } from '@/features/auth/auth-layout'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'

export const Route = createFileRoute('/register')({
  component: RegisterPage,
})

type RegisterInput = z.input<typeof registerFormSchema>
type RegisterOutput = z.output<typeof registerFormSchema>

function RegisterPage() {
  const { data: user, isPending } = useCurrentUser()
  if (isPending) return <PageSpinner />
  if (user) return <Navigate to="/dashboard" replace />
  return (
    <AuthLayout
      title="Create your account"
      description="Step 1 of 3: your account. Next you will protect your vault with a passphrase only you know."
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" className="font-medium text-brand-700 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <RegisterForm />
    </AuthLayout>
  )
}

function RegisterForm() {
  const navigate = useNavigate()
  const register = useRegister()
  const form = useForm<RegisterInput, unknown, RegisterOutput>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: { email: '', displayName: '', password: '', confirmPassword: '', acceptTerms: false },
  })
  const { errors } = form.formState

  const onSubmit = form.handleSubmit(({ email, password, displayName }) =>
    register.mutate(
      { email, password, displayName },
      {
        onSuccess: async () => {
          toast({ title: TOASTS.registrationSuccess, variant: 'success' })
          // With a query string (a plan chosen before signing up) the visitor continues to /subscribe.
          const search = window.location.search
          if (search) window.location.assign(`/subscribe${search}`)
          else await navigate({ to: '/dashboard' })
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
      <div className="grid gap-1.5">
        <div className="flex items-start gap-3">
          <Controller
            control={form.control}
            name="acceptTerms"
            render={({ field }) => (
              <Checkbox
                id="accept-terms"
                checked={field.value}
                onCheckedChange={(checked) => field.onChange(checked === true)}
                onBlur={field.onBlur}
                aria-invalid={!!errors.acceptTerms}
                aria-describedby={errors.acceptTerms ? 'accept-terms-error' : undefined}
              />
            )}
          />
          <label htmlFor="accept-terms" className="text-sm leading-snug text-slate-700">
            I am 18 or older and accept the{' '}
            <Link to="/terms" className="text-brand-700 underline">Terms of Service</Link> and the{' '}
            <Link to="/privacy" className="text-brand-700 underline">Privacy Policy</Link>.
          </label>
        </div>
        {errors.acceptTerms && (
          <p id="accept-terms-error" role="alert" className="text-sm text-red-600">
            {errors.acceptTerms.message}
          </p>
        )}
      </div>
      <Button type="submit" size="lg" disabled={register.isPending}>
        {register.isPending ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  )
}
