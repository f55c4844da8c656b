import { PAYMENT_GRACE_DAYS, PAYMENT_REMINDER_DAYS } from '../../contract/constants'
import { formatCents } from '../../contract/plans'
import { emailDate } from '../mail/dates'
import { render, type RenderedEmail } from '../mail/templates'

// The dunning e-mails of a payment issue (seeds 000 §4 'Payment lifecycle'), each sent once per
// failed invoice (worker/billing/dunning.ts). Every one leads to /account, where the owner updates
// the card and pays what is due.

export interface DunningParts {
  displayName: string
  /** Cents; 0 when Stripe did not say. */
  amountDue: number
  graceUntil: number
  accountUrl: string
  /** The owner's time zone (users.timezone): the dates are written in it, the zone named. */
  timeZone?: string | null
}

const amountLine = (p: DunningParts): Array<[string, string]> => (p.amountDue > 0 ? [['Amount due', formatCents(p.amountDue)]] : [])
const fixIt = (url: string) => ({ label: 'Update payment method', url })

/** On the first failure of an invoice: what happens now, and until when. */
export function paymentIssueEmail(p: DunningParts): RenderedEmail {
  return render('Action needed: your subscription payment failed', {
    heading: 'We could not take your subscription payment',
    paragraphs: [
      `Hello ${p.displayName},`,
      'Your card was declined or has expired, so this period’s payment did not go through.',
      `Your vault stays fully usable for ${PAYMENT_GRACE_DAYS} days while you update your payment method. During these days your inheritance triggers keep monitoring but are held: they will not activate. Your beneficiaries’ access policies stay in place. New uploads wait until payment is restored.`,
      'If the payment is still not resolved when the grace period ends, your triggers resume and may activate on inactivity.',
      'It takes two minutes: open Account & Billing, update your card, then pay the open invoice.',
    ],
    details: [...amountLine(p), ['Grace period ends', emailDate(p.graceUntil, p.timeZone)]],
    action: fixIt(p.accountUrl),
  })
}

/** PAYMENT_REMINDER_DAYS before the grace ends, if the invoice is still unpaid. */
export function paymentReminderEmail(p: DunningParts): RenderedEmail {
  return render(`Reminder: ${PAYMENT_REMINDER_DAYS} days left to fix your subscription payment`, {
    heading: `${PAYMENT_REMINDER_DAYS} days left to update your payment method`,
    paragraphs: [
      `Hello ${p.displayName},`,
      'Your subscription payment is still unpaid.',
      `Your grace period ends on ${emailDate(p.graceUntil, p.timeZone)}. Until then your inheritance triggers are held and will not activate. After it, they resume their normal course and may activate on inactivity.`,
      'Update your card and pay the open invoice from Account & Billing to keep everything as it is.',
    ],
    details: [...amountLine(p), ['Grace period ends', emailDate(p.graceUntil, p.timeZone)]],
    action: fixIt(p.accountUrl),
  })
}

/** When the grace has ended with the invoice still unpaid: what changed, and what the owner can do. */
export function graceEndedEmail(p: DunningParts): RenderedEmail {
  return render('Your payment grace period has ended', {
    heading: 'Your payment grace period has ended',
    paragraphs: [
      `Hello ${p.displayName},`,
      'Your subscription payment is still unpaid and the grace period is over.',
      'What changed: your inheritance triggers are no longer held. They resume their normal course, so an inactivity trigger may activate if you miss your check-ins, and your beneficiaries would then receive what you chose for them. Your vault is closed until the payment is made: nothing in it is deleted, and you can still sign in to pay.',
      'What you can do: update your card and pay the open invoice from Account & Billing. If your subscription has ended, choose a plan again from the same page.',
    ],
    details: [...amountLine(p), ['Grace period ended', emailDate(p.graceUntil, p.timeZone)]],
    action: fixIt(p.accountUrl),
  })
}

/** When an invoice that failed is paid. */
export function paymentRecoveredEmail(p: Pick<DunningParts, 'displayName' | 'amountDue' | 'accountUrl'>): RenderedEmail {
  return render('Payment received: your subscription is active again', {
    heading: 'Thank you: your payment went through',
    paragraphs: [
      `Hello ${p.displayName},`,
      'Your subscription payment has been received and your subscription is active again.',
      'Your inheritance triggers are back to their normal course and you can upload again. Nothing else needs doing.',
    ],
    details: p.amountDue > 0 ? [['Amount paid', formatCents(p.amountDue)]] : [],
    action: { label: 'View billing history', url: p.accountUrl },
  })
}
