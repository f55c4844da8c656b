import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { loginBodySchema, registerFormSchema, resetPasswordFormSchema } from '../../contract/auth'

function messages(schema: z.ZodType, value: unknown): Record<string, string> {
  const result = schema.safeParse(value)
  if (result.success) return {}
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]))
}

describe('login form (seeds 000 §5)', () => {
  it('names a bad e-mail and a short password', () => {
    expect(messages(loginBodySchema, { email: 'nope', password: '12345' })).toEqual({
      email: 'Please enter a valid email address',
      password: 'Password must be at least 6 characters',
    })
  })
  it('accepts six characters and normalises the e-mail', () => {
    const parsed = loginBodySchema.parse({ email: '  Ada@Example.COM ', password: '123456' })
    expect(parsed.email).toBe('ada@example.com')
  })
})

describe('registration form (seeds 000 §5)', () => {
  const valid = { email: 'a@b.co', displayName: 'Al', password: '12345678', confirmPassword: '12345678', acceptTerms: true }

  it('accepts a valid form', () => {
    expect(messages(registerFormSchema, valid)).toEqual({})
  })
  it('gives each field its message', () => {
    expect(
      messages(registerFormSchema, { email: 'x', displayName: 'A', password: '1234567', confirmPassword: '1234567', acceptTerms: false }),
    ).toEqual({
      email: 'Please enter a valid email address',
      displayName: 'Display name must be at least 2 characters',
      password: 'Password must be at least 8 characters',
      acceptTerms: 'You must accept the terms and conditions',
    })
  })
  it("shows 'Passwords don't match' on confirmPassword", () => {
    expect(messages(registerFormSchema, { ...valid, confirmPassword: '87654321' })).toEqual({
      confirmPassword: "Passwords don't match",
    })
  })
  it('trims the display name before measuring it', () => {
    expect(messages(registerFormSchema, { ...valid, displayName: ' A ' })).toEqual({
      displayName: 'Display name must be at least 2 characters',
    })
  })
})

describe('reset password form', () => {
  it('needs 8 characters and a matching confirmation', () => {
    expect(messages(resetPasswordFormSchema, { password: 'short', confirmPassword: 'short' })).toEqual({
      password: 'Password must be at least 8 characters',
    })
    expect(messages(resetPasswordFormSchema, { password: 'long enough', confirmPassword: 'long enougH' })).toEqual({
      confirmPassword: "Passwords don't match",
    })
  })
})
