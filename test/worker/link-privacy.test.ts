import { describe, expect, it } from 'vitest'
import type { OutboxMessage } from '../../contract/auth'
import { addApprover, addBeneficiary, call, linkTokenIn, outbox, outboxFor, register, requestResetToken, uniqueEmail, waitFor } from './helpers'
import { publicKey } from './vault-helpers'

// A link travels further than its mailbox (forwarded, pasted, kept in a proxy's log or a
// browser's history), and a token is base64, which anyone reads: the links sent to the owner's
// addresses and the circle's invitations name no address. (A release approval's and a renewal
// decision's links still name the approver they are for: NOTES-pages.md.)

/** Every link in a message, from its text and its html. */
function linksOf(message: OutboxMessage): string[] {
  const inText = message.text.match(/https?:\/\/[^\s<>"]+/g) ?? []
  const inHtml = [...message.html.matchAll(/href="([^"]+)"/gi)].map((m) => m[1]!.replace(/&amp;/g, '&'))
  return [...inText, ...inHtml].filter((href) => !href.startsWith('mailto:'))
}

/** What a link says to anyone who reads it: its decoded address, and every base64url part of every value in it, decoded. */
function readable(href: string): string {
  const url = new URL(href)
  const values = [...url.searchParams.values(), ...url.pathname.split('/'), url.hash.slice(1)]
  const decoded = values.flatMap((value) =>
    value.split('.').map((part) => {
      try {
        return atob(part.replace(/-/g, '+').replace(/_/g, '/'))
      } catch {
        return ''
      }
    }),
  )
  return [decodeURIComponent(href), ...decoded].join('\n')
}

describe('links in e-mails', () => {
  it('no link sent to the owner’s addresses or in the circle’s invitations names an address, in the clear or in a readable token', async () => {
    // The mails with links an owner's own addresses get (confirmation, backup, reset) and the
    // invitations their circle gets once the owner is confirmed.
    const owner = await register({ confirmed: false })
    await addBeneficiary(owner.token, await publicKey())
    await addApprover(owner.token)
    const confirmMail = await waitFor(async () => (await outboxFor(owner.email)).find((m) => m.text.includes('/confirm-email')))
    expect((await call('/api/auth/confirm-email', { body: { token: linkTokenIn(confirmMail, '/confirm-email') } })).status).toBe(200)
    const backup = uniqueEmail('backup')
    expect((await call('/api/channels/backup', { method: 'PUT', token: owner.token, body: { email: backup } })).status).toBe(200)
    await waitFor(async () => (await outboxFor(backup)).find((m) => m.text.includes('/verify-backup-email')))
    await requestResetToken(owner.email)
    await waitFor(async () => (await outbox()).filter((m) => /verify-(beneficiary|approver)/.test(m.text)).length >= 2 || undefined)

    const messages = await outbox()
    const paths = new Set(messages.flatMap(linksOf).map((href) => new URL(href).pathname))
    for (const path of ['/confirm-email', '/verify-backup-email', '/reset-password', '/verify-beneficiary', '/verify-approver']) expect(paths).toContain(path)
    // Every address the vault wrote to (the owner's, the backup, the heir's, the approver's).
    const addresses = [...new Set(messages.map((m) => m.to))]
    expect(addresses).toEqual(expect.arrayContaining([owner.email.toLowerCase(), backup.toLowerCase()]))
    const naming = messages.flatMap((m) =>
      linksOf(m)
        .filter((href) => addresses.some((address) => readable(href).toLowerCase().includes(address)))
        .map((href) => `${m.subject}: ${href}`),
    )
    expect(naming).toEqual([])
  })
})
