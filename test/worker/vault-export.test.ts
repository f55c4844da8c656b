import { describe, expect, it } from 'vitest'
import { EXPORT_AUDIT_ACTION, EXPORT_MESSAGES } from '../../contract/vault-export'
import { call, messageOf, register } from './helpers'
import { ownerRows } from './owner-helpers'

// "Download my vault" (0.3 · 5 of 7 item 4a): the ZIP is made in the owner's browser; the server
// only enters the finished export in the owner's audit chain, by counts, and refuses anything else.

const record = (token: string | undefined, body: unknown) => call('/api/vault/exports', { token, body })
const exportRows = (ownerId: string) => ownerRows<{ actor: string; details: string }>(ownerId, `select actor, details from audit where action = '${EXPORT_AUDIT_ACTION}'`)

describe('POST /api/vault/exports', () => {
  it('enters a finished export in the owner’s own chain, by counts only', async () => {
    const owner = await register()
    const res = await record(owner.token, { included: 3, leftOut: 1 })
    expect(res.status).toBe(201)
    expect(await messageOf(res)).toBe(EXPORT_MESSAGES.recorded)
    const rows = await exportRows(owner.user.id)
    expect(rows).toHaveLength(1)
    expect(rows[0]!.actor).toBe('user')
    expect(JSON.parse(rows[0]!.details)).toEqual({ included: 3, leftOut: 1 })
  })

  it('refuses a body with names or bad counts (400, nothing recorded), and a caller without a session (401)', async () => {
    const owner = await register()
    for (const body of [{ included: 3, leftOut: 0, names: ['letter.pdf'] }, { included: -1, leftOut: 0 }, { included: 1.5, leftOut: 0 }, { included: '3', leftOut: 0 }, {}]) {
      const res = await record(owner.token, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(typeof (await messageOf(res))).toBe('string')
    }
    expect(await exportRows(owner.user.id)).toHaveLength(0)
    expect((await record(undefined, { included: 1, leftOut: 0 })).status).toBe(401)
  })
})
