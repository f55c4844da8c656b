import { beforeAll, describe, expect, it } from 'vitest'
import { POLICY_MESSAGES } from '../../contract/policies'
import { decryptMetadata, DecryptionError, deriveMasterKey, encryptMetadata, generateDataKey, generateVaultSalt, unwrapDataKey, wrapDataKey, type MasterKey } from '@/crypto'
import { ACCESS_REQUEST, ACCESS_REQUEST_MESSAGES } from '../../contract/access-requests'
import { createBodyFrom, POLICY_FORM_DEFAULTS, policyDialogSchema, selectorsFrom, TAGS_TOO_LONG } from '@/features/policies/policy-form'
import { decryptSelectors, encryptSelectors, matches, normalizeSelectors, POLICY_SELECTORS_BINDING } from '@/features/policies/selectors'
import { grantedText } from '@/features/policies/copy'

// A policy's selectors: sealed with a key of the policy's own, bound to their purpose, opened
// only with the right master key; the matching rule; and the Create Policy form's rules.

let master: MasterKey
let otherMaster: MasterKey
beforeAll(async () => {
  master = await deriveMasterKey('correct horse battery staple 9!', generateVaultSalt())
  otherMaster = await deriveMasterKey('a different passphrase entirely', generateVaultSalt())
})

describe('encryptSelectors / decryptSelectors', () => {
  it('round-trips, normalised, and nothing of the selectors is in clear', async () => {
    const sealed = await encryptSelectors({ types: ['photo', 'doc', 'doc'], tags: [' Taxes ', 'taxes', '', 'Receipts-2024'] }, master)
    expect(sealed.encryptedSelectors).toMatch(/^[A-Za-z0-9+/]+={0,2}$/)
    expect(sealed.wrappedKey).toMatch(/^[A-Za-z0-9+/]+={0,2}$/)
    const decoded = atob(sealed.encryptedSelectors)
    for (const secret of ['Taxes', 'taxes', 'Receipts', 'photo', 'doc']) expect(decoded).not.toContain(secret)
    expect(await decryptSelectors(sealed, master)).toEqual({ types: ['doc', 'photo'], tags: ['Taxes', 'Receipts-2024'] })
  })

  it('each policy gets a key of its own: two sealings of the same selectors differ', async () => {
    const a = await encryptSelectors({ types: ['doc'], tags: ['x'] }, master)
    const b = await encryptSelectors({ types: ['doc'], tags: ['x'] }, master)
    expect(a.wrappedKey).not.toBe(b.wrappedKey)
    expect(a.encryptedSelectors).not.toBe(b.encryptedSelectors)
    // Each opens only with its own key.
    await expect(decryptSelectors({ encryptedSelectors: a.encryptedSelectors, wrappedKey: b.wrappedKey }, master)).rejects.toBeInstanceOf(DecryptionError)
  })

  it('fails with the wrong master key', async () => {
    const sealed = await encryptSelectors({ types: ['doc'], tags: [] }, master)
    await expect(decryptSelectors(sealed, otherMaster)).rejects.toBeInstanceOf(DecryptionError)
  })

  it('fails when the ciphertext is altered', async () => {
    const sealed = await encryptSelectors({ types: ['doc'], tags: ['taxes'] }, master)
    const bytes = Uint8Array.from(atob(sealed.encryptedSelectors), (c) => c.charCodeAt(0))
    bytes[bytes.length - 1]! ^= 1
    const altered = btoa(String.fromCharCode(...bytes))
    await expect(decryptSelectors({ ...sealed, encryptedSelectors: altered }, master)).rejects.toBeInstanceOf(DecryptionError)
  })

  it('is bound to its purpose: selectors do not open as item metadata, nor item metadata as selectors', async () => {
    const sealed = await encryptSelectors({ types: ['doc'], tags: ['taxes'] }, master)
    const policyKey = await unwrapDataKey(sealed.wrappedKey, master)
    const itemId = '00000000-0000-4000-8000-000000000001'
    await expect(decryptMetadata(policyKey, itemId, sealed.encryptedSelectors)).rejects.toBeInstanceOf(DecryptionError)

    const itemKey = await generateDataKey()
    const itemMetadata = await encryptMetadata(itemKey, itemId, { types: ['doc'], tags: ['taxes'] })
    const itemWrapped = await wrapDataKey(itemKey, master)
    await expect(decryptSelectors({ encryptedSelectors: itemMetadata, wrappedKey: itemWrapped }, master)).rejects.toBeInstanceOf(DecryptionError)
    // The binding is the documented fixed string.
    expect(await decryptMetadata(policyKey, POLICY_SELECTORS_BINDING, sealed.encryptedSelectors)).toEqual({ types: ['doc'], tags: ['taxes'] })
  })

  it('seals only what the server can keep: at least one type, at most 100 tags of at most 200 characters', async () => {
    await expect(encryptSelectors({ types: [], tags: [] }, master)).rejects.toThrow()
    await expect(encryptSelectors({ types: ['doc'], tags: Array.from({ length: 101 }, (_, i) => `t${i}`) }, master)).rejects.toThrow()
    await expect(encryptSelectors({ types: ['doc'], tags: ['x'.repeat(201)] }, master)).rejects.toThrow()
    const edge = await encryptSelectors({ types: ['doc'], tags: [...Array.from({ length: 99 }, (_, i) => `t${i}`), 'x'.repeat(200)] }, master)
    expect((await decryptSelectors(edge, master)).tags).toHaveLength(100)
  })

  it('refuses a decrypted value of the wrong shape', async () => {
    const key = await generateDataKey()
    const bogus = {
      encryptedSelectors: await encryptMetadata(key, POLICY_SELECTORS_BINDING, { types: ['spreadsheet'], tags: 'x' }),
      wrappedKey: await wrapDataKey(key, master),
    }
    await expect(decryptSelectors(bogus, master)).rejects.toThrow()
  })
})

