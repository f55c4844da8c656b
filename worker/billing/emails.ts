import { PAYMENT_GRACE_DAYS } from '../../contract/constants'
import { render, type RenderedEmail } from '../mail/templates'

/** The one message a payment issue sends as its grace period starts (seeds 000 §4 'Payment lifecycle'). */
export function paymentIssueEmail(p: { displayName: string; graceUntil: number; accountUrl: string }): RenderedEmail {
  const until = new Date(p.graceUntil).toUTCString()
  return render('Action needed: your subscription payment failed', {
    heading: 'We could not take your subscription payment',
    paragraphs: [
      `Hello ${p.displayName},`,
      'Your card was declined or has expired, so this period’s payment did not go through.',
      `Your vault stays fully usable for ${PAYMENT_GRACE_DAYS} days while you update your payment method. During these days your inheritance triggers keep monitoring but are held: they will not activate. Your beneficiaries’ access policies stay in place. New uploads are limited until payment is restored.`,
      'If the payment is still not resolved when the grace period ends, your triggers resume and may activate on inactivity.',
    ],
    details: [['Grace period ends', until]],
    action: { label: 'Update payment method', url: p.accountUrl },
  })
}
