import { z } from 'zod'
import { authenticationResponseSchema } from './webauthn'

export * from './fresh-proof-constants'

export const freshProofBodySchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('password'), password: z.string().min(1, 'Enter your password').max(1024) }),
  z.object({ method: z.literal('security_key'), response: authenticationResponseSchema }),
  z.object({ method: z.literal('authenticator'), code: z.string().trim().min(6, 'Enter the code').max(32) }),
])
export type FreshProofBody = z.infer<typeof freshProofBodySchema>
