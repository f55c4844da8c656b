import { errors, jwtVerify } from 'jose'
import { RELEASE_LIMITS } from '../../contract/releases'
import { hmacSha256Base64Url } from './sync-crypto'

/**
 * Signed links for people without an account (beneficiaries, approvers) and for the owner's
 * one-click e-mails. Each token is bound to one purpose (its audience), one subject (the person's
 * row id, or what the act names), the owner whose vault it acts on (`oid`: the link reaches that
 * owner's object with no lookup across owners), expires, and, where the act is one-off, carries a
 * nonce that the row must still hold: rotating the nonce voids older links, clearing it makes the
 * link single-use.
 */
export const LINK_PURPOSES = {
  beneficiaryVerify: { audience: 'legacy-vault:link:beneficiary-verify', ttlSeconds: 7 * 24 * 3600 },
  approverVerify: { audience: 'legacy-vault:link:approver-verify', ttlSeconds: 7 * 24 * 3600 },
  beneficiaryNotifications: { audience: 'legacy-vault:link:beneficiary-notifications', ttlSeconds: 365 * 24 * 3600 },
  // Subject "documentId:approverId": each approver reviews through a link of their own.
  identityReview: { audience: 'legacy-vault:link:identity-review', ttlSeconds: 30 * 24 * 3600 },
  // Subject: owner id. "I'm still here" from a check-in e-mail.
  checkIn: { audience: 'legacy-vault:link:check-in', ttlSeconds: 30 * 24 * 3600 },
  // Subject: owner id; nonce: the time (ms) of the sign-in that made the change. "This wasn't me"
  // signs out everywhere and removes what was added since then.
  notMe: { audience: 'legacy-vault:link:not-me', ttlSeconds: 30 * 24 * 3600 },
  // Subject: firing id. Cancels that firing's waiting releases without signing in.
  releaseCancel: { audience: 'legacy-vault:link:release-cancel', ttlSeconds: 60 * 24 * 3600 },
  // Subject "releaseId:email": each approver signs off through a link of their own.
  releaseApproval: { audience: 'legacy-vault:link:release-approval', ttlSeconds: 60 * 24 * 3600 },
  // Subject: approver id. Standing link to confirm the owner's death; long-lived by nature.
  deathReport: { audience: 'legacy-vault:link:death-report', ttlSeconds: 5 * 365 * 24 * 3600 },
  // Subject: owner id; nonce: addressNonce of the address it was sent to. The owner confirms their own address.
  ownerEmailConfirm: { audience: 'legacy-vault:link:owner-email-confirm', ttlSeconds: 7 * 24 * 3600 },
  // Subject: owner id; nonce: addressNonce of the backup address it was sent to. The owner confirms it, signed in.
  backupEmailVerify: { audience: 'legacy-vault:link:backup-email-verify', ttlSeconds: 7 * 24 * 3600 },
  // Subject: access request id. The owner refuses a request without signing in (it holds things back).
  accessRefuse: { audience: 'legacy-vault:link:access-refuse', ttlSeconds: 60 * 24 * 3600 },
  // Subject: approver id. An approver asks for access to a policy that lets approvers ask.
  accessRequest: { audience: 'legacy-vault:link:access-request', ttlSeconds: 30 * 24 * 3600 },
  // Subject "requestId:key" (key: an approver's address, or 'owner'): each person asked answers an
  // heir's request for more downloads and time through a link of their own.
  renewalDecision: { audience: 'legacy-vault:link:renewal-decision', ttlSeconds: 30 * 24 * 3600 },
  // Subject: beneficiary id. The portal of released assets.
  beneficiaryAccess: { audience: 'legacy-vault:link:beneficiary-access', ttlSeconds: 365 * 24 * 3600 },
  // Subject "assetId:beneficiaryId": fetches the ciphertext of one counted download.
  assetContent: { audience: 'legacy-vault:link:asset-content', ttlSeconds: RELEASE_LIMITS.contentTicketMinutes * 60 },
} as const
export type LinkPurpose = keyof typeof LINK_PURPOSES

/**
 * A link's nonce for the address it was sent to: the same for the same address, so the link
 * confirms only that one, and a keyed digest, so the token (readable base64) never shows the
 * address to whoever sees the link (a forwarded mail, a proxy's log, a browser's history).
 */
export function addressNonce(env: Pick<Env, 'JWT_SECRET'>, address: string): string {
  return hmacSha256Base64Url(env.JWT_SECRET, `link-address:${address}`)
}

const ISSUER = 'legacy-vault'
const HEADER = base64UrlJson({ alg: 'HS256' })

function base64UrlJson(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value))
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/**
 * An HS256 JWT, signed synchronously so that the owner object can put links into e-mails inside
 * the transaction of the act that sends them. Verified by jose (`verifyLinkToken`).
 */
export function signLinkToken(
  env: Pick<Env, 'JWT_SECRET'>,
  purpose: LinkPurpose,
  subject: string,
  claims: { owner: string; nonce?: string },
  now = Date.now(),
): string {
  const { audience, ttlSeconds } = LINK_PURPOSES[purpose]
  const iat = Math.floor(now / 1000)
  const payload = base64UrlJson({
    oid: claims.owner,
    ...(claims.nonce ? { nonce: claims.nonce } : {}),
    iss: ISSUER,
    aud: audience,
    sub: subject,
    iat,
    exp: iat + ttlSeconds,
  })
  return `${HEADER}.${payload}.${hmacSha256Base64Url(env.JWT_SECRET, `${HEADER}.${payload}`)}`
}

export type LinkTokenResult =
  | { ok: true; subject: string; owner: string; nonce: string | undefined }
  | { ok: false; reason: 'invalid' | 'expired' }

export async function verifyLinkToken(
  env: Pick<Env, 'JWT_SECRET'>,
  purpose: LinkPurpose,
  token: string,
  now = Date.now(),
): Promise<LinkTokenResult> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(env.JWT_SECRET), {
      issuer: ISSUER,
      audience: LINK_PURPOSES[purpose].audience,
      algorithms: ['HS256'],
      currentDate: new Date(now),
    })
    if (!payload.sub || typeof payload.oid !== 'string' || !payload.oid) return { ok: false, reason: 'invalid' }
    return { ok: true, subject: payload.sub, owner: payload.oid, nonce: typeof payload.nonce === 'string' ? payload.nonce : undefined }
  } catch (error) {
    return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' }
  }
}
