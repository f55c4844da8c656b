import { describe, expect, it } from 'vitest'
import type { BeneficiaryPortalView, ReleasedAsset } from '../../contract/releases'
import type { Beneficiary } from '../../contract/circle'
import { addBeneficiary, call, register, rsaOaepPublicKey } from './helpers'
import { createTrigger, guard, manualReleaseOk, ownerWithItem, portalToken } from './engine-helpers'
import { ownerExec } from './owner-helpers'
import { signedRotation, vaultSigner, WELL_FORMED_SIGNATURE } from './vault-signing'

// What the heir's portal is given to check items with before it decrypts them (0.3 · 3 of 7): each
// released item's manifest and signature as the owner object stores them, and the owner's vault
// signing key. The checks themselves run in the heir's browser (web/features/releases/seals.ts).

async function released() {
  const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
  const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
  await manualReleaseOk(s.token, trigger.id)
  const token = encodeURIComponent(await portalToken(s.beneficiary.email))
  const get = async <T,>(path: string) => {
    const res = await call(`/api/beneficiaries/${s.beneficiary.id}${path}?token=${token}`)
    expect(res.status).toBe(200)
    return (await res.json()) as T
  }
  return { ...s, assets: () => get<ReleasedAsset[]>('/assets'), portal: () => get<BeneficiaryPortalView>('/portal') }
}

const manifestOf = (ownerId: string, itemId: string) => `legacy-vault:item-manifest:v1\nowner ${ownerId}\nitem ${itemId}\ntype doc`

describe('what the heir portal receives', () => {
  it("carries each item's manifest and signature verbatim, null until sealed, and the owner's vault signing key", async () => {
    const s = await released()
    const signer = await vaultSigner(s.token)
    expect((await s.portal()).vaultSigningKey).toBe(signer.publicKey)

    await ownerExec(s.ownerId, ['update vault_items set manifest = null, manifest_signature = null where id = ?', s.item.id])
    expect((await s.assets())[0]!.vaultItem).toMatchObject({ id: s.item.id, manifest: null, manifestSignature: null })

    const manifest = manifestOf(s.ownerId, s.item.id)
    await ownerExec(s.ownerId, ['update vault_items set manifest = ?, manifest_signature = ? where id = ?', manifest, WELL_FORMED_SIGNATURE, s.item.id])
    expect((await s.assets())[0]!.vaultItem).toMatchObject({ id: s.item.id, manifest, manifestSignature: WELL_FORMED_SIGNATURE })

    // A signature without its manifest vouches for nothing: it is not handed out alone.
    await ownerExec(s.ownerId, ['update vault_items set manifest = null where id = ?', s.item.id])
    expect((await s.assets())[0]!.vaultItem).toMatchObject({ manifest: null, manifestSignature: null })
  })

  it("another owner's heir sees that owner's key and manifests, never the first owner's", async () => {
    const [a, b] = await Promise.all([released(), released()])
    await ownerExec(a.ownerId, ['update vault_items set manifest = ?, manifest_signature = ? where id = ?', manifestOf(a.ownerId, a.item.id), WELL_FORMED_SIGNATURE, a.item.id])
    await ownerExec(b.ownerId, ['update vault_items set manifest = null, manifest_signature = null where id = ?', b.item.id])
    const [keyA, keyB] = await Promise.all([vaultSigner(a.token), vaultSigner(b.token)])
    expect(keyA.publicKey).not.toBe(keyB.publicKey)
    expect((await b.portal()).vaultSigningKey).toBe(keyB.publicKey)
    const seen = await b.assets()
    expect(seen.map((x) => x.vaultItem.id)).toEqual([b.item.id])
    expect(seen[0]!.vaultItem).toMatchObject({ manifest: null, manifestSignature: null })
    expect(JSON.stringify(seen)).not.toContain(a.ownerId)
  })

  it('a vault without a signing key (made before them) shows none to the heir', async () => {
    const s = await released()
    await guard(s.ownerId).dev().devMakeLegacy()
    expect((await s.portal()).vaultSigningKey).toBeNull()
  })
})

describe("whether a beneficiary's kit shows the vault's fingerprint", () => {
  it('is so for a kit made from now on, when the person is added or given a new key', async () => {
    const owner = await register()
    const added = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    expect(added.kitHasVaultFingerprint).toBe(true)

    // As for someone added before kits carried it, until their key is replaced.
    await ownerExec(owner.user.id, ['update beneficiaries set kit_has_vault_fingerprint = 0 where id = ?', added.id])
    const listed = (await (await call('/api/beneficiaries', { token: owner.token })).json()) as Beneficiary[]
    expect(listed.find((b) => b.id === added.id)!.kitHasVaultFingerprint).toBe(false)
    const body = await signedRotation(owner.token, added.id, { publicKey: await rsaOaepPublicKey(), grants: [] })
    const rotated = await call(`/api/beneficiaries/${added.id}/rotate-key`, { token: owner.token, body })
    expect(rotated.status).toBe(200)
    expect(((await rotated.json()) as Beneficiary).kitHasVaultFingerprint).toBe(true)
  })
})
