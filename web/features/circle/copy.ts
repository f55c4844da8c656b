import type { Beneficiary, NOTIFICATION_STATUSES } from '../../../contract/circle'

// Words used only by the circle screens (shared API messages live in contract/circle.ts).
// Toast titles quoted by seeds 001 §8 are kept to the letter.

export const CIRCLE_TOASTS = {
  addBeneficiaryFailed: 'Failed to add beneficiary',
  removeBeneficiaryFailed: 'Failed to remove beneficiary',
  updateSettingsFailed: 'Failed to update settings',
  addApproverFailed: 'Failed to add approver',
  removeApproverFailed: 'Failed to remove approver',
  resendFailed: 'The e-mail could not be sent',
  updateBeneficiaryFailed: 'Failed to save changes',
  fallback: 'Please try again.',
  keyGenerationFailed: 'This browser could not create the encryption keys. Try again, or use an up-to-date browser.',

  beneficiaryAdded: 'Beneficiary added',
  beneficiaryRemoved: 'Beneficiary removed',
  beneficiaryUpdated: 'Details saved',
  approverAdded: 'Approver added',
  approverRemoved: 'Approver removed',
  verificationSent: 'Verification e-mail sent',
  verificationNotSent: 'No e-mail was sent',
  notificationsEnabled: 'Notifications enabled',
  notificationsDisabled: 'Notifications disabled',
} as const

export const emailSentText = (email: string) => `A verification link was sent to ${email}.`
export const emailNotSentText = 'No verification e-mail was sent. You can send one later with Resend Verification.'
export const invitationHeldText = (email: string) => `The invitation to ${email} goes out as soon as you confirm your own e-mail address.`

/** What became of an invitation the owner asked for: sent, held until they confirm their address, or not sent (`notSent`). */
export function invitationOutcomeText(r: { email: string; verificationEmailSent: boolean; invitationHeld: boolean }, notSent: string): string {
  if (r.verificationEmailSent) return emailSentText(r.email)
  return r.invitationHeld ? invitationHeldText(r.email) : notSent
}

// The switch stops only the early notice that a release has started: the e-mail sent when items are
// released carries the heir's link to open them, so it always goes (engine/advance.ts).
export const NOTIFICATION_COPY = {
  enabled: (name: string) => `${name} will be told by e-mail as soon as a release that may hand items to them starts.`,
  disabled: (name: string) =>
    `${name} will not be told when a release starts. When items are released, they still receive the e-mail with their link to open them.`,
}

export const BENEFICIARY_FIELD_HINTS = {
  sendVerificationEmail: {
    label: 'Send verification e-mail',
    hint: 'E-mails a link so they can confirm this address is theirs. Until they do, we cannot be sure the e-mail with their items would reach them: a release does not wait for it.',
  },
  sendAssetNotifications: {
    label: 'Send asset notifications',
    hint: 'E-mails them as soon as a release that may hand them items starts. The e-mail with their link when items are released always goes.',
  },
  delayNotifications: {
    label: 'Secrecy Mode: delay notifications',
    hint: 'Their e-mails leave out your relationship and other details, and notifications wait until your release conditions are met.',
  },
} as const

export const EDIT_EMAIL_NOTE =
  'Changing the e-mail address sends a new verification link to the new address, and they must verify again.'

export const deleteBeneficiaryText = (name: string) =>
  `${name} will be removed from your beneficiaries. Items assigned to them will no longer be released to them, and their Access Kit will no longer open anything. This cannot be undone.`

export const beneficiaryRemovedText = (name: string) => `${name} is no longer a beneficiary.`

export const APPROVER_COPY = {
  noEmail: (name: string) => `${name} was added without a verification e-mail.`,
  removed: (name: string) => `${name} is no longer one of your approvers.`,
  deleteText: (name: string) =>
    `${name} will no longer review identity documents or be asked to approve releases. This cannot be undone.`,
}

export const IDENTITY_BADGES: Record<Beneficiary['identityStatus'], { label: string; variant: 'success' | 'warning' | 'destructive' | 'secondary' }> = {
  unverified: { label: 'ID not verified', variant: 'secondary' },
  pending: { label: 'ID under review', variant: 'warning' },
  verified: { label: 'ID verified', variant: 'success' },
  rejected: { label: 'ID rejected', variant: 'destructive' },
}

/** One badge for whether e-mails about released items reach this person. */
export function notificationBadge(b: Pick<Beneficiary, 'notificationStatus' | 'sendAssetNotifications'>): {
  label: string
  variant: 'success' | 'warning' | 'destructive' | 'secondary'
  title: string
} {
  if (b.notificationStatus === 'unsubscribed')
    return { label: 'Unsubscribed', variant: 'destructive', title: 'They unsubscribed from all e-mail. No e-mail will be sent to them.' }
  if (!b.sendAssetNotifications) return { label: 'Notifications off', variant: 'secondary', title: 'You turned off the early notice. They still receive the e-mail with their link when items are released.' }
  if (b.notificationStatus === 'opted_in') return { label: 'Opted in', variant: 'success', title: 'They accepted notifications.' }
  return { label: 'Opt-in pending', variant: 'warning', title: 'They have not yet accepted notifications.' }
}

export const HOW_ACCESS_WORKS = [
  {
    title: 'Verification',
    text: 'Each beneficiary confirms their e-mail address through the link we send. Where a policy asks for it, their identity document is checked by one of your approvers.',
  },
  {
    title: 'Trigger activation',
    text: 'Nothing is released while you are active. Items become available only when one of your triggers fires, such as missed check-ins or a verified death.',
  },
  {
    title: 'Secure access',
    text: 'Beneficiaries are told by e-mail and open their items in the beneficiary portal with the private key from their Access Kit. Decryption happens in their browser; we never hold the key.',
  },
] as const

// Pages opened from e-mailed links.
export const LINK_COPY = {
  noToken: 'This link is incomplete: it has no token.',
  loadFailed: 'Your details could not be loaded. Please try again.',
  optInFailed: 'Failed to opt-in. Please try again.',
  unsubscribeFailed: 'Failed to unsubscribe. Please try again.',
  reAdd: (ownerName: string) =>
    `If you change your mind, contact ${ownerName || 'the vault owner'} and ask to be re-added to their notifications.`,
  privacy:
    'Your privacy: your e-mail address is used only for messages about this vault, and we never ask for passwords or keys by e-mail.',
  unsubscribeCauses: [
    'The link has expired.',
    'You have already unsubscribed.',
    'The link is invalid or was not copied in full.',
  ],
} as const

/** The opt-in page's line for an heir who already answered: opted in (may unsubscribe), or unsubscribed (accepting turns it back on); none while pending. */
export function optInStatusText(status: (typeof NOTIFICATION_STATUSES)[number]): string | null {
  if (status === 'pending') return null
  return status === 'opted_in'
    ? 'You have already opted in. You can keep it that way, or unsubscribe below.'
    : 'You unsubscribed earlier. Accepting below turns notifications back on.'
}
