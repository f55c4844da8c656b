import { beforeAll, describe, expect, it } from 'vitest'
import type { Policy, PolicySelectors } from '../../contract/policies'
import type { ItemMetadata } from '../../contract/vault-items'
import {
  decryptMetadata,
  deriveMasterKey,
  generateBeneficiaryKeyPair,
  generateVaultSalt,
  importBeneficiaryPrivateKey,
  unwrapDataKeyForBeneficiary,
  type MasterKey,
} from '@/crypto'
import { encryptSelectors } from '@/features/policies/selectors'
import { policyCoverage, readActivePolicies, recipientsFor, type ReadablePolicy } from '@/features/vault/upload/policy-recipients'
import { UPLOAD_FORM_DEFAULTS, uploadFormSchema } from '@/features/vault/upload/upload-form'
import { uploadFile } from '@/features/vault/upload/upload-file'
import { FakeVaultApi, testVault } from './vault-items-fake-api'

// At upload time an item also goes to the beneficiaries of every active policy that covers it.

const ADA = '11111111-1111-4111-8111-111111111111'
const BEN = '22222222-2222-4222-8222-222222222222'
const CY = '33333333-3333-4333-8333-333333333333'

let master: MasterKey
let otherMaster: MasterKey
const keys = new Map<string, { publicKey: string; privateKey: string }>()
beforeAll(async () => {
  master = await deriveMasterKey('correct horse battery staple 9!', generateVaultSalt())
  otherMaster = await deriveMasterKey('someone else entirely', generateVaultSalt())
  for (const id of [ADA, BEN, CY]) {
    const pair = await generateBeneficiaryKeyPair()
    keys.set(id, { publicKey: pair.publicKeySpki, privateKey: pair.privateKeyPkcs8 })
  }
})

const known = () => [ADA, BEN, CY].map((id) => ({ id, publicKey: keys.get(id)!.publicKey, keyVersion: 1 }))
const only = (...ids: string[]) => known().filter((b) => ids.includes(b.id))

let n = 0
async function policy(
  selectors: PolicySelectors,
  beneficiaryIds: string[],
  status: Policy['status'] = 'active',
  key: MasterKey = master,
): Promise<Policy> {
  n++
  return {
    id: `44444444-4444-4444-8444-${String(n).padStart(12, '0')}`,
    name: `Policy ${n}`,
    description: 'A policy for the tests',
    status,
    ruleJson: {
      assign: beneficiaryIds.map((beneficiaryId) => ({ beneficiaryId, access: 'read' as const })),
      release: { on: ['inactivity'], delayHours: 72, requiresApprover: false },
    },
    ...(await encryptSelectors(selectors, key)),
    requiresApprover: false,
    approverContact: null,
    accessRequest: null,
    requiresIdentityVerification: false,
    identityVerificationApprovers: [],
    requiredDocumentTypes: [],
    minimumApprovals: 1,
    createdAt: new Date().toISOString(),
  }
}

describe('readActivePolicies', () => {
  it('opens the active ones; inactive and drafts are left out; unreadable ones are listed apart', async () => {
    const taxes = await policy({ types: ['doc'], tags: ['taxes'] }, [BEN])
    const off = await policy({ types: ['doc'], tags: [] }, [CY], 'inactive')
    const draft = await policy({ types: ['doc'], tags: [] }, [CY], 'draft')
    const foreign = await policy({ types: ['doc'], tags: [] }, [CY], 'active', otherMaster)
    const { readable, unreadable } = await readActivePolicies([taxes, off, draft, foreign], master)
    expect(readable).toEqual([{ id: taxes.id, name: taxes.name, selectors: { types: ['doc'], tags: ['taxes'] }, beneficiaryIds: [BEN], release: { on: taxes.ruleJson.release.on, delayHours: taxes.ruleJson.release.delayHours } }])
    expect(unreadable.map((p) => p.id)).toEqual([foreign.id])
  })
})

