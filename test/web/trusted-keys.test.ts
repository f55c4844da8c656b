import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Beneficiary } from '../../contract/circle'
import { KEY_SIGNING_MESSAGES } from '../../contract/key-signing'
import { beneficiaryStatement } from '../../contract/vault-statements'
import { verifyStatement } from '@/crypto'
import { judgeStatements, restateV1Rows, withStatementSequence } from '@/features/circle/statements'
import { assertTrustedKeys, UntrustedKeyError } from '@/features/circle/trusted-keys'
import { ApiRequestError } from '@/lib/api-client'
import { vaultSession, VaultLockedError, type SignedBeneficiaryKey } from '@/features/vault/vault-session'

// Before anything is wrapped for a beneficiary, the owner's browser checks that the statement
// carries this vault's signature (0.2 · 4 of 7) and is not older than one it verified before
// (0.3 · 3 of 7): a key the server (or a stolen session) put there, or a retired statement served
// back, is refused, naming the beneficiary.

const OWNER = 'owner-1'

/** The browser's localStorage, in memory (these tests run in Node). */
const store = new Map<string, string>()
vi.stubGlobal('localStorage', {
  getItem: (k: string) => store.get(k) ?? null,
  setItem: (k: string, v: string) => void store.set(k, v),
  removeItem: (k: string) => void store.delete(k),
  clear: () => store.clear(),
})
const row = (id: string, over: Partial<SignedBeneficiaryKey> = {}): SignedBeneficiaryKey => ({
  id,
  fullName: `Heir ${id}`,
  relationship: 'Child',
  email: `${id}@example.com`,
  keyVersion: 1,
  publicKey: `KEY${id}`,
  keySignature: null,
  statementSequence: null,
  ...over,
})

/** The row as the vault states it at `sequence`. */
async function stated(b: SignedBeneficiaryKey, sequence: number): Promise<SignedBeneficiaryKey> {
  const keySignature = await vaultSession.signBeneficiary({ sequence, beneficiaryId: b.id, fullName: b.fullName, relationship: b.relationship, email: b.email, keyVersion: b.keyVersion, publicKey: b.publicKey })
  return { ...b, keySignature, statementSequence: sequence }
}

const verdictsOf = async (list: SignedBeneficiaryKey[], complete = true) => Object.fromEntries(await judgeStatements(list, { complete }))

describe('assertTrustedKeys', () => {
  beforeEach(() => localStorage.clear())
  afterEach(() => vaultSession.lock())

  it('needs the unlocked vault', async () => {
    await expect(assertTrustedKeys([row('a')])).rejects.toThrow(VaultLockedError)
  })

  it('passes v2 and v1 statements of this vault, and refuses a changed or unconfirmed one by name', async () => {
    await vaultSession.create('a fine passphrase 1!', OWNER, async () => undefined)
    const ben = await stated(row('ben', { fullName: 'Ben Heir' }), 1)
    const old = { ...row('old'), keySignature: await vaultSession.signKey({ email: 'old@example.com', keyVersion: 1, publicKey: 'KEYold' }) }
    await expect(assertTrustedKeys([ben, old])).resolves.toBeUndefined()

    const swapped = assertTrustedKeys([ben, { ...ben, id: 'eve', fullName: 'Eve Intruder', publicKey: 'EVIL' }])
    await expect(swapped).rejects.toThrow(UntrustedKeyError)
    await expect(swapped).rejects.toThrow(`Eve Intruder: ${KEY_SIGNING_MESSAGES.keyChangedOutside}`)
    // Every part of the statement counts: the address, the name, the relationship, the id, the sequence.
    for (const change of [{ email: 'eve@example.com' }, { fullName: 'Eve Intruder' }, { relationship: 'Stranger' }, { id: 'other' }, { statementSequence: 2 }]) {
      await expect(assertTrustedKeys([{ ...ben, ...change }]), JSON.stringify(change)).rejects.toThrow(KEY_SIGNING_MESSAGES.keyChangedOutside)
    }
    // A v2 signature presented as v1 (or the other way round) holds as neither.
    await expect(assertTrustedKeys([{ ...ben, statementSequence: null }])).rejects.toThrow(KEY_SIGNING_MESSAGES.keyChangedOutside)
    await expect(assertTrustedKeys([{ ...old, statementSequence: 1 }])).rejects.toThrow(KEY_SIGNING_MESSAGES.keyChangedOutside)
    await expect(assertTrustedKeys([row('new', { fullName: 'Ben Heir' })])).rejects.toThrow(`Ben Heir: ${KEY_SIGNING_MESSAGES.keyNotConfirmed}`)
  })

  it('signs exactly the statement of contract/vault-statements.ts', async () => {
    await vaultSession.create('a fine passphrase 1!', OWNER, async () => undefined)
    const ben = await stated(row('ben'), 7)
    const text = beneficiaryStatement({ ownerId: OWNER, sequence: 7, beneficiaryId: 'ben', fullName: 'Heir ben', relationship: 'Child', email: 'ben@example.com', keyVersion: 1, publicKey: 'KEYben' })
    expect(await verifyStatement(vaultSession.signer()!.publicKey, text, ben.keySignature!)).toBe(true)
  })
})

