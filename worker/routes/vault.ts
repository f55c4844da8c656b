import { Hono } from 'hono'
import { z } from 'zod'
import {
  CHUNK_OVERHEAD_BYTES,
  sealItemBodySchema,
  sealPageQuerySchema,
  UPLOAD_CHUNK_BYTES,
  uploadCompleteBodySchema,
  uploadStartBodySchema,
  VAULT_ITEM_MESSAGES,
} from '../../contract/vault-items'
import { itemGrantsBodySchema } from '../../contract/policies'
import { passphraseChangeBodySchema, recoveryWrapSchema, VAULT_MESSAGES, vaultSetupBodySchema } from '../../contract/vault'
import { RECOVERY_MESSAGES } from '../../contract/vault-recovery'
import { KEY_MOVE_MESSAGES, keyMovePageBodySchema, keyMoveStartBodySchema } from '../../contract/vault-key-move'
import { signingKeyBodySchema } from '../../contract/key-signing'
import { EXPORT_AUDIT_ACTION, EXPORT_MESSAGES, exportRecordBodySchema } from '../../contract/vault-export'
import { bytesToHex as toHex } from '@noble/hashes/utils.js'
import { ApiError, badRequest } from '../lib/errors'
import { validate } from '../lib/validate'
import { requireUser, userOf } from '../middleware/auth'
import { requireSubscription } from '../middleware/subscription'
import { requireFreshProof } from '../middleware/fresh-proof'
import { tellOwner } from '../services/trust-mail'
import { grantsBodyLimit, jsonBodyLimit, limitBody } from '../middleware/body-limit'
import { accountIn, vaultOf } from '../middleware/owner-vault'
import { ask, sendJsonText } from '../owner/outcome'
import { publicUserOf } from '../services/users'
import type { AppEnv } from '../types'

const itemParam = z.object({ itemId: z.uuid(VAULT_ITEM_MESSAGES.uploadNotFound) })
const partParams = itemParam.extend({ partNumber: z.coerce.number().int(VAULT_ITEM_MESSAGES.partNumberInvalid) })
const idParam = z.object({ id: z.uuid(VAULT_ITEM_MESSAGES.itemNotFound) })

// A part is one encrypted chunk: the only binary body this API takes.
const partBodyLimit = limitBody(UPLOAD_CHUNK_BYTES + CHUNK_OVERHEAD_BYTES, VAULT_ITEM_MESSAGES.partTooLarge(UPLOAD_CHUNK_BYTES + CHUNK_OVERHEAD_BYTES))

