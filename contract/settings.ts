import { z } from 'zod'
import { CHECKIN_FREQUENCY_OPTIONS, CHECKIN_GRACE_DAYS } from './constants'

// Check-in settings (seeds 000 §2 'Account Settings', §3, §5, §8, §9; seeds 001 §2).

export const SETTINGS_MESSAGES = {
  frequencyMin: 'Minimum frequency is 7 days',
  graceFixed: 'Grace period is fixed at 3 days',
  updatedTitle: 'Settings Updated',
  updatedBody: 'Your check-in settings have been saved.',
  failedTitle: 'Update Failed',
  failedBody: 'Failed to update your ping settings. Please try again.',
} as const

export const CHECKIN_FREQUENCY_LABELS: Record<(typeof CHECKIN_FREQUENCY_OPTIONS)[number], { label: string; description: string }> = {
  7: { label: 'Weekly', description: 'A check-in e-mail every 7 days. For the closest watch.' },
  14: { label: 'Every two weeks', description: 'A check-in e-mail every 14 days.' },
  30: { label: 'Monthly', description: 'A check-in e-mail every 30 days. The usual choice.' },
  60: { label: 'Every two months', description: 'A check-in e-mail every 60 days.' },
  90: { label: 'Quarterly', description: 'A check-in e-mail every 90 days. For frequent travellers.' },
}

export const pingSettingsBodySchema = z.object({
  pingFrequency: z
    .number({ error: SETTINGS_MESSAGES.frequencyMin })
    .int(SETTINGS_MESSAGES.frequencyMin)
    .min(7, SETTINGS_MESSAGES.frequencyMin)
    .max(365, 'Maximum frequency is 365 days'),
  gracePeriod: z.literal(CHECKIN_GRACE_DAYS, { error: SETTINGS_MESSAGES.graceFixed }),
})
export type PingSettingsBody = z.infer<typeof pingSettingsBodySchema>
