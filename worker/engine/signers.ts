import { and, eq, isNull, sql } from 'drizzle-orm'
import { releases, releaseSignoffs } from '../owner/schema'
import type { Unit } from '../owner/unit'
import { advanceReleases } from './advance'

/**
 * An approver the owner removed no longer signs anything off: their undecided sign-offs on waiting
 * releases are withdrawn, so their approval links stop working. Each release then asks for no more
 * approvals than it has people left to ask (as when it was planned), and moves on if what it
 * already has is enough. Decisions already given stand. Runs in the removal's transaction.
 */
export function withdrawSigner(u: Unit, email: string, approverId: string): number {
  const address = email.toLowerCase()
  const withdrawn = u.db
    .delete(releaseSignoffs)
    .where(
      and(
        eq(releaseSignoffs.email, address),
        isNull(releaseSignoffs.decision),
        sql`${releaseSignoffs.releaseId} in (select id from releases where status = 'waiting')`,
      ),
    )
    .returning({ releaseId: releaseSignoffs.releaseId })
    .all()
  for (const { releaseId } of withdrawn) {
    const left = u.db.select({ n: sql<number>`count(*)` }).from(releaseSignoffs).where(eq(releaseSignoffs.releaseId, releaseId)).get()?.n ?? 0
    u.db
      .update(releases)
      .set({ requiredApprovals: sql`max(1, min(${releases.requiredApprovals}, ${left}))` })
      .where(eq(releases.id, releaseId))
      .run()
    u.audit({ actor: 'user', action: 'release.signer_withdrawn', details: { releaseId, approverId } })
    advanceReleases(u, { releaseId })
  }
  return withdrawn.length
}
