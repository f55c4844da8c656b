import type { PublicUser } from '../../../contract/auth'
import type { KeyMovePageBody, KeyMoveStartBody, KeyMoveState, KeyMoveWrap } from '../../../contract/vault-key-move'
import {
  generateVaultKey,
  rewrapSigningKey,
  unwrapDataKey,
  unwrapSigningKey,
  unwrapVaultKey,
  wrapDataKey,
  wrapVaultKey,
  type MasterKey,
  type PassphraseKey,
} from '@/crypto'
import { apiJson, ApiRequestError } from '@/lib/api-client'

// A vault of format 1 moves to a vault key at its next unlock (contract/vault-key-move.ts): every
// data key the passphrase's key wraps is re-wrapped under a new vault key, page by page, then one
// commit swaps them. Resumable: a move under way answers its own vault key (wrapped by the same
// passphrase), which is used instead of the new one, so wraps under two vault keys never mix.

export interface KeyMoveApi {
  start(body: KeyMoveStartBody): Promise<KeyMoveState>
  stage(body: KeyMovePageBody): Promise<KeyMoveState>
  /** Resolves when committed; 'incomplete' when something still lacks its wrap (uploaded meanwhile). */
  commit(): Promise<'done' | 'incomplete'>
}

/** Rounds of "stage what is missing, commit" before giving up until the next unlock. */
const COMMIT_ROUNDS = 3

/**
 * Moves the vault and returns its vault key (non-extractable). Throws when it cannot finish; the
 * old wraps then stay in force and the caller keeps the master key it has.
 * `master` is the format-1 key (the passphrase's PBKDF2 key) and `signingWrap` the stored signing key wrap.
 */
export async function moveToVaultKey(api: KeyMoveApi, passphraseKey: PassphraseKey, master: MasterKey, signingWrap: string): Promise<MasterKey> {
  const fresh = await generateVaultKey()
  const body = { wrappedVaultKey: await wrapVaultKey(fresh, passphraseKey), wrappedSigningKey: await rewrapSigningKey(signingWrap, master, fresh) }
  let state = await api.start(body)
  // A resumed move's key must open under this passphrase (else it is not this vault's: refused),
  // and its signing key wrap under that key.
  const vaultKey = await unwrapVaultKey(state.wrappedVaultKey, passphraseKey)
  await unwrapSigningKey(state.wrappedSigningKey, vaultKey)
  for (let round = 0; round < COMMIT_ROUNDS; round++) {
    while (state.missing.length > 0) {
      const wraps: KeyMoveWrap[] = await Promise.all(
        state.missing.map(async (m) => ({ kind: m.kind, id: m.id, wrappedKey: await wrapDataKey(await unwrapDataKey(m.wrappedKey, master), vaultKey) })),
      )
      const before = state.remaining
      state = await api.stage({ wraps })
      if (state.remaining >= before) throw new Error('The vault update made no progress')
    }
    if ((await api.commit()) === 'done') return vaultKey
    state = await api.start(body)
  }
  throw new Error('The vault kept changing during its update')
}

/** The routes, for the unlock dialog; `onUser` gets the account as it is after the commit. */
export function keyMoveApi(onUser: (user: PublicUser) => void): KeyMoveApi {
  return {
    start: (body) => apiJson<KeyMoveState>('POST', '/api/vault/key-move', body),
    stage: (body) => apiJson<KeyMoveState>('PUT', '/api/vault/key-move/pages', body),
    async commit() {
      try {
        onUser((await apiJson<{ user: PublicUser }>('POST', '/api/vault/key-move/commit')).user)
        return 'done'
      } catch (error) {
        if (error instanceof ApiRequestError && error.status === 409) return 'incomplete'
        throw error
      }
    },
  }
}
