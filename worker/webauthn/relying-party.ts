import { PRODUCT_NAME } from '../../contract/constants'

/**
 * The relying party is the app's own origin: WebAuthn binds every credential to its host name
 * (the RP ID), and each signed answer names the page's origin, which must be exactly ours.
 */
export interface RelyingParty {
  id: string
  name: string
  origin: string
}

export function relyingParty(env: Pick<Env, 'APP_ORIGIN'>): RelyingParty {
  const url = new URL(env.APP_ORIGIN)
  return { id: url.hostname, name: PRODUCT_NAME, origin: url.origin }
}
