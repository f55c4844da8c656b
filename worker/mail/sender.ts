import type { RenderedEmail } from './templates'

export interface OutgoingEmail extends RenderedEmail {
  to: string
}

export interface MailSender {
  send(message: OutgoingEmail): Promise<void>
}

/**
 * Cloudflare's `send_email` binding (Email Service). In a deployment it delivers the message; under
 * `wrangler dev` it writes the message under `.wrangler/tmp/email/`. Either way the outbox row is
 * what the local mailbox shows.
 */
export function cloudflareSender(env: Pick<Env, 'EMAIL' | 'MAIL_FROM'>): MailSender {
  return {
    async send(message) {
      await env.EMAIL.send({
        from: env.MAIL_FROM,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      })
    },
  }
}
