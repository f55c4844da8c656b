import { describe, expect, it } from 'vitest'
import { authenticatorSignInBodySchema, confirmAuthenticatorBodySchema } from '../../contract/authenticator'
import { AUTHENTICATOR, groupedSecret, isRecoveryCode, isTotpCode, normalizeRecoveryCode, normalizeTotpCode } from '../../contract/authenticator-constants'
import { recoveryCodesText } from '@/features/authenticator/recovery-codes-panel'
import { recoveryCodesLeftText, recoveryCodesWarning } from '@/features/authenticator/recovery-rules'

// The authenticator app's codes as people type them, and the recovery codes as they are saved.

describe('codes as typed', () => {
  it('reads six digits with the spaces or dash apps show, and nothing else', () => {
    for (const code of ['123456', '123 456', ' 123-456 ', '12 34 56']) expect(isTotpCode(code), code).toBe(true)
    for (const code of ['12345', '1234567', '12345a', '', 'abcdef']) expect(isTotpCode(code), code).toBe(false)
    expect(normalizeTotpCode(' 123 456 ')).toBe('123456')
  })

  it('reads recovery codes in any case, with or without dashes, from the unambiguous alphabet only', () => {
    for (const code of ['abcd-efgh-jkmn', 'ABCD-EFGH-JKMN', 'abcdefghjkmn', ' abcd efgh jkmn ']) expect(isRecoveryCode(code), code).toBe(true)
    // 0, 1, i, l and o are never in a code: someone copying one from paper cannot misread them.
    for (const code of ['abcd-efgh-jkm0', 'abcd-efgh-jkm1', 'abcd-efgh-jkmi', 'abcd-efgh-jkml', 'abcd-efgh-jkmo', 'abcd-efgh-jkm', 'abcd-efgh-jkmnp']) {
      expect(isRecoveryCode(code), code).toBe(false)
    }
    expect(AUTHENTICATOR.recoveryCodeAlphabet).not.toMatch(/[01ilo]/)
    expect(normalizeRecoveryCode('ABCD-EFGH-JKMN')).toBe('abcdefghjkmn')
  })

  it('gives the server the normalised code, and the contract’s words for anything else', () => {
    expect(confirmAuthenticatorBodySchema.parse({ code: '123 456' })).toEqual({ code: '123456' })
    expect(confirmAuthenticatorBodySchema.safeParse({ code: 'abcd-efgh-jkmn' }).success).toBe(false)
    expect(authenticatorSignInBodySchema.parse({ ticket: 't', code: 'ABCD-EFGH-JKMN' })).toEqual({ ticket: 't', code: 'abcdefghjkmn' })
    expect(authenticatorSignInBodySchema.parse({ ticket: 't', code: '123-456' })).toEqual({ ticket: 't', code: '123456' })
    expect(authenticatorSignInBodySchema.safeParse({ ticket: 't', code: '12345' }).error?.issues[0]?.message).toMatch(/^Enter the 6-digit code/)
  })

  it('shows the key in groups of four for typing', () => {
    expect(groupedSecret('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')
    expect(groupedSecret('ABCDEF')).toBe('ABCD EF')
  })
})

describe('the recovery codes file', () => {
  it('names the account and the day, says how to use the codes, and lists every code', () => {
    const codes = ['abcd-efgh-jkmn', 'pqrs-tuvw-xyz2']
    const text = recoveryCodesText(codes, 'ada@example.com', new Date('2030-01-02T03:04:05Z'))
    expect(text).toContain('Legacy Vault recovery codes for ada@example.com')
    expect(text).toContain('Made on 2030-01-02.')
    expect(text).toMatch(/Each code works once/)
    expect(text).toContain(' 1. abcd-efgh-jkmn\n 2. pqrs-tuvw-xyz2\n')
  })
})

describe('the authenticator card', () => {
  it('warns to make new recovery codes from 3 left down to none, and not above 3', () => {
    expect(recoveryCodesWarning(4)).toBeNull()
    expect(recoveryCodesWarning(3)).toBe('You are running out of recovery codes.')
    expect(recoveryCodesWarning(1)).toBe('You are running out of recovery codes.')
    expect(recoveryCodesWarning(0)).toBe('You have no recovery codes left.')
  })

  it('counts the recovery codes left in words, one in the singular', () => {
    expect(recoveryCodesLeftText(1)).toBe('1 recovery code left.')
    expect(recoveryCodesLeftText(0)).toBe('0 recovery codes left.')
    expect(recoveryCodesLeftText(10)).toBe('10 recovery codes left.')
  })
})
