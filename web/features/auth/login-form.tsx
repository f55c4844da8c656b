import { zodResolver } from '@hookform/resolvers/zod'
import { Link, useNavigate } from '@tanstack/react-router'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { loginBodySchema } from '../../../contract/auth'
import { TOASTS } from '../../../contract/messages'
import { Button } from '@/components/ui/button'
import { InputField, PasswordField } from '@/components/ui/form-field'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { homeFor, useLogin } from './api'

type LoginInput = z.input<typeof loginBodySchema>
type LoginOutput = z.output<typeof loginBodySchema>

/** The sign-in form, used by /login and by /admin, /account and /checkout when signed out. */
export function LoginForm({ redirectTo }: { redirectTo?: string }) {
  const navigate = useNavigate()
  const login = useLogin()
  const form = useForm<LoginInput, unknown, LoginOutput>({
    resolver: zodResolver(loginBodySchema),
    defaultValues: { email: '', password: '' },
  })
  const { errors } = form.formState

  const onSubmit = form.handleSubmit((values) =>
    login.mutate(values, {
      onSuccess: async ({ user }) => {
        toast({ title: TOASTS.loginSuccess, variant: 'success' })
        await navigate({ to: redirectTo ?? homeFor(user) })
      },
      onError: (error) =>
        toast({ title: TOASTS.loginFailed, description: errorText(error, TOASTS.loginFailedFallback), variant: 'destructive' }),
    }),
  )

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <InputField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
      <PasswordField label="Password" autoComplete="current-password" error={errors.password?.message} {...form.register('password')} />
      <div className="-mt-2 text-right text-sm">
        <Link to="/forgot-password" className="text-brand-700 hover:underline">
          Forgot your password?
        </Link>
      </div>
      <Button type="submit" size="lg" disabled={login.isPending}>
        {login.isPending ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  )
}