describe('matches (type AND (no tags OR any tag, ignoring case))', () => {
  const taxes = { types: ['doc' as const], tags: ['Taxes', 'receipts'] }
  it('needs the type', () => {
    expect(matches(taxes, { type: 'photo', tags: ['taxes'] })).toBe(false)
    expect(matches(taxes, { type: 'doc', tags: ['taxes'] })).toBe(true)
  })
  it('with tags: at least one, case-insensitive and trimmed', () => {
    expect(matches(taxes, { type: 'doc', tags: ['TAXES'] })).toBe(true)
    expect(matches(taxes, { type: 'doc', tags: [' Receipts '] })).toBe(true)
    expect(matches(taxes, { type: 'doc', tags: ['photos', 'receipts'] })).toBe(true)
    expect(matches(taxes, { type: 'doc', tags: ['photos'] })).toBe(false)
    expect(matches(taxes, { type: 'doc', tags: [] })).toBe(false)
    // Whole tags, not substrings.
    expect(matches(taxes, { type: 'doc', tags: ['taxes-2024'] })).toBe(false)
  })
  it('without tags: every item of the types', () => {
    const all = { types: ['doc' as const, 'photo' as const], tags: [] }
    expect(matches(all, { type: 'photo', tags: [] })).toBe(true)
    expect(matches(all, { type: 'doc', tags: ['anything'] })).toBe(true)
    expect(matches(all, { type: 'video', tags: [] })).toBe(false)
  })
  it('a tag matches however its accents are encoded (composed é or e + combining accent)', () => {
    const composed = 'Caf\u00e9'
    const decomposed = 'Cafe\u0301'
    expect(matches({ types: ['doc'], tags: [composed] }, { type: 'doc', tags: [decomposed] })).toBe(true)
    expect(normalizeSelectors({ types: ['doc'], tags: [composed, decomposed] }).tags).toEqual([composed])
  })
  it('normalizeSelectors keeps the first spelling of a tag and the contract order of types', () => {
    expect(normalizeSelectors({ types: ['password', 'doc'], tags: ['Taxes', 'TAXES', ' ', 'b'] })).toEqual({ types: ['doc', 'password'], tags: ['Taxes', 'b'] })
  })
})

