import { PRODUCT_NAME, SUPPORT_EMAIL } from '../../contract/constants'
import { emailDate } from './dates'
import { render, type RenderedEmail } from './templates'

/** Each change of trust the owner is told of at once, in their words. */
export const TRUST_CHANGES = {
  new_device: { subject: 'New sign-in to your account', what: 'Someone signed in to your account from a device that had not signed in before.' },
  key_added: { subject: 'A security key was added to your account', what: 'A security key was added to your account. It can sign in without your password.' },
  key_removed: { subject: 'A security key was removed from your account', what: 'A security key was removed from your account.' },
  device_trusted: {
    subject: 'A device was marked as trusted',
    what: 'A device was marked as trusted on your account. Using it keeps your Loss of trusted devices trigger from firing.',
  },
  device_untrusted: {
    subject: 'A device is no longer trusted',
    what: 'A device is no longer trusted on your account. Using it no longer keeps your Loss of trusted devices trigger from firing.',
  },
  two_factor_off: { subject: 'Two-factor sign-in was turned off', what: 'Two-factor sign-in was turned off: your password alone now signs in.' },
  authenticator_added: { subject: 'An authenticator app was added to your account', what: 'An authenticator app was set up as a second factor for your account.' },
  authenticator_removed: { subject: 'The authenticator app was removed from your account', what: 'The authenticator app was removed from your account.' },
  manual_release: { subject: 'A release was started from your vault', what: 'A manual release was started from your vault: the items it covers go to your beneficiaries.' },
  release_sooner: { subject: 'A change brings a release from your vault sooner', what: 'A change was made that can make items from your vault available sooner.' },
  signing_key_added: {
    subject: 'Your vault was given its signing key',
    what: 'Your vault was given the signing key that vouches for your beneficiaries’ keys. This happens once, the first time a vault made before signing keys is unlocked.',
  },
  passphrase_changed: {
    subject: 'Your vault passphrase was changed',
    what: 'The passphrase that opens your vault was changed. The old one no longer opens it.',
  },
  recovery_code_made: {
    subject: 'A new recovery code was made for your vault',
    what: 'A new recovery code was made for your vault. The code made before it no longer opens your vault.',
  },
  vault_recovered: {
    subject: 'Your vault was opened with its recovery code',
    what: 'Your vault was opened with its recovery code and given a new passphrase. The old passphrase no longer opens it.',
  },
  backup_email_added: {
    subject: 'A backup address was added to your account',
    what: 'A backup address was added to your account. Once confirmed, it receives your check-ins and the link that cancels a release.',
  },
  backup_email_removed: {
    subject: 'The backup address was removed from your account',
    what: 'The backup address was removed from your account. It no longer hears of check-ins or releases.',
  },
  emergency_contact_changed: {
    subject: 'Your emergency contact was changed',
    what: 'The emergency contact on your account was changed. If a release starts without you, the contact you opted in is told that you have not answered, with your address and phone number.',
  },
  approver_added: {
    subject: 'An approver was added to your account',
    what: 'An approver was added to your account. Once they confirm their address, they can confirm a death certificate, which fires a Verified Death trigger and can start a release, and sign off releases that wait for an approver.',
  },
  deletion_requested: { subject: 'Your account is set to be deleted', what: 'Deleting your account was requested.' },
} as const
export type TrustChange = keyof typeof TRUST_CHANGES

/** The few words that say exactly what changed. */
export const TRUST_DETAILS = {
  accessRequestOn: (policy: string) => `The policy “${policy}” lets people ask for access: unless you refuse in time, its items are released to them.`,
  triggerArmed: (name: string) => `A “${name}” trigger was turned on: it can start a release without you.`,
  scheduleShortened: 'The inactivity trigger’s check-in schedule was shortened: it can fire sooner after your last check-in.',
  windowShortened: (from: number, to: number) => `The safety window went from ${from} to ${to} hours.`,
  frequencyShortened: (from: number, to: number) => `The check-in frequency for a new inactivity trigger went from ${from} to ${to} days.`,
  contactNamed: (address: string, told: boolean) =>
    `Your emergency contact is now ${address}, and ${told ? 'they will be told if a release starts without you' : 'they will not be told anything unless you choose to'}.`,
  contactRemoved: 'You have no emergency contact now: no one else is told if a release starts without you.',
  contactTold: (address: string) => `Your emergency contact, ${address}, will now be told if a release starts without you.`,
  contactNotTold: (address: string) => `Your emergency contact, ${address}, will no longer be told if a release starts without you.`,
  approverNamed: (name: string, address: string) => `The approver is ${name} (${address}).`,
} as const

export interface TrustChangeMail {
  displayName: string
  change: TrustChange
  /** What exactly, in a few words ("the safety window, from 72 to 24 hours"). */
  detail?: string
  /** The device as a person reads it ("Chrome on Windows") and roughly where. */
  device: string
  place: string | null
  at: Date
  /** The owner's zone (users.timezone): the "When" is written in it. */
  timeZone: string
  notMeUrl: string
}

/** To the owner, at once, for every change of trust: what, when, from where, and "This wasn't me". */
export function trustChangeEmail(p: TrustChangeMail): RenderedEmail {
  const { subject, what } = TRUST_CHANGES[p.change]
  return render(subject, {
    heading: subject,
    paragraphs: [
      `Hello ${p.displayName},`,
      p.detail ? `${what} ${p.detail}` : what,
      'If this was you, there is nothing to do.',
      'If it was not, choose “This wasn’t me”: every device is signed out at once, any security key or authenticator app added since then is removed, and you then choose a new password.',
    ],
    details: [
      ['When', emailDate(p.at.getTime(), p.timeZone)],
      ['Device', p.device],
      ['Where', p.place ?? 'Unknown location'],
    ],
    action: { label: 'This wasn’t me', url: p.notMeUrl },
    footnote: `${PRODUCT_NAME} sends this for every change of who can sign in, who receives what, or when. Questions: ${SUPPORT_EMAIL}.`,
  })
}
