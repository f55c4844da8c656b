import { z } from 'zod'

/**
 * Every error the API answers (4xx and 5xx alike): a message to show as it is, and for some
 * errors more. A refused body lists each field at fault in `errors`; the subscription gate's 402
 * says `requiresPayment: true`, which sends the app to /subscribe; an act that needs fresh proof
 * answers 403 with `requiresFreshProof: true` and the ways this account can give it.
 */
export const apiErrorSchema = z.object({
  message: z.string(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  requiresPayment: z.literal(true).optional(),
  requiresFreshProof: z.literal(true).optional(),
  methods: z.array(z.enum(['password', 'security_key', 'authenticator'])).optional(),
})
export type ApiErrorBody = z.infer<typeof apiErrorSchema>
