import { Hono } from 'hono'
import { beneficiaryInvitationEmail } from '../mail/templates'
import type { AppEnv } from '../types'

/** /email-preview shows the real invitation template, filled with sample values. */
export const emailPreviewRoutes = new Hono<AppEnv>().get('/beneficiary-invitation', (c) => {
  const origin = c.env.APP_ORIGIN
  return c.json(
    beneficiaryInvitationEmail({
      fullName: 'Jordan Example',
      email: 'jordan@example.com',
      relationship: 'Daughter',
      ownerName: 'Alex Example',
      secrecyMode: c.req.query('secrecy') === '1',
      verifyUrl: `${origin}/verify-beneficiary?token=sample&id=sample`,
      optInUrl: `${origin}/beneficiary-opt-in`,
      unsubscribeUrl: `${origin}/unsubscribe`,
    }),
  )
})