// The owner's vault lives in their own object (worker/owner/); ciphertext goes to R2 from here,
// so parts never travel through the object.
export const vaultRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(requireSubscription)
  // The vault's salt and passphrase check are kept in the owner's object, once: a second setup
  // would orphan every key wrapped under the first passphrase.
  .post('/setup', jsonBodyLimit, validate('json', vaultSetupBodySchema), async (c) => {
    const body = c.req.valid('json')
    await ask(
      vaultOf(c).keys().setupVault(
        accountIn(c),
        body.vaultSalt,
        body.passphraseCheck,
        { publicKey: body.signingPublicKey, wrapped: body.wrappedSigningKey },
        body.wrappedVaultKey,
        body.recovery,
      ),
    )
    return c.json({ message: 'Vault set up.', user: await publicUserOf(c.env, c.var.db, (await userOf(c))) })
  })
  // A new passphrase re-wraps the vault key only: one request whatever the vault holds. The server
  // cannot check the old passphrase (it never sees it), so a session alone may not: fresh proof,
  // and the owner is told. Whoever changed it without the old passphrase would only lock the owner
  // out (their wrap does not hold the vault key), which the e-mail lets them notice at once.
  .post('/passphrase', requireFreshProof, jsonBodyLimit, validate('json', passphraseChangeBodySchema), async (c) => {
    const body = c.req.valid('json')
    await ask(vaultOf(c).keys().changePassphrase(accountIn(c), body))
    await tellOwner(c, c.var.account, body.via === 'recovery_code' ? 'vault_recovered' : 'passphrase_changed')
    return c.json({ message: VAULT_MESSAGES.passphraseChanged, user: await publicUserOf(c.env, c.var.db, (await userOf(c))) })
  })
  // A new recovery code opens the vault as the passphrase does, and voids the one before: like a
  // passphrase change, fresh proof and the owner is told.
  .put('/recovery', requireFreshProof, jsonBodyLimit, validate('json', recoveryWrapSchema), async (c) => {
    await ask(vaultOf(c).keys().setRecoveryCode(accountIn(c), c.req.valid('json')))
    await tellOwner(c, c.var.account, 'recovery_code_made')
    return c.json({ message: RECOVERY_MESSAGES.made, user: await publicUserOf(c.env, c.var.db, (await userOf(c))) })
  })
  // A vault set up before signing keys gets its one at its next unlock. Whoever adds it decides which
  // beneficiary keys the owner's browser will trust, so a session alone may not: the server cannot
  // check the vault passphrase of a vault made before any verifier of it existed, so it asks for
  // the account's own fresh proof (a sign-in moments before the unlock counts), and tells the owner.
  .post('/signing-key', requireFreshProof, jsonBodyLimit, validate('json', signingKeyBodySchema), async (c) => {
    const body = c.req.valid('json')
    await ask(vaultOf(c).keys().addSigningKey(accountIn(c), { publicKey: body.signingPublicKey, wrapped: body.wrappedSigningKey }))
    await tellOwner(c, c.var.account, 'signing_key_added')
    return c.json({ message: 'Signing key added.', user: await publicUserOf(c.env, c.var.db, (await userOf(c))) })
  })
  // A vault of format 1 moves to a vault key at its next unlock: start (or resume), pages of
  // re-wrapped keys, one commit. The commit decides what every data key is wrapped by, and the
  // server cannot check a wrap, so like the signing key it needs fresh proof (a sign-in moments
  // before the unlock counts); starting and staging change nothing in force.
  .post('/key-move', jsonBodyLimit, validate('json', keyMoveStartBodySchema), async (c) =>
    c.json(await ask(vaultOf(c).keys().startKeyMove(accountIn(c), c.req.valid('json')))),
  )
  .put('/key-move/pages', grantsBodyLimit, validate('json', keyMovePageBodySchema), async (c) =>
    c.json(await ask(vaultOf(c).keys().stageKeyMovePage(accountIn(c), c.req.valid('json')))),
  )
  .post('/key-move/commit', requireFreshProof, async (c) => {
    await ask(vaultOf(c).keys().commitKeyMove(accountIn(c)))
    return c.json({ message: KEY_MOVE_MESSAGES.moved, user: await publicUserOf(c.env, c.var.db, (await userOf(c))) })
  })
  // Uploads: start, parts (any order, re-sendable), resume, complete, abort.
  .post('/uploads', jsonBodyLimit, validate('json', uploadStartBodySchema), async (c) =>
    c.json(await ask(vaultOf(c).items().startUpload(accountIn(c), c.req.valid('json'))), 201),
  )
  .get('/uploads/:itemId', validate('param', itemParam), async (c) => c.json(await ask(vaultOf(c).items().uploadSession(c.req.valid('param').itemId))))
  .put('/uploads/:itemId/parts/:partNumber', partBodyLimit, validate('param', partParams), async (c) => {
    const { itemId, partNumber } = c.req.valid('param')
    const vault = vaultOf(c)
    const target = await ask(vault.items().partTarget(itemId, partNumber))
    const declared = Number(c.req.header('content-length') ?? Number.NaN)
    if (Number.isFinite(declared) && declared !== target.size) throw badRequest(VAULT_ITEM_MESSAGES.partSizeMismatch(target.size))
    const bytes = await c.req.arrayBuffer()
    if (bytes.byteLength !== target.size) throw badRequest(VAULT_ITEM_MESSAGES.partSizeMismatch(target.size))
    // The manifest's content digest is checked against the parts as they arrived here.
    const digest = toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)))
    const part = await c.env.BLOBS.resumeMultipartUpload(target.r2Key, target.uploadId).uploadPart(partNumber, bytes)
    await ask(vault.items().recordPart(itemId, partNumber, part.etag, bytes.byteLength, digest))
    return c.json({ partNumber, size: bytes.byteLength })
  })
  .post('/uploads/:itemId/complete', grantsBodyLimit, validate('param', itemParam), validate('json', uploadCompleteBodySchema), async (c) =>
    c.json(await ask(vaultOf(c).items().completeUpload(accountIn(c), c.req.valid('param').itemId, c.req.valid('json'))), 201),
  )
  .delete('/uploads/:itemId', validate('param', itemParam), async (c) => {
    await ask(vaultOf(c).items().abortUpload(c.req.valid('param').itemId))
    return c.json({ message: 'Upload cancelled.' })
  })
  // Items
  .get('/items', async (c) => sendJsonText(await ask(vaultOf(c).items().listItems())))
  .get('/items/:id/content', validate('param', idParam), async (c) => {
    const key = await ask(vaultOf(c).items().itemBlob(c.req.valid('param').id))
    const object = await c.env.BLOBS.get(key)
    if (!object) throw new ApiError(404, VAULT_ITEM_MESSAGES.itemNotFound)
    return new Response(object.body, {
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(object.size), 'cache-control': 'no-store' },
    })
  })
  // The estate bundle: ciphertext, grants and seals, packed per beneficiary in the owner's browser.
  .get('/estate', async (c) => c.json(await ask(vaultOf(c).items().estateItems())))
  // A finished "Download my vault": the ZIP was made in the browser, so only the browser can say
  // it happened; it enters the owner's chain by counts (never names).
  .post('/exports', jsonBodyLimit, validate('json', exportRecordBodySchema), async (c) => {
    await vaultOf(c).audit().appendAudit({ actor: 'user', action: EXPORT_AUDIT_ACTION, details: c.req.valid('json') })
    return c.json({ message: EXPORT_MESSAGES.recorded }, 201)
  })
  .put('/items/:id/grants', grantsBodyLimit, validate('param', idParam), validate('json', itemGrantsBodySchema), async (c) => {
    const beneficiaryIds = await ask(vaultOf(c).items().putGrants(accountIn(c), c.req.valid('param').id, c.req.valid('json')))
    return c.json({ beneficiaryIds })
  })
  // Items stored before manifests: a page to seal at a time, then each one sealed by the vault.
  .get('/seal', validate('query', sealPageQuerySchema), async (c) => c.json(await ask(vaultOf(c).items().sealPage(c.req.valid('query').after))))
  .post('/items/:id/seal', grantsBodyLimit, validate('param', idParam), validate('json', sealItemBodySchema), async (c) =>
    c.json(await ask(vaultOf(c).items().sealItem(accountIn(c), c.req.valid('param').id, c.req.valid('json')))),
  )
  .delete('/items/:id', validate('param', idParam), async (c) => {
    await ask(vaultOf(c).items().deleteItem(accountIn(c), c.req.valid('param').id))
    return c.json({ message: 'Item deleted.' })
  })
