import { describe, expect, it } from 'vitest'
import { missingProofText, proofBody } from '@/features/fresh-proof/proof-rules'

// "Confirm it's you" (the fresh-proof dialog): what it sends for a typed password or code.

describe('what Confirm it’s you sends', () => {
  it('the password exactly as typed, spaces included', () => {
    expect(proofBody('password', ' pass word ')).toEqual({ method: 'password', password: ' pass word ' })
  })

  it('an authenticator or recovery code without the spaces around it', () => {
    expect(proofBody('authenticator', ' 123456 ')).toEqual({ method: 'authenticator', code: '123456' })
  })

  it('nothing when nothing (or only spaces) was typed: it asks for the password or the code instead', () => {
    expect(proofBody('password', '')).toBeNull()
    expect(proofBody('password', '   ')).toBeNull()
    expect(proofBody('authenticator', ' ')).toBeNull()
    expect(missingProofText('password')).toBe('Enter your password')
    expect(missingProofText('authenticator')).toBe('Enter the code')
  })
})
