import { zValidator } from '@hono/zod-validator'
import type { ValidationTargets } from 'hono'
import type { z } from 'zod'
import { badRequest } from './errors'

function fieldName(path: PropertyKey[]): string {
  return path.length ? path.map(String).join('.') : 'body'
}

/**
 * zValidator that answers 400 `{ message, errors }`: the message names the first field at fault
 * ("email: Please enter a valid email address"), `errors` lists every field and its message.
 */
export function validate<Target extends keyof ValidationTargets, Schema extends z.ZodType>(
  target: Target,
  schema: Schema,
) {
  return zValidator(target, schema, (result) => {
    if (result.success) return
    const errors = result.error.issues.map((issue) => ({ field: fieldName(issue.path), message: issue.message }))
    const first = errors[0] ?? { field: target, message: 'Invalid input' }
    throw badRequest(`${first.field}: ${first.message}`, { errors })
  })
}
