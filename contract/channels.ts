import { z } from 'zod'
import { emailField } from './auth'
import { CHANNEL_MESSAGES } from './channels-constants'
import { PROFILE_MESSAGES } from './profile'

export { CHANNEL_BOUNCING, CHANNEL_COPY, CHANNEL_MESSAGES } from './channels-constants'

// The owner's second channel (issue 0.3 · 5 of 7, item 3): a backup address of their own, verified
// through a link, and an emergency contact who may be told (only) that the owner has not answered.
// Who hears what is one rule: worker/mail/channels.ts.

export const backupEmailBodySchema = z.object({ email: emailField })
export type BackupEmailBody = z.input<typeof backupEmailBodySchema>

export const backupVerifyBodySchema = z.object({
  token: z.string({ error: CHANNEL_MESSAGES.linkInvalid }).min(20, CHANNEL_MESSAGES.linkInvalid).max(2048, CHANNEL_MESSAGES.linkInvalid),
})

export const emergencyContactBodySchema = z
  .object({
    email: z
      .string({ error: PROFILE_MESSAGES.emergencyContactInvalid })
      .nullish()
      .transform((v) => v?.trim() || null)
      .pipe(
        z
          .string()
          .max(254, PROFILE_MESSAGES.emergencyContactInvalid)
          .pipe(z.email(PROFILE_MESSAGES.emergencyContactInvalid))
          .transform((email) => email.toLowerCase())
          .nullable(),
      ),
    alerts: z.boolean({ error: CHANNEL_MESSAGES.contactAlertsInvalid }),
  })
  .refine((v) => !v.alerts || v.email !== null, { message: CHANNEL_MESSAGES.contactAlertsNeedAddress, path: ['alerts'] })
export type EmergencyContactBody = z.input<typeof emergencyContactBodySchema>

export interface ChannelsView {
  primary: { address: string; bouncing: boolean }
  /** Null when the owner has none. */
  backup: { address: string; verified: boolean; bouncing: boolean } | null
  /** Null when the profile names no emergency contact. */
  contact: { address: string; alerts: boolean; bouncing: boolean } | null
}

export const channelsResponseSchema = z.object({
  primary: z.object({ address: z.string(), bouncing: z.boolean() }),
  backup: z.object({ address: z.string(), verified: z.boolean(), bouncing: z.boolean() }).nullable(),
  contact: z.object({ address: z.string(), alerts: z.boolean(), bouncing: z.boolean() }).nullable(),
}) satisfies z.ZodType<ChannelsView>

