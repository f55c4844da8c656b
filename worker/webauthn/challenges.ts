import { and, eq, inArray, lt } from 'drizzle-orm'
import { SECURITY_KEY } from '../../contract/webauthn'
import type { Db } from '../db/client'
import { webauthnChallenges } from '../db/schema'
import { toBase64Url } from '../lib/crypto'

export type ChallengePurpose = (typeof webauthnChallenges.$inferSelect)['purpose']

/** A fresh random challenge (base64url), stored until it is used once or expires. */
export async function issueChallenge(db: Db, purpose: ChallengePurpose, userId: string | null, now = Date.now()): Promise<string> {
  const challenge = toBase64Url(crypto.getRandomValues(new Uint8Array(SECURITY_KEY.challengeBytes)))
  await db.insert(webauthnChallenges).values({ challenge, purpose, userId, createdAt: now, expiresAt: now + SECURITY_KEY.challengeTtlMs })
  return challenge
}

/**
 * Takes a challenge for one verification: deleted whatever the outcome, so a second use of the
 * same signed answer finds nothing. Undefined when it is unknown, used, expired or for another
 * purpose (which leaves it in place).
 */
export async function takeChallenge(db: Db, challenge: string, purposes: readonly ChallengePurpose[], now = Date.now()) {
  // Only a challenge of the expected purpose is taken: an answer sent to the wrong ceremony
  // leaves the right one able to use it.
  const [row] = await db
    .delete(webauthnChallenges)
    .where(and(eq(webauthnChallenges.challenge, challenge), inArray(webauthnChallenges.purpose, [...purposes])))
    .returning()
  if (!row || row.expiresAt <= now) return undefined
  return row
}

export async function sweepChallenges(db: Db, now = Date.now()): Promise<number> {
  const gone = await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now)).returning({ c: webauthnChallenges.challenge })
  return gone.length
}
