import { z } from 'zod'
import { emailField } from './auth'
import { PROFILE_MESSAGES } from './profile'

// The owner's second channel (issue 0.3 · 5 of 7, item 3): a backup address of their own, verified
// through a link, and an emergency contact who may be told (only) that the owner has not answered.
// Who hears what is one rule: worker/mail/channels.ts.

export const CHANNEL_MESSAGES = {
  backupSameAsPrimary: 'Your backup address must be different from the address you sign in with.',
  backupSent: (email: string) => `We sent a link to ${email}. It receives nothing from us until you follow it.`,
  backupVerified: 'Your backup address is confirmed. It now receives your check-ins and is told at once if a release starts.',
  backupAlreadyVerified: 'Your backup address is already confirmed.',
  backupRemoved: 'Your backup address was removed. It will receive nothing more from us.',
  backupNone: 'You have no backup address.',
  /** Links sent to one backup address an hour, at most. */
  backupPerHour: 3,
  backupLimit: 'We have sent three links to your backup address in the last hour. Please check its inbox (and spam folder), or try again later.',
  linkInvalid: 'This link no longer works. Ask for a new one from Settings.',
  linkExpired: 'This link has expired. Ask for a new one from Settings.',
  contactAlertsNeedAddress: 'Add your emergency contact’s e-mail address to have them told.',
  contactAlertsInvalid: 'Telling your emergency contact must be on or off.',
  contactSaved: 'Your emergency contact was saved.',
  webhookSignatureInvalid: 'The event’s signature does not match.',
  webhookBodyInvalid: 'The event is not one we can read.',
} as const

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

/** A channel's words on readiness when the mail provider reports it bouncing. */
export const CHANNEL_BOUNCING = {
  primary: 'E-mail to the address you sign in with is bouncing, so check-ins and the link that cancels a release may not reach you. Check the address, or add a backup address.',
  backup: 'E-mail to your backup address is bouncing, so it may not hear of a check-in or a release. Check it, or replace it.',
  contact: 'E-mail to your emergency contact is bouncing, so they may not hear if you stop answering. Check their address.',
} as const
