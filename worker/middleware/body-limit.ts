import { bodyLimit } from 'hono/body-limit'
import { GRANTS_BODY_MAX_BYTES } from '../../contract/vault-items'
import { ApiError } from '../lib/errors'
import { withFacts } from '../openapi/facts'

/** Refuses a body larger than `maxSize` bytes with 413 and `message`, before it is read. */
export function limitBody(maxSize: number, message = 'The request body is too large.') {
  const middleware = bodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError(413, message)
    },
  })
  return withFacts(middleware, { bodyLimit: maxSize })
}

/** JSON APIs take small bodies; anything larger is refused with 413 before it is read. */
export const jsonBodyLimit = limitBody(16 * 1024)

/** An upload's completion and an item's grants: room for the contract's 200 beneficiaries. */
export const grantsBodyLimit = limitBody(GRANTS_BODY_MAX_BYTES)
