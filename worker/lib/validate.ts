import { zValidator } from '@hono/zod-validator'
import type { ValidationTargets } from 'hono'
import type { z } from 'zod'
import { createMiddleware } from 'hono/factory'
import { every } from 'hono/combine'
import { GENERIC_ERRORS } from '../../contract/messages'
import { forbiddenTextPaths, TEXT_MESSAGES } from '../../contract/text'
import { withFacts } from '../openapi/facts'
import { ApiError, badRequest } from './errors'

function fieldName(path: PropertyKey[]): string {
  return path.length ? path.map(String).join('.') : 'body'
}

/**
 * zValidator that answers 400 `{ message, errors }`: the message names the first field at fault
 * ("email: Please enter a valid email address"), `errors` lists every field and its message. The
 * middleware carries its target and schema, so the API reference documents what it enforces.
 */
export function validate<Target extends keyof ValidationTargets, Schema extends z.ZodType>(
  target: Target,
  schema: Schema,
) {
  const validator = zValidator(target, schema, (result) => {
    if (result.success) {
      const faults = forbiddenTextPaths(result.data)
      if (faults.length === 0) return
      const errors = faults.map((field) => ({ field, message: TEXT_MESSAGES.controlCharacters }))
      throw badRequest(`${errors[0]!.field}: ${errors[0]!.message}`, { errors })
    }
    const errors = result.error.issues.map((issue) => ({ field: fieldName(issue.path), message: issue.message }))
    const first = errors[0] ?? { field: target, message: 'Invalid input' }
    throw badRequest(`${first.field}: ${first.message}`, { errors })
  })
  if (target !== 'json') return withFacts(validator, { validates: { target, schema } })
  // A body in another type would otherwise be read as empty: refuse it. Forms and plain text are
  // also what another site can post without asking, so this closes that door as well.
  return withFacts(every(requireJsonBody, validator) as typeof validator, { validates: { target, schema }, jsonOnly: true })
}

const requireJsonBody = createMiddleware(async (c, next) => {
  const type = c.req.header('content-type')
  // A body that says nothing of its type is refused like a wrong type; no body at all is left to
  // the schema, which names what is missing.
  const untyped = !type && c.req.raw.body !== null
  if (untyped || (type && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type))) throw new ApiError(415, GENERIC_ERRORS.jsonContentType)
  await next()
})