describe('the high-water mark this browser keeps', () => {
  beforeEach(async () => {
    localStorage.clear()
    await vaultSession.create('a fine passphrase 1!', OWNER, async () => undefined)
  })
  afterEach(() => vaultSession.lock())

  it('refuses a statement below the one it verified for that beneficiary (a rolled-back address or name)', async () => {
    const first = await stated(row('ben'), 1)
    const moved = await stated({ ...row('ben'), email: 'new@example.com' }, 2)
    expect(await verdictsOf([first])).toEqual({ ben: 'signed' })
    expect(await verdictsOf([moved])).toEqual({ ben: 'signed' })
    // The server serves the earlier statement again: its signature holds, its sequence does not.
    expect(await verdictsOf([first])).toEqual({ ben: 'changed' })
    await expect(assertTrustedKeys([first])).rejects.toThrow(KEY_SIGNING_MESSAGES.keyChangedOutside)
    // The same statement again is fine.
    expect(await verdictsOf([moved])).toEqual({ ben: 'signed' })
  })

  it('refuses a beneficiary it has not seen whose statement is not above the highest seen, and forgets who left', async () => {
    const ann = await stated(row('ann'), 1)
    const ben = await stated(row('ben'), 2)
    const cy = await stated(row('cy'), 3)
    // Judged together against what was remembered before: the order of the list does not matter.
    expect(await verdictsOf([cy, ann, ben])).toEqual({ ann: 'signed', ben: 'signed', cy: 'signed' })
    // Ben was deleted: the list without him makes this browser forget him...
    expect(await verdictsOf([ann, cy])).toEqual({ ann: 'signed', cy: 'signed' })
    // ...so his retired statement, served back, is one of someone unseen below the highest.
    expect(await verdictsOf([ann, ben, cy])).toEqual({ ann: 'signed', ben: 'changed', cy: 'signed' })
    // A new person, stated above everything, is taken.
    expect(await verdictsOf([ann, cy, await stated(row('dee'), 4)])).toMatchObject({ dee: 'signed' })
  })

  it('keeps its memory per owner, and only a complete list updates it', async () => {
    const old = await stated(row('ben'), 1)
    const newer = await stated(row('ben'), 5)
    expect(await verdictsOf([newer], false)).toEqual({ ben: 'signed' })
    // A subset (one item's recipients) vouched for nothing: the older one is still taken...
    expect(await verdictsOf([old], false)).toEqual({ ben: 'signed' })
    expect(await verdictsOf([newer])).toEqual({ ben: 'signed' })
    // ...until a complete list was verified.
    expect(await verdictsOf([old], false)).toEqual({ ben: 'changed' })
    expect([...store.keys()].filter((k) => k.includes(OWNER))).toHaveLength(1)
  })
})

describe('signing above what the server took', () => {
  beforeEach(async () => {
    localStorage.clear()
    await vaultSession.create('a fine passphrase 1!', OWNER, async () => undefined)
  })
  afterEach(() => vaultSession.lock())

  it('starts above the list, and after a refusal naming the newest signs once above it', async () => {
    const seen: number[] = []
    const result = await withStatementSequence([{ statementSequence: 4 }, { statementSequence: null }], async (n) => {
      seen.push(n)
      if (seen.length === 1) throw new ApiRequestError(409, KEY_SIGNING_MESSAGES.statementOutdated, { message: KEY_SIGNING_MESSAGES.statementOutdated, statementSequence: 9 })
      return 'done'
    })
    expect(result).toBe('done')
    expect(seen).toEqual([5, 10])
    // What it signed is remembered: the next one goes above it even if the list is behind.
    await withStatementSequence([], async (n) => void seen.push(n))
    expect(seen.at(-1)).toBe(11)
  })

  it('retries once only, and not for other conflicts', async () => {
    const outdated = new ApiRequestError(409, KEY_SIGNING_MESSAGES.statementOutdated, { message: 'x', statementSequence: 3 })
    const run = vi.fn(async () => {
      throw outdated
    })
    await expect(withStatementSequence([], run)).rejects.toBe(outdated)
    expect(run).toHaveBeenCalledTimes(2)
    const other = new ApiRequestError(409, 'This person is already one of your beneficiaries.', { message: 'x' })
    const once = vi.fn(async () => {
      throw other
    })
    await expect(withStatementSequence([], once)).rejects.toBe(other)
    expect(once).toHaveBeenCalledTimes(1)
  })

  it('restates every row on a valid v1 statement as v2, one request each, and leaves the others', async () => {
    const v1 = { ...row('old'), keySignature: await vaultSession.signKey({ email: 'old@example.com', keyVersion: 1, publicKey: 'KEYold' }) }
    const forgedV1 = { ...row('bad'), keySignature: v1.keySignature }
    const v2 = await stated(row('ben'), 3)
    const unconfirmed = row('new')
    const list = [v1, forgedV1, v2, unconfirmed] as unknown as Beneficiary[]
    const verdicts = await judgeStatements(list, { complete: true })
    expect(Object.fromEntries(verdicts)).toEqual({ old: 'restate', bad: 'changed', ben: 'signed', new: 'unconfirmed' })

    const sent: Array<{ url: string; body: { keySignature: string; statementSequence: number } }> = []
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const body = JSON.parse(String(init!.body)) as { keySignature: string; statementSequence: number }
      sent.push({ url: String(input), body })
      return new Response(JSON.stringify({ ...v1, ...body }), { status: 200, headers: { 'content-type': 'application/json' } })
    })
    try {
      expect(await restateV1Rows(list, verdicts)).toBe(1)
    } finally {
      fetchMock.mockRestore()
    }
    expect(sent.map((r) => r.url)).toEqual(['/api/beneficiaries/old/key-signature'])
    const { statementSequence, keySignature } = sent[0]!.body
    expect(statementSequence).toBe(4)
    const text = beneficiaryStatement({ ownerId: OWNER, sequence: 4, beneficiaryId: 'old', fullName: 'Heir old', relationship: 'Child', email: 'old@example.com', keyVersion: 1, publicKey: 'KEYold' })
    expect(await verifyStatement(vaultSession.signer()!.publicKey, text, keySignature)).toBe(true)
  })
})
