import { jwtVerify, SignJWT } from 'jose'
import { AUTHENTICATOR } from '../../contract/authenticator-constants'

// The pending sign-in between a right password and the authenticator app's code: an HS256 JWT
// bound to its purpose (its audience), naming the account, valid for five minutes. It proves the
// password only; a session needs the code as well. Many wrong codes on one ticket are held by the
// per-account sign-in guard, as wrong passwords are.

const AUDIENCE = 'legacy-vault:second-factor'
const ISSUER = 'legacy-vault'
const key = (env: Pick<Env, 'JWT_SECRET'>) => new TextEncoder().encode(env.JWT_SECRET)

export async function issueSignInTicket(env: Pick<Env, 'JWT_SECRET'>, userId: string, now = Date.now()): Promise<string> {
  const iat = Math.floor(now / 1000)
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + AUTHENTICATOR.ticketTtlSeconds)
    .sign(key(env))
}

/** The account a genuine, unexpired ticket names; undefined otherwise. */
export async function readSignInTicket(env: Pick<Env, 'JWT_SECRET'>, ticket: string, now = Date.now()): Promise<string | undefined> {
  try {
    const { payload } = await jwtVerify(ticket, key(env), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
      currentDate: new Date(now),
      requiredClaims: ['sub', 'exp'],
    })
    return typeof payload.sub === 'string' && payload.sub.length > 0 ? payload.sub : undefined
  } catch {
    return undefined
  }
}
