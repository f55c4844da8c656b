import { WebAuthnError } from '@simplewebauthn/browser'
import { describe, expect, it } from 'vitest'
import { SECURITY_KEY, WEBAUTHN_MESSAGES } from '../../contract/webauthn'
import { failedInBrowser, securityKeysSupported, setupFailureToast, signInFailureToast } from '@/features/security-keys/ceremonies'
import { ApiRequestError } from '@/lib/api-client'
import { canAddKey, twoFactorSwitchable } from '@/features/security-keys/card-rules'

// The security-key toasts (seeds 000 §8): which failure gets which of the spec's titles.

const domError = (name: string) => Object.assign(new Error(`${name} from the browser`), { name })

describe('signInFailureToast', () => {
  it('says no security keys were found when the server does not know the key', () => {
    const error = new ApiRequestError(401, WEBAUTHN_MESSAGES.unknownCredential, { message: WEBAUTHN_MESSAGES.unknownCredential })
    expect(signInFailureToast(error)).toEqual({ title: WEBAUTHN_MESSAGES.noKeys, description: WEBAUTHN_MESSAGES.noKeysBody })
  })

  it('says the same when the browser found no key (or the person cancelled)', () => {
    expect(signInFailureToast(domError('NotAllowedError'))).toEqual({ title: WEBAUTHN_MESSAGES.noKeys, description: WEBAUTHN_MESSAGES.noKeysBody })
    const aborted = new WebAuthnError({ message: 'aborted', code: 'ERROR_CEREMONY_ABORTED', cause: domError('AbortError') })
    expect(signInFailureToast(aborted).title).toBe(WEBAUTHN_MESSAGES.noKeys)
  })

  it('reports a refused signature as an authentication failure, with the server’s reason', () => {
    const error = new ApiRequestError(401, WEBAUTHN_MESSAGES.counterRegressed, { message: WEBAUTHN_MESSAGES.counterRegressed })
    expect(signInFailureToast(error)).toEqual({ title: WEBAUTHN_MESSAGES.authFailed, description: WEBAUTHN_MESSAGES.counterRegressed })
    expect(signInFailureToast(new ApiRequestError(400, WEBAUTHN_MESSAGES.challengeInvalid, {}))).toEqual({
      title: WEBAUTHN_MESSAGES.authFailed,
      description: WEBAUTHN_MESSAGES.challengeInvalid,
    })
  })
})

describe('signInFailureToast for a second factor', () => {
  it('says the key step failed and why, not "use password login"', () => {
    expect(signInFailureToast(domError('NotAllowedError'), 'second_factor')).toEqual({ title: WEBAUTHN_MESSAGES.authFailed, description: WEBAUTHN_MESSAGES.cancelled })
    const foreign = new ApiRequestError(401, WEBAUTHN_MESSAGES.unknownCredential, {})
    expect(signInFailureToast(foreign, 'second_factor')).toEqual({ title: WEBAUTHN_MESSAGES.authFailed, description: WEBAUTHN_MESSAGES.unknownCredential })
  })

  it('tells a failure in the browser from one the server gave', () => {
    expect(failedInBrowser(domError('NotAllowedError'))).toBe(true)
    expect(failedInBrowser(new ApiRequestError(401, WEBAUTHN_MESSAGES.verificationFailed, {}))).toBe(false)
  })
})

describe('setupFailureToast', () => {
  it('is the spec’s setup failure, saying why', () => {
    expect(setupFailureToast(domError('NotAllowedError'))).toEqual({ title: WEBAUTHN_MESSAGES.setupFailed, description: WEBAUTHN_MESSAGES.cancelled })
    const again = new WebAuthnError({ message: 'registered', code: 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED', cause: domError('InvalidStateError') })
    expect(setupFailureToast(again)).toEqual({ title: WEBAUTHN_MESSAGES.setupFailed, description: WEBAUTHN_MESSAGES.alreadyRegistered })
    expect(setupFailureToast(new ApiRequestError(409, WEBAUTHN_MESSAGES.tooMany, {}))).toEqual({ title: WEBAUTHN_MESSAGES.setupFailed, description: WEBAUTHN_MESSAGES.tooMany })
  })
})

describe('securityKeysSupported', () => {
  it('is false where the browser has no WebAuthn (so the Security Key button stays hidden)', () => {
    expect(securityKeysSupported()).toBe(false)
  })
})

describe('the security keys card', () => {
  it('Add Security Key is offered up to the most keys the server keeps, and not at that count', () => {
    expect(canAddKey(0)).toBe(true)
    expect(canAddKey(SECURITY_KEY.maxPerOwner - 1)).toBe(true)
    expect(canAddKey(SECURITY_KEY.maxPerOwner)).toBe(false)
  })

  it('two-factor sign-in can be switched on only with a security key, and switched off always', () => {
    expect(twoFactorSwitchable({ twoFactorEnabled: false, securityKeyCount: 0 })).toBe(false)
    expect(twoFactorSwitchable({ twoFactorEnabled: false, securityKeyCount: 1 })).toBe(true)
    // On with no key left (the last one removed): it can still be switched off.
    expect(twoFactorSwitchable({ twoFactorEnabled: true, securityKeyCount: 0 })).toBe(true)
    expect(twoFactorSwitchable({ twoFactorEnabled: true, securityKeyCount: 2 })).toBe(true)
  })
})
