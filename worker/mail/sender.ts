import { headerSafe, type RenderedEmail } from './templates'

export interface OutgoingEmail extends RenderedEmail {
  to: string
}

export interface MailSender {
  send(message: OutgoingEmail): Promise<void>
  /**
   * Whether a delivered message keeps its text in the outbox. Only the local mailbox needs it; in
   * a deployment the text (with its signed links) is dropped once the mail service has it.
   */
  keepDelivered: boolean
}

/**
 * Cloudflare's `send_email` binding (Email Service). In a deployment it delivers the message; under
 * `wrangler dev` it writes the message under `.wrangler/tmp/email/`. Either way the outbox row is
 * what the local mailbox shows.
 */
export function cloudflareSender(env: Pick<Env, 'EMAIL' | 'MAIL_FROM' | 'ENVIRONMENT'>): MailSender {
  return {
    keepDelivered: env.ENVIRONMENT === 'development',
    async send(message) {
      await env.EMAIL.send({
        from: env.MAIL_FROM,
        to: headerSafe(message.to),
        subject: headerSafe(message.subject),
        text: message.text,
        html: message.html,
      })
    },
  }
}
