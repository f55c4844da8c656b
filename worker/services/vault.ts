import { and, eq } from 'drizzle-orm'
import type { VaultSetupBody } from '../../contract/vault'
import type { Db } from '../db/client'
import { users, type UserRow } from '../db/schema'

/**
 * Records the vault's salt and passphrase check, once. A second setup would orphan every key
 * wrapped under the first passphrase, so it is refused (the caller answers 409).
 */
export async function setUpVault(db: Db, ownerId: string, body: VaultSetupBody, now = Date.now()): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({ vaultSetup: true, vaultSalt: body.vaultSalt, vaultCheck: body.passphraseCheck, updatedAt: now })
    .where(and(eq(users.id, ownerId), eq(users.vaultSetup, false)))
    .returning()
  return row ?? null
}
