import { z } from 'zod'
import { wrappedSigningKeySchema } from './key-signing'
import { wrappedVaultKeySchema } from './vault'

// A vault of format 1 (the passphrase's key wraps every data key) moves to format 2 at its next
// unlock: the browser re-wraps each item's and policy's data key under a new vault key and stages
// the wraps in pages; one commit swaps them all. Until then the old wraps stay in force.

/** Wraps per page: a page is one small transaction of the owner's object. */
export const KEY_MOVE_PAGE_MAX = 500
/** A move left this long is swept, its staged wraps with it (like a key rotation). */
export const KEY_MOVE_TTL_MS = 24 * 60 * 60 * 1000

const base64 = /^[A-Za-z0-9+/]+={0,2}$/

/** A data key wrapped by the vault key (web/crypto/data-key.ts): 61 bytes, 84 base64 characters. */
const wrappedDataKeySchema = z
  .string({ error: 'wrappedKey is required' })
  .regex(base64, 'wrappedKey must be base64')
  .length(84, 'wrappedKey must be a wrapped 256-bit key')

export const keyMoveStartBodySchema = z.object({
  wrappedVaultKey: wrappedVaultKeySchema,
  wrappedSigningKey: wrappedSigningKeySchema,
})
export type KeyMoveStartBody = z.infer<typeof keyMoveStartBodySchema>

export const keyMoveWrapSchema = z.object({
  kind: z.enum(['item', 'policy'], { error: 'kind must be item or policy' }),
  id: z.string({ error: 'id is required' }).min(1, 'id is required').max(64, 'id is too long'),
  wrappedKey: wrappedDataKeySchema,
})
export type KeyMoveWrap = z.infer<typeof keyMoveWrapSchema>

export const keyMovePageBodySchema = z.object({
  wraps: z
    .array(keyMoveWrapSchema, { error: 'wraps must be a list' })
    .min(1, 'wraps must not be empty')
    .max(KEY_MOVE_PAGE_MAX, `wraps may hold at most ${KEY_MOVE_PAGE_MAX} keys`),
})
export type KeyMovePageBody = z.infer<typeof keyMovePageBodySchema>

/**
 * The move as it stands: its vault key and signing key wraps (a resumed move reuses them, so no
 * two vault keys are ever mixed), and the next wraps still to stage with their current (old) wrap.
 */
export const keyMoveStateSchema = z.object({
  wrappedVaultKey: z.string(),
  wrappedSigningKey: z.string(),
  missing: z.array(z.object({ kind: z.enum(['item', 'policy']), id: z.string(), wrappedKey: z.string() })),
  remaining: z.number().int(),
})
export type KeyMoveState = z.infer<typeof keyMoveStateSchema>

export const KEY_MOVE_MESSAGES = {
  alreadyMoved: 'Your vault already uses a vault key.',
  noMove: 'No vault update is in progress. Unlock your vault again to start it.',
  incomplete: 'Some items of your vault were not updated yet. Unlock your vault again to finish.',
  notSetUp: 'Your vault is not set up yet.',
  moved: 'Vault updated.',
  uploadedDuringMove: 'Your vault was updated while this item was uploading. Please add it again.',
} as const