describe('recipientsFor', () => {
  it('adds the beneficiaries of every matching policy, after the chosen ones, each once', async () => {
    const { readable } = await readActivePolicies(
      [
        await policy({ types: ['doc'], tags: ['Taxes'] }, [BEN, ADA]),
        await policy({ types: ['doc', 'photo'], tags: [] }, [CY, BEN]),
        await policy({ types: ['photo'], tags: ['taxes'] }, [CY]),
      ],
      master,
    )
    const doc = recipientsFor({ type: 'doc', tags: ['TAXES'] }, only(ADA), readable, known())
    expect(doc.beneficiaries.map((b) => b.id)).toEqual([ADA, BEN, CY])
    expect(doc.added.map((b) => b.id)).toEqual([BEN, CY])
    expect(doc.policies).toHaveLength(2)

    const untagged = recipientsFor({ type: 'doc', tags: ['photos'] }, only(ADA), readable, known())
    expect(untagged.beneficiaries.map((b) => b.id)).toEqual([ADA, CY, BEN])

    const video = recipientsFor({ type: 'video', tags: ['taxes'] }, only(ADA), readable, known())
    expect(video.beneficiaries.map((b) => b.id)).toEqual([ADA])
    expect(video.added).toEqual([])
  })

  it('skips a policy beneficiary who no longer exists', async () => {
    const { readable } = await readActivePolicies([await policy({ types: ['doc'], tags: [] }, ['55555555-5555-4555-8555-555555555555', BEN])], master)
    const r = recipientsFor({ type: 'doc', tags: [] }, only(ADA), readable, known())
    expect(r.beneficiaries.map((b) => b.id)).toEqual([ADA, BEN])
  })

  it('feeds the upload: the stored item carries a grant for the policy beneficiary that opens the item', async () => {
    const vault = await testVault()
    const api = new FakeVaultApi(1024, vault)
    const { readable } = await readActivePolicies([await policy({ types: ['doc'], tags: ['taxes'] }, [BEN])], master)
    const metadata: ItemMetadata = { filename: 'return-2024.pdf', mimetype: 'application/pdf', size: 5, tags: ['taxes'] }
    const recipients = recipientsFor({ type: 'doc', tags: metadata.tags }, only(ADA), readable, known())
    const stored = await uploadFile(
      {
        type: 'doc',
        content: new Blob(['hello']),
        metadata,
        policy: { protocol: 'VERIFIED_DEATH', requiresApprover: false },
        beneficiaries: recipients.beneficiaries,
      },
      { fetch: api.fetch, masterKey: master, backoffMs: () => 1, signer: vault.signer },
    )
    expect(stored.beneficiaryIds).toEqual([ADA, BEN])
    const grant = api.completed.get(stored.id)!.body.grants.find((g) => g.beneficiaryId === BEN)!
    const dek = await unwrapDataKeyForBeneficiary(grant.wrappedKey, await importBeneficiaryPrivateKey(keys.get(BEN)!.privateKey))
    expect((await decryptMetadata<ItemMetadata>(dek, stored.id, stored.encryptedMetadata)).tags).toEqual(['taxes'])
  })
})

describe('Add Item follows its own help text: a policy recipient is enough', () => {
  const people = [
    { id: ADA, fullName: 'Ada Heir' },
    { id: BEN, fullName: 'Ben Heir' },
  ]
  const taxes: ReadablePolicy = {
    id: 'p-taxes',
    name: 'Tax records',
    selectors: { types: ['doc'], tags: ['taxes'] },
    beneficiaryIds: [BEN],
    release: { on: ['inactivity', 'verified_death'], delayHours: 48 },
  }
  it('needs no chosen beneficiary when every item goes to someone through a policy, and says who and when', () => {
    const covered = policyCoverage([{ type: 'doc', tags: ['taxes'] }], [taxes], people, 72)
    expect(covered).toEqual({
      covered: true,
      lines: [
        'Ben Heir receives it through your policy “Tax records” when an Inactivity or Verified death trigger fires: 72 hours after (your safety window), or 48 hours after if you release it by hand.',
      ],
    })
    // A delay longer than the window holds for every cause.
    expect(policyCoverage([{ type: 'doc', tags: ['taxes'] }], [{ ...taxes, release: { on: ['verified_death'], delayHours: 100 } }], people, 72).lines).toEqual([
      'Ben Heir receives it through your policy “Tax records” when a Verified death trigger fires: 100 hours after.',
    ])
    const valid = uploadFormSchema.safeParse({ ...UPLOAD_FORM_DEFAULTS, files: [new File(['x'], 'a.txt')], coveredByPolicies: true })
    expect(valid.success).toBe(true)
  })
  it('still asks for beneficiaries when one item is not covered, or the policy names nobody the owner has', () => {
    expect(policyCoverage([{ type: 'doc', tags: ['taxes'] }, { type: 'photo', tags: ['taxes'] }], [taxes], people, 72).covered).toBe(false)
    expect(policyCoverage([{ type: 'doc', tags: ['taxes'] }], [{ ...taxes, beneficiaryIds: [CY] }], people, 72)).toEqual({ covered: false, lines: [] })
    expect(policyCoverage([], [taxes], people, 72).covered).toBe(false)
    const invalid = uploadFormSchema.safeParse({ ...UPLOAD_FORM_DEFAULTS, files: [new File(['x'], 'a.txt')], coveredByPolicies: false })
    expect(invalid.success).toBe(false)
  })
})
