import type { Db } from '../db/client'
import { deliverOne, enqueueEmail } from './outbox'
import { cloudflareSender } from './sender'
import type { RenderedEmail } from './templates'

/** Records the message in the outbox, then delivers it after the response has gone. */
export async function sendEmail(
  env: Env,
  ctx: Pick<ExecutionContext, 'waitUntil'>,
  db: Db,
  message: RenderedEmail & { to: string; kind: string },
): Promise<void> {
  const { id } = await enqueueEmail(db, message)
  ctx.waitUntil(deliverOne(db, cloudflareSender(env), id))
}