describe('the Create Policy form', () => {
  const messages = (values: unknown) => {
    const result = policyDialogSchema.safeParse(values)
    return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
  }

  it('gives the contract messages for an empty form', () => {
    expect(messages(POLICY_FORM_DEFAULTS)).toEqual(
      expect.arrayContaining([
        `name: ${POLICY_MESSAGES.nameMin}`,
        `description: ${POLICY_MESSAGES.descriptionMin}`,
        `types: ${POLICY_MESSAGES.typesRequired}`,
        `beneficiaryIds: ${POLICY_MESSAGES.beneficiariesRequired}`,
        `triggers: ${POLICY_MESSAGES.triggersRequired}`,
      ]),
    )
    // The approver rule speaks up even while other fields are still wrong.
    expect(messages({ ...POLICY_FORM_DEFAULTS, requiresApprover: true })).toContain(`approverContact: ${POLICY_MESSAGES.approverContactRequired}`)
    expect(POLICY_FORM_DEFAULTS.delayHours).toBe(72)
    expect(POLICY_FORM_DEFAULTS.minimumApprovals).toBe(1)
  })

  const valid = {
    ...POLICY_FORM_DEFAULTS,
    name: 'Tax records',
    description: 'Tax returns go to my accountant',
    types: ['doc'],
    tags: ' taxes, , Receipts ',
    beneficiaryIds: ['11111111-1111-4111-8111-111111111111'],
    triggers: ['inactivity', 'verified_death'],
  }

  it('delay: empty (NaN) or negative gives the delay message', () => {
    expect(messages({ ...valid, delayHours: Number.NaN })).toEqual([`delayHours: ${POLICY_MESSAGES.delayMin}`])
    expect(messages({ ...valid, delayHours: -1 })).toEqual([`delayHours: ${POLICY_MESSAGES.delayMin}`])
    expect(messages({ ...valid, delayHours: 0 })).toEqual([])
  })

  it('an approver needs an e-mail address; tags have a length cap', () => {
    expect(messages({ ...valid, requiresApprover: true })).toEqual([`approverContact: ${POLICY_MESSAGES.approverContactRequired}`])
    expect(messages({ ...valid, requiresApprover: true, approverContact: 'not-an-email' })).toEqual([
      `approverContact: ${POLICY_MESSAGES.approverContactRequired}`,
    ])
    expect(messages({ ...valid, requiresApprover: true, approverContact: 'lawyer@example.com' })).toEqual([])
    expect(messages({ ...valid, tags: 'x'.repeat(501) })).toEqual([`tags: ${TAGS_TOO_LONG}`])
  })

  it('the approver contact must be a whole e-mail address, not just something with an @', () => {
    for (const contact of ['bob@', '@example.com', 'bob@@example.com', 'bob smith@example.com']) {
      expect(messages({ ...valid, requiresApprover: true, approverContact: contact }), contact).toEqual([
        `approverContact: ${POLICY_MESSAGES.approverContactRequired}`,
      ])
    }
  })

  it('tags of exactly 500 characters are within the cap', () => {
    expect(messages({ ...valid, tags: 'x'.repeat(500) })).toEqual([])
  })

  it('a beneficiary or trigger ticked twice is sent once', () => {
    const id = '11111111-1111-4111-8111-111111111111'
    const body = createBodyFrom(policyDialogSchema.parse({ ...valid, beneficiaryIds: [id, id], triggers: ['inactivity', 'inactivity'] }), { encryptedSelectors: 'AAAA', wrappedKey: 'BBBB' })
    expect(body.ruleJson.assign).toEqual([{ beneficiaryId: id, access: 'read' }])
    expect(body.ruleJson.release.on).toEqual(['inactivity'])
  })

  it('access on request: off by default (7 days ready), 1 to 365 days, someone to ask; sent only when on', () => {
    expect(POLICY_FORM_DEFAULTS).toMatchObject({ accessRequestOn: false, accessRequestDays: ACCESS_REQUEST.defaultDays, accessRequestBy: ['beneficiaries'] })
    expect(ACCESS_REQUEST.defaultDays).toBe(7)
    for (const days of [0, 366, 1.5, Number.NaN]) {
      expect(messages({ ...valid, accessRequestOn: true, accessRequestDays: days }), String(days)).toEqual([`accessRequestDays: ${ACCESS_REQUEST_MESSAGES.daysRange}`])
    }
    expect(messages({ ...valid, accessRequestOn: true, accessRequestBy: [] })).toEqual([`accessRequestBy: ${ACCESS_REQUEST_MESSAGES.requestersRequired}`])
    expect(messages({ ...valid, accessRequestBy: [] })).toEqual([])
    const on = createBodyFrom(policyDialogSchema.parse({ ...valid, accessRequestOn: true, accessRequestDays: 1, accessRequestBy: ['approvers', 'approvers'] }), { encryptedSelectors: 'AAAA', wrappedKey: 'BBBB' })
    expect(on.accessRequest).toEqual({ days: 1, by: ['approvers'] })
  })

  it('builds the create body: selectors only sealed, switched-off options not sent, status active', () => {
    const parsed = policyDialogSchema.parse({
      ...valid,
      approverContact: 'left@behind.example',
      identityVerificationApprovers: ['22222222-2222-4222-8222-222222222222'],
      requiredDocumentTypes: ['passport'],
    })
    expect(selectorsFrom(parsed)).toEqual({ types: ['doc'], tags: ['taxes', 'Receipts'] })
    const body = createBodyFrom(parsed, { encryptedSelectors: 'AAAA', wrappedKey: 'BBBB' })
    expect(body).toEqual({
      name: 'Tax records',
      description: 'Tax returns go to my accountant',
      ruleJson: {
        assign: [{ beneficiaryId: '11111111-1111-4111-8111-111111111111', access: 'read' }],
        release: { on: ['inactivity', 'verified_death'], delayHours: 72, requiresApprover: false },
      },
      encryptedSelectors: 'AAAA',
      wrappedKey: 'BBBB',
      requiresApprover: false,
      approverContact: undefined,
      requiresIdentityVerification: false,
      identityVerificationApprovers: [],
      requiredDocumentTypes: [],
      minimumApprovals: 1,
      accessRequest: null,
      status: 'active',
    })
    expect(JSON.stringify(body)).not.toContain('taxes')

    const withChecks = createBodyFrom(
      policyDialogSchema.parse({
        ...valid,
        requiresApprover: true,
        approverContact: 'lawyer@example.com',
        requiresIdentityVerification: true,
        identityVerificationApprovers: ['22222222-2222-4222-8222-222222222222'],
        requiredDocumentTypes: ['passport', 'national_id'],
        minimumApprovals: 2,
      }),
      { encryptedSelectors: 'AAAA', wrappedKey: 'BBBB' },
    )
    expect(withChecks).toMatchObject({
      ruleJson: { release: { requiresApprover: true } },
      requiresApprover: true,
      approverContact: 'lawyer@example.com',
      requiresIdentityVerification: true,
      identityVerificationApprovers: ['22222222-2222-4222-8222-222222222222'],
      requiredDocumentTypes: ['passport', 'national_id'],
      minimumApprovals: 2,
    })
  })

  it('words the result the way the toast shows it', () => {
    expect(grantedText(3, ['Ada'])).toBe('3 items now go to Ada.')
    expect(grantedText(1, ['Ada', 'Ben'])).toBe('1 item now goes to Ada and Ben.')
    expect(grantedText(0, ['Ada'])).toBe('No items match it yet; new uploads that match will go to Ada.')
  })
})
