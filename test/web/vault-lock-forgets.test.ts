import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { closesViewers, forgetMetadataOnLock, itemMetadataKeyRoot } from '@/features/vault/items/decrypt-items'

/** A vault session's lock state and its listeners, as vault-session.ts tells them. */
function fakeSession() {
  const listeners = new Set<() => void>()
  let unlocked = true
  return {
    subscribe: (listener: () => void) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    isUnlocked: () => unlocked,
    set(next: boolean) {
      unlocked = next
      for (const listener of listeners) listener()
    },
  }
}

describe('decrypted metadata', () => {
  it('file names and tags are dropped from memory as soon as the vault locks, and kept while it stays unlocked', () => {
    const queryClient = new QueryClient()
    const session = fakeSession()
    const stop = forgetMetadataOnLock(queryClient, session)
    const key = [...itemMetadataKeyRoot, 'item-1', 'wrap']
    queryClient.setQueryData(key, { filename: 'will.pdf', tags: ['family'] })
    queryClient.setQueryData(['vault-items'], [{ id: 'item-1' }])
    session.set(true)
    expect(queryClient.getQueryData(key)).toEqual({ filename: 'will.pdf', tags: ['family'] })
    session.set(false)
    expect(queryClient.getQueryData(key)).toBeUndefined()
    // Only the decrypted metadata: the ciphertext list stays.
    expect(queryClient.getQueryData(['vault-items'])).toEqual([{ id: 'item-1' }])
    stop()
  })
})

describe('decrypted content on screen', () => {
  it('an open password entry or picture preview is closed when the vault locks, and kept while it is unlocked', () => {
    expect(closesViewers(false)).toBe(true)
    expect(closesViewers(true)).toBe(false)
  })
})
