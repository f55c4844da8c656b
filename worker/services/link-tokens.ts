import { errors, jwtVerify, SignJWT } from 'jose'

/**
 * Signed links for people without an account (beneficiaries, approvers). Each token is bound to
 * one purpose (its audience), one subject (the person's row id), expires, and, where the act is
 * one-off, carries a nonce that the row must still hold: rotating the nonce voids older links,
 * clearing it makes the link single-use.
 */
export const LINK_PURPOSES = {
  beneficiaryVerify: { audience: 'legacy-vault:link:beneficiary-verify', ttlSeconds: 7 * 24 * 3600 },
  approverVerify: { audience: 'legacy-vault:link:approver-verify', ttlSeconds: 7 * 24 * 3600 },
  beneficiaryNotifications: { audience: 'legacy-vault:link:beneficiary-notifications', ttlSeconds: 365 * 24 * 3600 },
  // Subject "documentId:approverId": each approver reviews through a link of their own.
  identityReview: { audience: 'legacy-vault:link:identity-review', ttlSeconds: 30 * 24 * 3600 },
  // Subject: owner id. "I'm still here" from a check-in e-mail.
  checkIn: { audience: 'legacy-vault:link:check-in', ttlSeconds: 30 * 24 * 3600 },
  // Subject: firing id. Cancels that firing's waiting releases without signing in.
  releaseCancel: { audience: 'legacy-vault:link:release-cancel', ttlSeconds: 60 * 24 * 3600 },
  // Subject "releaseId:email": each approver signs off through a link of their own.
  releaseApproval: { audience: 'legacy-vault:link:release-approval', ttlSeconds: 60 * 24 * 3600 },
  // Subject: approver id. Standing link to confirm the owner's death; long-lived by nature.
  deathReport: { audience: 'legacy-vault:link:death-report', ttlSeconds: 5 * 365 * 24 * 3600 },
  // Subject: beneficiary id. The portal of released assets.
  beneficiaryAccess: { audience: 'legacy-vault:link:beneficiary-access', ttlSeconds: 365 * 24 * 3600 },
  // Subject "assetId:beneficiaryId": fetches the ciphertext of one counted download.
  assetContent: { audience: 'legacy-vault:link:asset-content', ttlSeconds: 30 * 60 },
} as const
export type LinkPurpose = keyof typeof LINK_PURPOSES

const ISSUER = 'legacy-vault'

function key(env: Pick<Env, 'JWT_SECRET'>): Uint8Array {
  return new TextEncoder().encode(env.JWT_SECRET)
}

export async function signLinkToken(
  env: Pick<Env, 'JWT_SECRET'>,
  purpose: LinkPurpose,
  subject: string,
  nonce?: string,
  now = Date.now(),
): Promise<string> {
  const { audience, ttlSeconds } = LINK_PURPOSES[purpose]
  const issuedAt = Math.floor(now / 1000)
  return new SignJWT(nonce ? { nonce } : {})
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setAudience(audience)
    .setSubject(subject)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlSeconds)
    .sign(key(env))
}

export type LinkTokenResult =
  | { ok: true; subject: string; nonce: string | undefined }
  | { ok: false; reason: 'invalid' | 'expired' }

export async function verifyLinkToken(
  env: Pick<Env, 'JWT_SECRET'>,
  purpose: LinkPurpose,
  token: string,
  now = Date.now(),
): Promise<LinkTokenResult> {
  try {
    const { payload } = await jwtVerify(token, key(env), {
      issuer: ISSUER,
      audience: LINK_PURPOSES[purpose].audience,
      algorithms: ['HS256'],
      currentDate: new Date(now),
    })
    if (!payload.sub) return { ok: false, reason: 'invalid' }
    return { ok: true, subject: payload.sub, nonce: typeof payload.nonce === 'string' ? payload.nonce : undefined }
  } catch (error) {
    return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' }
  }
}
