import { PRODUCT_NAME, SUPPORT_EMAIL } from '../../contract/constants'
import { render, type RenderedEmail } from './templates'

/** To the backup address the owner named: the only message it gets until the link is followed. */
export function backupEmailVerifyEmail(p: { displayName: string; verifyUrl: string }): RenderedEmail {
  return render(`Confirm your backup address for ${PRODUCT_NAME}`, {
    heading: 'Confirm your backup address',
    paragraphs: [
      `Hello ${p.displayName},`,
      `You asked ${PRODUCT_NAME} to use this address as your backup. Once you confirm it, it receives your check-in e-mails and reminders too, and is told at once if a release from your vault starts, with the link that cancels it.`,
      'You will be asked to sign in to confirm it. The link works for seven days.',
    ],
    action: { label: 'Confirm my backup address', url: p.verifyUrl },
    footnote: 'If you did not ask for this, ignore this message: this address will receive nothing more.',
  })
}

/**
 * To the emergency contact the owner opted in, when a release starts without the owner: only that
 * the owner has not answered and how to reach them. No link of any kind, no item, no heir.
 */
export function ownerUnansweredEmail(p: { ownerName: string; ownerEmail: string; ownerPhone: string | null }): RenderedEmail {
  return render(`${p.ownerName} has not answered`, {
    heading: `${p.ownerName} has not answered`,
    paragraphs: [
      `${p.ownerName} named you as their emergency contact with ${PRODUCT_NAME}, and asked us to tell you if they stopped answering us.`,
      `We have not been able to reach ${p.ownerName}. If you can, please get in touch with them and ask them to sign in to their ${PRODUCT_NAME} account.`,
      'There is nothing for you to do in your own account, and nothing to sign.',
    ],
    details: [['E-mail', p.ownerEmail], ...(p.ownerPhone ? ([['Phone', p.ownerPhone]] as Array<[string, string]>) : [])],
    footnote: `If you cannot reach them, or have a question, write to ${SUPPORT_EMAIL}.`,
  })
}
