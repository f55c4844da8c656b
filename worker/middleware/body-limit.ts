import { bodyLimit } from 'hono/body-limit'
import { GRANTS_BODY_MAX_BYTES } from '../../contract/vault-items'
import { ApiError } from '../lib/errors'

const tooLarge = () => {
  throw new ApiError(413, 'The request body is too large.')
}

/** JSON APIs take small bodies; anything larger is refused with 413 before it is read. */
export const jsonBodyLimit = bodyLimit({ maxSize: 16 * 1024, onError: tooLarge })

/** An upload's completion and an item's grants: room for the contract's 200 beneficiaries. */
export const grantsBodyLimit = bodyLimit({ maxSize: GRANTS_BODY_MAX_BYTES, onError: tooLarge })
