import { describe, expect, it } from 'vitest'
import {
  createPassphraseCheck,
  deriveMasterKey,
  derivePassphraseKey,
  generateDataKey,
  generateSigningKeyPair,
  generateVaultKey,
  generateVaultSalt,
  unwrapDataKey,
  wrapDataKey,
  wrapSigningKey,
  wrapVaultKey,
  type MasterKey,
} from '@/crypto'
import type { KeyMoveState } from '../../contract/vault-key-move'
import { moveToVaultKey, type KeyMoveApi } from '@/features/vault/key-move'
import { createVaultSession, type StoredVault } from '@/features/vault/vault-session'

// The browser's half of an older vault's move (the server's is test/worker/vault-key-move.test.ts):
// against an in-memory stand-in for the routes, with real wraps.

const PASSPHRASE = 'an older vault passphrase'
const PAGE = 2

async function rawOf(key: CryptoKey): Promise<string> {
  return btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.exportKey('raw', key))))
}

/** A vault of format 1 with `n` items and one policy, and a stand-in server that moves it as the routes do. */
async function formatOneVault(n: number) {
  const salt = generateVaultSalt()
  const master = await deriveMasterKey(PASSPHRASE, salt)
  const pair = await generateSigningKeyPair()
  const wraps = new Map<string, { kind: 'item' | 'policy'; wrappedKey: string; raw: string }>()
  for (let i = 0; i < n + 1; i++) {
    const dek = await generateDataKey()
    wraps.set(`ref-${i}`, { kind: i === n ? 'policy' : 'item', wrappedKey: await wrapDataKey(dek, master), raw: await rawOf(dek) })
  }
  const server = {
    vault: { ownerId: 'owner-1', salt, check: await createPassphraseCheck(master), signingKey: { publicKey: pair.publicKey, wrapped: await wrapSigningKey(pair.privateKey, master) }, vaultKey: null } as StoredVault,
    move: null as { wrappedVaultKey: string; wrappedSigningKey: string } | null,
    staged: new Map<string, string>(),
    failStageAfter: Infinity,
    stageCalls: 0,
  }
  const state = (): KeyMoveState => {
    const missing = [...wraps].filter(([id]) => !server.staged.has(id))
    return { ...server.move!, missing: missing.slice(0, PAGE).map(([id, w]) => ({ kind: w.kind, id, wrappedKey: w.wrappedKey })), remaining: missing.length }
  }
  const api: KeyMoveApi = {
    async start(body) {
      server.move ??= body
      return state()
    },
    async stage(body) {
      if (++server.stageCalls > server.failStageAfter) throw new Error('network gone')
      for (const w of body.wraps) server.staged.set(w.id, w.wrappedKey)
      return state()
    },
    async commit() {
      if (state().remaining > 0) return 'incomplete'
      for (const [id, wrappedKey] of server.staged) wraps.get(id)!.wrappedKey = wrappedKey
      server.vault = { ...server.vault, vaultKey: server.move!.wrappedVaultKey, signingKey: { ...server.vault.signingKey!, wrapped: server.move!.wrappedSigningKey } }
      server.move = null
      server.staged.clear()
      return 'done'
    },
  }
  const opensAll = async (key: MasterKey) => {
    for (const w of wraps.values()) expect(await rawOf(await unwrapDataKey(w.wrappedKey, key))).toBe(w.raw)
  }
  return { server, api, wraps, opensAll, master }
}

const unlockWith = (api: KeyMoveApi) => (pk: Parameters<typeof moveToVaultKey>[1], master: MasterKey, signingWrap: string) => moveToVaultKey(api, pk, master, signingWrap)
const noSigningKey = async () => {
  throw new Error('not expected')
}

describe('an older vault moves to a vault key at its unlock', () => {
  it('interrupted, it opens with the old wraps in force; the next unlock resumes under the same vault key and every item opens under it', async () => {
    const { server, api, opensAll } = await formatOneVault(5)
    server.failStageAfter = 1
    const first = createVaultSession({ storage: null, broadcast: false })
    expect(await first.unlock(PASSPHRASE, server.vault, noSigningKey, unlockWith(api))).toBe(true)
    expect(server.vault.vaultKey).toBeNull()
    expect(server.staged.size).toBe(PAGE)
    await opensAll(first.requireKey())
    // Still on the old key: its uploads say format 1, so a server already moved refuses them.
    expect(first.vaultFormat()).toBe(1)
    const startedWith = server.move!.wrappedVaultKey

    server.failStageAfter = Infinity
    const second = createVaultSession({ storage: null, broadcast: false })
    expect(await second.unlock(PASSPHRASE, server.vault, noSigningKey, unlockWith(api))).toBe(true)
    expect(server.vault.vaultKey).toBe(startedWith)
    await opensAll(second.requireKey())
    expect(second.vaultFormat()).toBe(2)
    expect(second.hasSigningProblem()).toBe(false)

    // Moved: the next unlock reads format 2.
    const third = createVaultSession({ storage: null, broadcast: false })
    expect(await third.unlock('not it', server.vault, noSigningKey)).toBe(false)
    expect(await third.unlock(PASSPHRASE, server.vault, noSigningKey)).toBe(true)
    await opensAll(third.requireKey())
    expect(third.hasSigningProblem()).toBe(false)
  })

  it('stages an item uploaded during the move and commits again', async () => {
    const { server, api, wraps, opensAll, master } = await formatOneVault(3)
    const realStage = api.stage
    let added = false
    api.stage = async (body) => {
      const answer = await realStage(body)
      if (!added && answer.remaining === 0) {
        added = true
        const dek = await generateDataKey()
        wraps.set('late', { kind: 'item', wrappedKey: await wrapDataKey(dek, master), raw: await rawOf(dek) })
      }
      return answer
    }
    const session = createVaultSession({ storage: null, broadcast: false })
    expect(await session.unlock(PASSPHRASE, server.vault, noSigningKey, unlockWith(api))).toBe(true)
    expect(server.vault.vaultKey).not.toBeNull()
    await opensAll(session.requireKey())
  })

  it('refuses a move under way whose vault key this passphrase does not open: nothing staged, the old key kept', async () => {
    const { server, api, opensAll } = await formatOneVault(2)
    const theirs = await wrapVaultKey(await generateVaultKey(), await derivePassphraseKey('someone else', server.vault.salt))
    server.move = { wrappedVaultKey: theirs, wrappedSigningKey: server.vault.signingKey!.wrapped }
    const session = createVaultSession({ storage: null, broadcast: false })
    expect(await session.unlock(PASSPHRASE, server.vault, noSigningKey, unlockWith(api))).toBe(true)
    expect(server.staged.size).toBe(0)
    expect(server.vault.vaultKey).toBeNull()
    await opensAll(session.requireKey())
  })
})
