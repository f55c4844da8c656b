import { runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { cipherSize, type UploadCompleteBody } from '../../contract/vault-items'
import { getDb } from '../../worker/db/client'
import { users } from '../../worker/db/schema'
import { accountOf } from '../../worker/owner/account'
import type { Outcome } from '../../worker/owner/outcome'
import type { OwnerVault } from '../../worker/host/vault-object'
import { vaultOf } from './owner-helpers'
import {
  blobDeletionKeys,
  blobOf,
  completeBody,
  completeRaw,
  content,
  counters,
  grantRows,
  itemKey,
  itemRow,
  ownerWithBeneficiary,
  putAllParts,
  sameBytes,
  startUpload,
  withManifestSignature,
} from './vault-helpers'

// Two completions of the same upload (a client retrying after a timeout, two tabs). Over HTTP the
// interleaving is up to the runtime, so these tests replay the harmful one deterministically: the
// loser is the owner object's completeUpload() that has read the upload row and its parts, and
// while it waits on R2's complete() the winner completes the same upload over HTTP (a hook in the
// object's R2 binding), entering the same object in between.

/** An owner with a fully uploaded one-part file and the upload row as both requests read it. */
async function raceSetup() {
  const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
  const session = await startUpload(token, 100)
  const [part] = await putAllParts(token, session, 100)
  const account = accountOf((await getDb(env).query.users.findFirst({ where: eq(users.id, ownerId) }))!)
  const body = (await withManifestSignature(token, session.itemId, completeBody([beneficiary.id]))) as UploadCompleteBody
  const winner = async () => {
    const res = await completeRaw(token, session.itemId, body)
    expect(res.status).toBe(201)
  }
  return { token, ownerId, session, part: part!, account, body, winner }
}

/** The winner's item must be whole: active, counted once, granted once, its bytes in R2. */
async function expectWinnerIntact(s: Awaited<ReturnType<typeof raceSetup>>) {
  expect(await itemRow(s.ownerId, s.session.itemId)).toMatchObject({ status: 'active' })
  expect(await counters(s.token)).toEqual({ storageUsed: cipherSize(100), vaultItemCount: 1 })
  expect(await grantRows(s.ownerId, s.session.itemId)).toHaveLength(1)
  expect(await blobOf(s.ownerId, s.session.itemId)).not.toBeNull()
  expect(await blobDeletionKeys(s.ownerId)).not.toContain(itemKey(s.ownerId, s.session.itemId))
  const res = await content(s.token, s.session.itemId)
  expect(res.status).toBe(200)
  expect(sameBytes(new Uint8Array(await res.arrayBuffer()), s.part)).toBe(true)
}

/**
 * The R2 binding as the loser sees it: the winner runs just before the loser's complete() reaches
 * R2. With `retrySafe`, completing an already completed upload answers the object again, as S3's
 * CompleteMultipartUpload does; without it, as local R2 does ("upload does not exist").
 */
function racingBlobs(winner: () => Promise<void>, retrySafe: boolean): R2Bucket {
  const real = env.BLOBS
  let raced = false
  return {
    head: (key: string) => real.head(key),
    get: (key: string) => real.get(key),
    delete: (keys: string | string[]) => real.delete(keys),
    resumeMultipartUpload(key: string, uploadId: string) {
      const upload = real.resumeMultipartUpload(key, uploadId)
      return {
        key,
        uploadId,
        uploadPart: (n: number, value: ArrayBuffer) => upload.uploadPart(n, value),
        abort: () => upload.abort(),
        async complete(parts: R2UploadedPart[]) {
          // Only the loser's complete is raced; the winner's own (in the same object) goes through.
          if (raced) return upload.complete(parts)
          raced = true
          await winner()
          try {
            return await upload.complete(parts)
          } catch (error) {
            const existing = retrySafe ? await real.head(key) : null
            if (existing) return existing
            throw error
          }
        },
      }
    },
  } as unknown as R2Bucket
}

/** The loser's completion, inside the owner's object with the racing R2 binding: its outcome. */
async function loser(s: Awaited<ReturnType<typeof raceSetup>>, retrySafe: boolean): Promise<Outcome<unknown>> {
  return runInDurableObject(vaultOf(s.ownerId), async (instance: OwnerVault) => {
    const object = instance as unknown as { env: Env }
    const real = object.env
    object.env = { ...real, BLOBS: racingBlobs(s.winner, retrySafe) }
    try {
      return await instance.items().completeUpload(s.account, s.session.itemId, s.body)
    } finally {
      object.env = real
    }
  })
}

describe('a completion that lost the race to another completion of the same upload', () => {
  it('fails and leaves the winner intact (local R2: the repeated R2 complete throws)', async () => {
    const s = await raceSetup()
    expect((await loser(s, false)).ok).toBe(false)
    await expectWinnerIntact(s)
  })

  // A retried or concurrent completion that loses must get 404 uploadNotFound, not a 500.
  it('answers 404 (or 409), not an internal error', async () => {
    const s = await raceSetup()
    const outcome = await loser(s, false)
    expect(outcome.ok).toBe(false)
    expect([404, 409]).toContain((outcome as { status: number }).status)
  })

  // If R2 answers a repeated complete with the object (as S3 does), the loser must not delete
  // the winner's object nor claim a storage limit (local R2 throws first: the test above).
  it('does not delete the winner’s object when R2 answers a repeated complete (S3 semantics)', async () => {
    const s = await raceSetup()
    const outcome = await loser(s, true)
    expect(outcome).toMatchObject({ ok: false, status: 404 })
    await expectWinnerIntact(s)
  })
})
