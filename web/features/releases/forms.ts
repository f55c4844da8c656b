import { z } from 'zod'
import { deathConfirmationBodySchema, RELEASE_MESSAGES } from '../../../contract/releases'

// The link pages' forms: the contract's body schemas without the token, which comes from the URL.

export const deathFormSchema = deathConfirmationBodySchema
  .omit({ token: true })
  // A checkbox gives a boolean: unticked is the attestation's message, not a type error.
  .extend({ attest: z.boolean().pipe(z.literal(true, { error: RELEASE_MESSAGES.attestationRequired })) })
export type DeathFormInput = z.input<typeof deathFormSchema>
export type DeathFormOutput = z.output<typeof deathFormSchema>
export const EMPTY_DEATH_FORM: DeathFormInput = { certificateNumber: '', dateOfDeath: '', issuingAuthority: '', attest: false }

/** Today as YYYY-MM-DD in the reader's time zone: the latest date of death the form offers. */
export function todayIso(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}
