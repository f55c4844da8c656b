import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { z } from 'zod'
import { CHUNK_OVERHEAD_BYTES, UPLOAD_CHUNK_BYTES, uploadCompleteBodySchema, uploadStartBodySchema, VAULT_ITEM_MESSAGES } from '../../contract/vault-items'
import { itemGrantsBodySchema } from '../../contract/policies'
import { VAULT_MESSAGES, vaultSetupBodySchema } from '../../contract/vault'
import { ApiError, badRequest, conflict } from '../lib/errors'
import { validate } from '../lib/validate'
import { requireUser } from '../middleware/auth'
import { requireSubscription } from '../middleware/subscription'
import { jsonBodyLimit } from '../middleware/body-limit'
import { audit } from '../services/audit'
import { publicUserOf } from '../services/users'
import { setUpVault } from '../services/vault'
import {
  completeUpload,
  deleteItem,
  discardUpload,
  expectedPartSize,
  findActiveItem,
  findUpload,
  listItems,
  putGrants,
  startUpload,
  storePart,
  uploadSession,
} from '../services/vault-items'
import type { AppEnv } from '../types'

const itemParam = z.object({ itemId: z.uuid(VAULT_ITEM_MESSAGES.uploadNotFound) })
const partParams = itemParam.extend({ partNumber: z.coerce.number().int(VAULT_ITEM_MESSAGES.partNumberInvalid) })
const idParam = z.object({ id: z.uuid(VAULT_ITEM_MESSAGES.itemNotFound) })

// A part is one encrypted chunk: the only binary body this API takes.
const partBodyLimit = bodyLimit({
  maxSize: UPLOAD_CHUNK_BYTES + CHUNK_OVERHEAD_BYTES,
  onError: () => {
    throw new ApiError(413, VAULT_ITEM_MESSAGES.partTooLarge(UPLOAD_CHUNK_BYTES + CHUNK_OVERHEAD_BYTES))
  },
})

export const vaultRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(requireSubscription)
  .post('/setup', jsonBodyLimit, validate('json', vaultSetupBodySchema), async (c) => {
    const user = await setUpVault(c.var.db, c.var.user.id, c.req.valid('json'))
    if (!user) throw conflict(VAULT_MESSAGES.alreadySetUp)
    await audit(c, 'vault.setup')
    return c.json({ message: 'Vault set up.', user: await publicUserOf(c.var.db, user) })
  })
  // Uploads: start, parts (any order, re-sendable), resume, complete, abort.
  .post('/uploads', jsonBodyLimit, validate('json', uploadStartBodySchema), async (c) => {
    const session = await startUpload(c.var.db, c.env, c.var.user, c.req.valid('json'))
    return c.json(session, 201)
  })
  .get('/uploads/:itemId', validate('param', itemParam), async (c) => {
    const row = await findUpload(c.var.db, c.var.user.id, c.req.valid('param').itemId)
    return c.json(await uploadSession(c.var.db, row))
  })
  .put('/uploads/:itemId/parts/:partNumber', partBodyLimit, validate('param', partParams), async (c) => {
    const { itemId, partNumber } = c.req.valid('param')
    const row = await findUpload(c.var.db, c.var.user.id, itemId)
    const expected = expectedPartSize(row, partNumber)
    const declared = Number(c.req.header('content-length') ?? Number.NaN)
    if (Number.isFinite(declared) && declared !== expected) throw badRequest(VAULT_ITEM_MESSAGES.partSizeMismatch(expected))
    const bytes = await c.req.arrayBuffer()
    if (bytes.byteLength !== expected) throw badRequest(VAULT_ITEM_MESSAGES.partSizeMismatch(expected))
    await storePart(c.var.db, c.env, row, partNumber, bytes)
    return c.json({ partNumber, size: bytes.byteLength })
  })
  .post('/uploads/:itemId/complete', jsonBodyLimit, validate('param', itemParam), validate('json', uploadCompleteBodySchema), async (c) => {
    const row = await findUpload(c.var.db, c.var.user.id, c.req.valid('param').itemId)
    const body = c.req.valid('json')
    const item = await completeUpload(c.var.db, c.env, c.var.user, row, body)
    await audit(c, 'vault.item_added', {
      itemId: item.id,
      type: item.type,
      protocol: item.accessPolicy.protocol,
      cipherSize: item.cipherSize,
      grants: item.beneficiaryIds.length,
      policies: new Set(body.policyIds ?? []).size,
    })
    return c.json(item, 201)
  })
  .delete('/uploads/:itemId', validate('param', itemParam), async (c) => {
    const row = await findUpload(c.var.db, c.var.user.id, c.req.valid('param').itemId)
    await discardUpload(c.var.db, c.env, row)
    return c.json({ message: 'Upload cancelled.' })
  })
  // Items
  .get('/items', async (c) => c.json(await listItems(c.var.db, c.var.user.id)))
  .get('/items/:id/content', validate('param', idParam), async (c) => {
    const row = await findActiveItem(c.var.db, c.var.user.id, c.req.valid('param').id)
    const object = await c.env.BLOBS.get(row.r2Key)
    if (!object) throw new ApiError(404, VAULT_ITEM_MESSAGES.itemNotFound)
    return new Response(object.body, {
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': String(object.size),
        'cache-control': 'no-store',
      },
    })
  })
  .put('/items/:id/grants', jsonBodyLimit, validate('param', idParam), validate('json', itemGrantsBodySchema), async (c) => {
    const itemId = c.req.valid('param').id
    const { grants } = c.req.valid('json')
    const beneficiaryIds = await putGrants(c.var.db, c.var.user.id, itemId, grants)
    await audit(c, 'vault.grants_updated', { itemId, count: grants.length, total: beneficiaryIds.length })
    return c.json({ beneficiaryIds })
  })
  .delete('/items/:id', validate('param', idParam), async (c) => {
    const itemId = c.req.valid('param').id
    await deleteItem(c.var.db, c.env, c.var.user.id, itemId)
    await audit(c, 'vault.item_deleted', { itemId })
    return c.json({ message: 'Item deleted.' })
  })
