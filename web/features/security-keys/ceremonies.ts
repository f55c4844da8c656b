import {
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser'
import type { AuthResponse } from '../../../contract/auth'
import { WEBAUTHN_MESSAGES, WEBAUTHN_PATHS, type RegisterKeyResponse } from '../../../contract/webauthn'
import { ApiRequestError, apiJson } from '@/lib/api-client'

// The browser's half of the WebAuthn ceremonies. The server issues every challenge and verifies
// every answer; this module only carries them between the server and the authenticator.

export { securityKeysSupported } from './support'

/** Adds a security key to the signed-in owner's account. */
export async function registerSecurityKey(name?: string): Promise<RegisterKeyResponse> {
  const optionsJSON = await apiJson<PublicKeyCredentialCreationOptionsJSON>('POST', WEBAUTHN_PATHS.registerOptions)
  const response = await startRegistration({ optionsJSON })
  return apiJson('POST', WEBAUTHN_PATHS.registerVerify, { response, ...(name ? { name } : {}) })
}

/** Answers sign-in options (discoverable, or a password sign-in's second step) with a key. */
export async function answerWithSecurityKey(optionsJSON: PublicKeyCredentialRequestOptionsJSON): Promise<AuthResponse> {
  const response = await startAuthentication({ optionsJSON })
  return apiJson<AuthResponse>('POST', WEBAUTHN_PATHS.loginVerify, { response })
}

/**
 * The second step could not be completed in the browser (no key, cancelled, timed out): the server
 * is told, so it counts as the owner's failed attempt. Never holds up the person.
 */
export function reportAbandonedSecondFactor(optionsJSON: PublicKeyCredentialRequestOptionsJSON): void {
  void apiJson('POST', WEBAUTHN_PATHS.secondFactorAbandon, { challenge: optionsJSON.challenge }).catch(() => {})
}

/** Whether a failed key step ended in the browser (so the server has not heard of it). */
export function failedInBrowser(error: unknown): boolean {
  return !(error instanceof ApiRequestError)
}

/** Signs in with whichever of this site's keys the person presents: no e-mail needed. */
export async function signInWithSecurityKey(): Promise<AuthResponse> {
  const optionsJSON = await apiJson<PublicKeyCredentialRequestOptionsJSON>('POST', WEBAUTHN_PATHS.loginOptions)
  return answerWithSecurityKey(optionsJSON)
}

/** The browser said no: the person cancelled, timed out, or had no key for this site. */
function refusedByBrowser(error: unknown): boolean {
  if (error instanceof WebAuthnError) return error.code === 'ERROR_CEREMONY_ABORTED' || error.name === 'NotAllowedError'
  return error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')
}

function detailOf(error: unknown): string | undefined {
  if (error instanceof ApiRequestError) return error.detail
  if (error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return WEBAUTHN_MESSAGES.alreadyRegistered
  if (refusedByBrowser(error)) return WEBAUTHN_MESSAGES.cancelled
  return error instanceof Error ? error.message : undefined
}

export interface KeyToast {
  title: string
  description?: string
}

/** The spec's toast for a failed security-key sign-in (seeds 000 §8). */
export function signInFailureToast(error: unknown, step: 'key_alone' | 'second_factor' = 'key_alone'): KeyToast {
  const unknownKey = error instanceof ApiRequestError && error.detail === WEBAUTHN_MESSAGES.unknownCredential
  // After a right password, "use password login" would be no help: say what happened instead.
  if (step === 'key_alone' && (unknownKey || refusedByBrowser(error))) return { title: WEBAUTHN_MESSAGES.noKeys, description: WEBAUTHN_MESSAGES.noKeysBody }
  return { title: WEBAUTHN_MESSAGES.authFailed, description: detailOf(error) }
}

/** The spec's toast for a failed key registration. */
export function setupFailureToast(error: unknown): KeyToast {
  return { title: WEBAUTHN_MESSAGES.setupFailed, description: detailOf(error) }
}
