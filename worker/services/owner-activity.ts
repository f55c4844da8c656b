import type { OwnerActivity } from '../owner-guard'

export function ownerGuard(env: Pick<Env, 'OWNER_GUARD'>, userId: string) {
  return env.OWNER_GUARD.get(env.OWNER_GUARD.idFromName(userId))
}

/** Tells the owner's Durable Object that the owner showed a sign of life. */
export async function recordOwnerActivity(env: Pick<Env, 'OWNER_GUARD'>, userId: string, kind: OwnerActivity): Promise<void> {
  try {
    await ownerGuard(env, userId).recordActivity(kind, Date.now(), userId)
  } catch (error) {
    // A lost report must not fail the sign-in that caused it; it is logged for the operator.
    console.error(`owner ${userId}: recording ${kind} failed`, error)
  }
}
