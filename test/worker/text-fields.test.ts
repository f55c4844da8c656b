import { describe, expect, it } from 'vitest'
import { TEXT_MESSAGES } from '../../contract/text'
import { cloudflareSender } from '../../worker/mail/sender'
import { render } from '../../worker/mail/templates'
import { createTrigger, ownerWithItem, policyBody } from './engine-helpers'
import { call, messageOf, postApprover, postBeneficiary, register } from './helpers'
import { publicKey } from './vault-helpers'

// Text that cannot smuggle structure (0.2 · 4 of 7, point 6): no control characters and no
// text-direction marks in any field, tab and newline only in multi-line ones, and no CR or LF in
// any e-mail header whatever the input.

const RLO = '\u202E'
const refusal = (field: string) => `${field}: ${TEXT_MESSAGES.controlCharacters}`

describe('text fields refuse control characters and direction marks, naming the field', () => {
  it.each([
    ['a right-to-left override', `Eve ${RLO}exe.pdf`],
    ['a bell', 'Eve\u0007'],
    ['a C1 control', 'Eve\u0085'],
    ['a first-strong isolate', 'Eve\u2068'],
    ['a newline', 'Eve\nBcc: someone@example.com'],
    ['a tab', 'Eve\tAdams'],
    ['a line separator', 'Eve\u2028Adams'],
    ['a paragraph separator', 'Eve\u2029Adams'],
    ['a zero-width joiner', 'Ev\u200De'],
    ['a zero-width space', 'Ev\u200Be'],
    ['a byte-order mark inside it', 'Ev\uFEFFe'],
  ])("a beneficiary's name with %s: 400, nothing stored", async (_name, fullName) => {
    const owner = await register()
    const res = await postBeneficiary(owner.token, await publicKey(), { fullName })
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe(refusal('fullName'))
    expect(await (await call('/api/beneficiaries', { token: owner.token })).json()).toEqual([])
  })

  it('an approver’s role, a profile’s display name and a release reason are refused the same way', async () => {
    const owner = await register()
    const role = await postApprover(owner.token, { role: `Lawyer${RLO}` })
    expect(await messageOf(role)).toBe(refusal('role'))
    const profile = await call('/api/profile', { method: 'PUT', token: owner.token, body: { displayName: 'Owner\r\nX-Injected: yes', country: 'UK', timezone: 'Europe/London' } })
    expect(profile.status).toBe(400)
    expect(await messageOf(profile)).toBe(refusal('displayName'))

    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(s.token, { type: 'manual_release', config: {} })
    const release = await call(`/api/trigger-engine/manual/${trigger.id}`, { token: s.token, body: { reason: `Go${RLO}`, confirm: 'RELEASE' } })
    expect(release.status).toBe(400)
    expect(await messageOf(release)).toBe(refusal('reason'))
  })

  it('a name spelled with a zero-width non-joiner (as Persian names are) is kept as typed', async () => {
    const owner = await register()
    const fullName = 'Mehr\u200Cnaz Ahmadi'
    const res = await postBeneficiary(owner.token, await publicKey(), { fullName })
    expect(res.status).toBe(201)
    expect(((await res.json()) as { fullName: string }).fullName).toBe(fullName)
  })

  it('a multi-line field keeps tab and newline, and refuses the rest', async () => {
    const owner = await register()
    const heir = (await (await postBeneficiary(owner.token, await publicKey())).json()) as { id: string }
    const ok = await call('/api/policies', { token: owner.token, body: policyBody(heir.id, { description: 'First line\n\tindented second line' }) })
    expect(ok.status).toBe(201)
    expect(((await ok.json()) as { description: string }).description).toBe('First line\n\tindented second line')
    for (const description of ['A description with a nul\u0000byte', 'A description with a carriage\rreturn', `A description in a hidden ${RLO}order`]) {
      const res = await call('/api/policies', { token: owner.token, body: policyBody(heir.id, { description }) })
      expect(await messageOf(res)).toBe(refusal('description'))
    }
    const name = await call('/api/policies', { token: owner.token, body: policyBody(heir.id, { name: 'Two\nlines' }) })
    expect(await messageOf(name)).toBe(refusal('name'))
  })

  it('a query string is held to the same rule', async () => {
    const owner = await register()
    const res = await call(`/api/audit?limit=${encodeURIComponent('5\u0000')}`, { token: owner.token })
    expect(res.status).toBe(400)
  })
})

describe('e-mail headers', () => {
  it('a subject or address can never carry CR or LF, whatever the input', async () => {
    expect(render('Hello\r\nBcc: victim@example.com', { heading: 'Hi', paragraphs: [] }).subject).toBe('Hello Bcc: victim@example.com')
    const sent: Array<{ to: string; subject: string }> = []
    const sender = cloudflareSender({ EMAIL: { send: async (m: { to: string; subject: string }) => void sent.push(m) } as unknown as SendEmail, MAIL_FROM: 'no-reply@legacy-vault.example.com', ENVIRONMENT: 'production' })
    await sender.send({ to: 'heir@example.com\r\nBcc: x@example.com', subject: 'Line\nbreak\u2028here', text: 't', html: 'h' })
    expect(sent).toEqual([expect.objectContaining({ to: 'heir@example.com Bcc: x@example.com', subject: 'Line break here' })])
  })
})
