// Deletion you can take back: after fresh proof the account is frozen (nothing changes, no release
// starts or goes out) and deleted DELETION_GRACE_DAYS later unless the owner keeps it, by signing in
// or from the e-mail. An administrator's deletion of an account is immediate, as before.

export const DELETION_GRACE_DAYS = 7
export const DELETION_GRACE_MS = DELETION_GRACE_DAYS * 24 * 60 * 60 * 1000

const day = (at: number | string) => new Date(at).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })

export const DELETION_MESSAGES = {
  scheduled: (deleteAt: number | string) =>
    `Your account will be deleted on ${day(deleteAt)}. Until then nothing in it changes and no release starts. Sign in before then to keep it.`,
  alreadyScheduled: 'Your account is already set to be deleted.',
  frozen: (deleteAt: number | string) => `Your account is set to be deleted on ${day(deleteAt)}, so nothing can be changed. Keep your account to make changes.`,
  notScheduled: 'Your account is not set to be deleted.',
  kept: 'Your account will not be deleted. Everything is as it was.',
  emailDetail: (deleteAt: number | string) => `It will be deleted on ${day(deleteAt)}. Until then nothing in it changes and no release starts. Signing in lets you keep it.`,
  banner: (deleteAt: number | string) => `Your account will be deleted on ${day(deleteAt)}. Until then nothing can be changed and no release starts.`,
} as const

/** The moment a deletion asked for at `requestedAt` is carried out. */
export function deletionDueAt(requestedAt: number): number {
  return requestedAt + DELETION_GRACE_MS
}
