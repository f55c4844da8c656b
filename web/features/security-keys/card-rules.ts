import type { PublicUser } from '../../../contract/auth'
import { SECURITY_KEY } from '../../../contract/webauthn'

/** Add Security Key is offered until the owner has as many keys as the server keeps. */
export function canAddKey(count: number): boolean {
  return count < SECURITY_KEY.maxPerOwner
}

/** Two-factor sign-in can be switched on only with a security key registered; once on, it can always be switched off. */
export function twoFactorSwitchable(user: Pick<PublicUser, 'twoFactorEnabled' | 'securityKeyCount'>): boolean {
  return user.twoFactorEnabled || user.securityKeyCount > 0
}
