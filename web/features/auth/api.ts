import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type {
  AuthResponse,
  ForgotPasswordBody,
  LoginBody,
  PublicUser,
  RegisterBody,
  ResetPasswordBody,
} from '../../../contract/auth'
import type { AuthenticatorSignInBody, AuthenticatorSignInResponse } from '../../../contract/authenticator'
import { AUTHENTICATOR_PATHS } from '../../../contract/authenticator-constants'
import type { SecondFactorResponse } from '../../../contract/webauthn'
import { apiJson, apiRequest, getQueryFn, tokenStore } from '@/lib/api-client'

export const currentUserKey = ['/api/auth/session'] as const

/**
 * The signed-in user, or null. A stored token the server refuses is removed (seeds 000 §4,
 * "session start"), so the app falls back to signed out. GET /api/auth/session answers a visitor
 * with `{ user: null }` rather than the 401 of /api/auth/me, which browsers log as an error.
 */
export const currentUserQuery = queryOptions({
  queryKey: currentUserKey,
  queryFn: async (ctx): Promise<PublicUser | null> => {
    const data = (await getQueryFn<{ user: PublicUser | null }>({ on401: 'returnNull' })(ctx as never)) ?? null
    if (!data?.user) tokenStore.clear()
    return data?.user ?? null
  },
})

export function useCurrentUser() {
  return useQuery(currentUserQuery)
}

export function isAdmin(user: PublicUser | null | undefined): boolean {
  return user?.planTier === 'admin'
}

/** Where a user lands after signing in (seeds 000 §2, Login). */
export function homeFor(user: PublicUser): '/admin' | '/dashboard' {
  return isAdmin(user) ? '/admin' : '/dashboard'
}

function useStoreSession() {
  const queryClient = useQueryClient()
  return (data: AuthResponse) => {
    tokenStore.set(data.token)
    queryClient.setQueryData(currentUserKey, data.user)
  }
}

/** A password sign-in: a session, or (two-factor on) what the second step needs. */
export function useLogin() {
  const storeSession = useStoreSession()
  return useMutation({
    mutationFn: (body: LoginBody) => apiJson<AuthResponse | SecondFactorResponse>('POST', '/api/auth/login', body),
    onSuccess: (data) => {
      if ('token' in data) storeSession(data)
    },
  })
}

/** A sign-in with a security key: alone (discoverable), or as the second step of a password sign-in. */
export function useSecurityKeySignIn() {
  const storeSession = useStoreSession()
  return useMutation({
    mutationFn: async (secondFactor?: SecondFactorResponse) => {
      // WebAuthn's browser half loads when a key is used, not with every page that reads the session.
      const { answerWithSecurityKey, signInWithSecurityKey } = await import('@/features/security-keys/ceremonies')
      if (!secondFactor) return signInWithSecurityKey()
      if (!secondFactor.options) throw new Error('This sign-in offers no security key step.')
      return answerWithSecurityKey(secondFactor.options)
    },
    onSuccess: storeSession,
  })
}

/** The second step of a password sign-in with a code from the authenticator app, or a recovery code. */
export function useAuthenticatorSignIn() {
  const storeSession = useStoreSession()
  return useMutation({
    mutationFn: (body: AuthenticatorSignInBody) => apiJson<AuthenticatorSignInResponse>('POST', AUTHENTICATOR_PATHS.signIn, body),
    onSuccess: storeSession,
  })
}

export function useRegister() {
  const storeSession = useStoreSession()
  return useMutation({
    mutationFn: (body: RegisterBody) => apiJson<AuthResponse>('POST', '/api/auth/register', body),
    onSuccess: storeSession,
  })
}

export function useLogout() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return useMutation({
    mutationFn: async () => {
      // The session is revoked on the server; the local token goes whatever the answer.
      try {
        await apiRequest('POST', '/api/auth/logout')
      } finally {
        tokenStore.clear()
        // The vault's module (and the crypto under it) is not part of the public pages' download;
        // importing it here is instant once the vault has been opened, which is when it holds a key.
        const { vaultSession } = await import('@/features/vault/vault-session')
        vaultSession.lock()
      }
    },
    onSettled: async () => {
      queryClient.clear()
      queryClient.setQueryData(currentUserKey, null)
      await navigate({ to: '/' })
    },
  })
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: ForgotPasswordBody) => apiJson<{ message: string }>('POST', '/api/auth/forgot-password', body),
  })
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordBody) => apiJson<{ message: string }>('POST', '/api/auth/reset-password', body),
  })
}
