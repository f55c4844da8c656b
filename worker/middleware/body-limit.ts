import { bodyLimit } from 'hono/body-limit'
import { ApiError } from '../lib/errors'

/** JSON APIs take small bodies; anything larger is refused with 413 before it is read. */
export const jsonBodyLimit = bodyLimit({
  maxSize: 16 * 1024,
  onError: () => {
    throw new ApiError(413, 'The request body is too large.')
  },
})
