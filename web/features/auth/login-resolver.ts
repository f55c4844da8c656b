import { zodResolver } from '@hookform/resolvers/zod'
import { loginBodySchema } from '../../../contract/auth'

// The sign-in form's rules: the contract's schema, loaded apart from the form (see login-form.tsx).
export const loginResolver = zodResolver(loginBodySchema)
