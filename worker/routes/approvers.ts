import { Hono } from 'hono'
import { z } from 'zod'
import { approverFormSchema, CIRCLE_MESSAGES } from '../../contract/circle'
import { conflict, notFound } from '../lib/errors'
import { validate } from '../lib/validate'
import { requireUser } from '../middleware/auth'
import { requireSubscription } from '../middleware/subscription'
import { jsonBodyLimit } from '../middleware/body-limit'
import { audit } from '../services/audit'
import { createApprover, deleteApprover, listApprovers, toApprover } from '../services/approvers'
import { sendApproverInvitation } from '../services/invitations'
import type { AppEnv } from '../types'

const idParam = z.object({ id: z.uuid(CIRCLE_MESSAGES.approverNotFound) })

export const approverRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(requireSubscription)
  .use(jsonBodyLimit)
  .get('/', async (c) => c.json((await listApprovers(c.var.db, c.var.user.id)).map(toApprover)))
  .post('/', validate('json', approverFormSchema), async (c) => {
    const { sendVerificationEmail, ...body } = c.req.valid('json')
    const row = await createApprover(c.var.db, c.var.user.id, body)
    if (!row) throw conflict(CIRCLE_MESSAGES.duplicateApprover)
    const verificationEmailSent = sendVerificationEmail
      ? await sendApproverInvitation(c.env, c.executionCtx, c.var.db, c.var.user, row)
      : false
    await audit(c, 'circle.approver_added', { approverId: row.id, verificationEmailSent })
    return c.json({ ...toApprover(row), verificationEmailSent }, 201)
  })
  .delete('/:id', validate('param', idParam), async (c) => {
    const { id } = c.req.valid('param')
    if (!(await deleteApprover(c.var.db, c.var.user.id, id))) throw notFound(CIRCLE_MESSAGES.approverNotFound)
    await audit(c, 'circle.approver_removed', { approverId: id })
    return c.json({ message: 'Approver removed.' })
  })
