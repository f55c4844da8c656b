// The second channel's words (contract/channels.ts), without zod: the public page that confirms a
// backup address loads these and not the schemas.

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

/** A channel's words on readiness when the mail provider reports it bouncing. */
export const CHANNEL_BOUNCING = {
  primary: 'E-mail to the address you sign in with is bouncing, so check-ins and the link that cancels a release may not reach you. Check the address, or add a backup address.',
  backup: 'E-mail to your backup address is bouncing, so it may not hear of a check-in or a release. Check it, or replace it.',
  contact: 'E-mail to your emergency contact is bouncing, so they may not hear if you stop answering. Check their address.',
} as const

/** The Settings card and the verification page, in the owner's words. */
export const CHANNEL_COPY = {
  title: 'Who hears if you go quiet',
  description: 'A dead mailbox or a spam filter should never turn silence into a release. Add a second address of your own, and choose whether your emergency contact is told.',
  primaryLabel: 'Your address',
  backupLabel: 'Backup address',
  backupHint: 'Yours too. Once confirmed, it receives your check-ins and reminders, and is told at once if a release starts, with the link that cancels it.',
  backupAdd: 'Add backup address',
  backupReplace: 'Replace backup address',
  backupRemove: 'Remove',
  backupResend: 'Send the link again',
  waiting: 'Waiting for you to follow the link we sent it',
  confirmed: 'Confirmed',
  bouncing: 'E-mail to it is bouncing',
  contactLabel: 'Emergency contact’s e-mail',
  contactAlerts: 'Tell them if a release starts without me',
  contactHint: 'They are told only that you have not answered and how to reach you: never what is in your vault, who receives it, or any link.',
  /** The Emergency contact field on /profile: what really happens to this address. */
  profileContactHint:
    'Optional. If you turn on "Tell them if a release starts without me" in Settings, we e-mail this person if a release starts without you (never for one you start yourself), to say only that you have not answered us and how to reach you. Otherwise we never contact them.',
  contactSave: 'Save emergency contact',
  verifyTitle: 'Confirm your backup address',
  verifyDescription: 'Confirm that this address is yours. It then hears what your main address hears.',
  verifyButton: 'Confirm my backup address',
  verifySignIn: 'Sign in to your account in this browser, then open the link in the e-mail again.',
  verifiedTitle: 'Backup address confirmed',
} as const
