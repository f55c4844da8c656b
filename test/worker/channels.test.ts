import { runDurableObjectAlarm } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { CHANNEL_BOUNCING, CHANNEL_MESSAGES, type ChannelsView } from '../../contract/channels'
import { FRESH_PROOF_MESSAGES, FRESH_PROOF_MS } from '../../contract/fresh-proof'
import { PRODUCT_NAME } from '../../contract/constants'
import { GENERIC_ERRORS } from '../../contract/messages'
import type { AuditEntry } from '../../contract/audit'
import type { OutboxMessage } from '../../contract/auth'
import type { ReleaseReadiness } from '../../contract/readiness'
import { TRUST_DETAILS } from '../../worker/mail/trust-templates'
import { createTrigger, DAY_MS, firingCount, guard, manualReleaseOk, ownerWithItem, setClock } from './engine-helpers'
import { addApprover, call, callSettled, env, linkTokenIn, messageOf, outboxFor, register, uniqueEmail, waitFor, ownerSessions } from './helpers'

// A second channel (issue 0.3 · 5 of 7, item 3): a verified backup address hears what the owner's
// own address hears (check-ins, reminders, a release starting with its cancel link); an emergency
// contact the owner opted in is told only that the owner has not answered, and only when a release
// starts without the owner; a channel the mail provider reports bouncing shows on readiness.

const stale = (userId: string) => ownerSessions(userId, 'update sessions set proved_at = ?', Date.now() - FRESH_PROOF_MS - 1000).run()

async function setBackup(token: string, email: string) {
  const res = await call('/api/channels/backup', { method: 'PUT', token, body: { email } })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as { message: string; channels: ChannelsView }
}

const verifyMail = (address: string) => waitFor(async () => (await outboxFor(address)).find((m) => m.text.includes('/verify-backup-email')))

async function verifyBackup(token: string, address: string) {
  const res = await call('/api/channels/backup/verify', { token, body: { token: linkTokenIn(await verifyMail(address), '/verify-backup-email') } })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as { message: string; channels: ChannelsView }
}

async function setContact(token: string, email: string | null, alerts: boolean) {
  return call('/api/channels/contact', { method: 'PUT', token, body: { email, alerts } })
}

/** No link of any kind in a message: no address to open, no button, no token. */
function expectNoLink(m: OutboxMessage) {
  expect(m.text).not.toMatch(/https?:\/\//)
  expect(m.text).not.toMatch(/token=/)
  expect(m.html).not.toMatch(/<a\s|href=/i)
}

describe('the backup address', () => {
  it('needs fresh proof to be named or removed, and the owner is told by a trust e-mail', async () => {
    const owner = await register()
    const backup = uniqueEmail('backup')
    await stale(owner.user.id)
    const refused = await call('/api/channels/backup', { method: 'PUT', token: owner.token, body: { email: backup } })
    expect(refused.status).toBe(403)
    expect(await messageOf(refused)).toBe(FRESH_PROOF_MESSAGES.required)
    expect(await outboxFor(backup)).toEqual([])
    expect(((await (await call('/api/channels', { token: owner.token })).json()) as ChannelsView).backup).toBeNull()

    const again = await register()
    const named = await setBackup(again.token, backup)
    expect(named.message).toBe(CHANNEL_MESSAGES.backupSent(backup))
    expect(named.channels.backup).toEqual({ address: backup, verified: false, bouncing: false })
    const trust = await waitFor(async () => (await outboxFor(again.email)).find((m) => m.subject === 'A backup address was added to your account'))
    expect(trust.text).toContain('This wasn’t me')

    await stale(again.user.id)
    const removeRefused = await call('/api/channels/backup', { method: 'DELETE', token: again.token })
    expect(removeRefused.status).toBe(403)
    expect(((await (await call('/api/channels', { token: again.token })).json()) as ChannelsView).backup?.address).toBe(backup)
  })

  it('is validated with clear words, and is not the address the owner signs in with', async () => {
    const owner = await register()
    for (const [email, message] of [
      ['not an address', 'email: Please enter a valid email address'],
      [owner.email.toUpperCase(), `email: ${CHANNEL_MESSAGES.backupSameAsPrimary}`],
    ] as const) {
      const res = await call('/api/channels/backup', { method: 'PUT', token: owner.token, body: { email } })
      expect(res.status, email).toBe(400)
      expect(await messageOf(res)).toBe(message)
    }
    const none = await call('/api/channels/backup', { method: 'DELETE', token: owner.token })
    expect(none.status).toBe(404)
    expect(await messageOf(none)).toBe(CHANNEL_MESSAGES.backupNone)
    expect((await call('/api/channels/backup/resend', { body: {}, token: owner.token })).status).toBe(404)
  })

  it('following the confirmation link again changes nothing: the confirmation is audited once', async () => {
    const owner = await register()
    const backup = uniqueEmail('backup')
    await setBackup(owner.token, backup)
    const link = linkTokenIn(await verifyMail(backup), '/verify-backup-email')
    for (let i = 0; i < 2; i++) expect((await call('/api/channels/backup/verify', { token: owner.token, body: { token: link } })).status).toBe(200)
    const audit = (await (await call('/api/audit', { token: owner.token })).json()) as AuditEntry[]
    expect(audit.filter((e) => e.action === 'account.backup_email_verified')).toHaveLength(1)
  })

  it('is confirmed only by its own owner, signed in, through the link sent to it; another account’s link is not found', async () => {
    const owner = await register()
    const other = await register()
    const backup = uniqueEmail('backup')
    await setBackup(owner.token, backup)
    const link = linkTokenIn(await verifyMail(backup), '/verify-backup-email')

    const foreign = await call('/api/channels/backup/verify', { token: other.token, body: { token: link } })
    expect(foreign.status).toBe(404)
    expect(await messageOf(foreign)).toBe(GENERIC_ERRORS.notFound)
    expect((await call('/api/channels/backup/verify', { body: { token: link } })).status).toBe(401)

    const ok = await call('/api/channels/backup/verify', { token: owner.token, body: { token: link } })
    expect(ok.status).toBe(200)
    expect(((await ok.json()) as { channels: ChannelsView }).channels.backup).toEqual({ address: backup, verified: true, bouncing: false })
    // Another owner's view of their own channels is untouched.
    expect(((await (await call('/api/channels', { token: other.token })).json()) as ChannelsView).backup).toBeNull()

    // A link sent to an earlier backup address no longer works once the backup is another.
    const next = uniqueEmail('backup-next')
    await setBackup(owner.token, next)
    const old = await call('/api/channels/backup/verify', { token: owner.token, body: { token: link } })
    expect(old.status).toBe(400)
    expect(await messageOf(old)).toBe(CHANNEL_MESSAGES.linkInvalid)
    const garbage = await call('/api/channels/backup/verify', { token: owner.token, body: { token: 'x'.repeat(40) } })
    expect(garbage.status).toBe(400)
  })
})

describe('links to confirm the backup address', () => {
  const resend = (token: string) => call('/api/channels/backup/resend', { method: 'POST', token })

  it('at most three an hour, counting only those links to that address: an hour on, another goes; mail of another kind to it never counts', async () => {
    const owner = await register()
    const backup = uniqueEmail('backup')
    // Another owner's mail to the same address (an approver's invitation and two resends) is not a backup link.
    const other = await register()
    const approver = await addApprover(other.token, { email: backup })
    for (let i = 0; i < 2; i++) expect((await call(`/api/approvers/${approver.id}/resend-verification`, { method: 'POST', token: other.token })).status).toBe(200)
    await setBackup(owner.token, backup)
    for (let i = 1; i < CHANNEL_MESSAGES.backupPerHour; i++) expect((await resend(owner.token)).status).toBe(200)
    const held = await resend(owner.token)
    expect(held.status).toBe(429)
    expect(await messageOf(held)).toBe(CHANNEL_MESSAGES.backupLimit)
    await env.DB.prepare("update email_outbox set created_at = created_at - 3660000 where to_address = ? and kind = 'backup_email_verify'").bind(backup).run()
    expect((await resend(owner.token)).status).toBe(200)
  })

  it('none to a backup address already confirmed: 409', async () => {
    const owner = await register()
    const backup = uniqueEmail('backup')
    await setBackup(owner.token, backup)
    await verifyBackup(owner.token, backup)
    const res = await resend(owner.token)
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(CHANNEL_MESSAGES.backupAlreadyVerified)
  })
})

describe('who hears what', () => {
  it('check-in e-mails go to the backup address only once it is verified; the reminder goes to both', async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    const backup = uniqueEmail('backup')
    await setBackup(s.token, backup)
    await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 3 } })
    await setClock(s.ownerId, { lastCheckInAt: Date.now() - 31 * DAY_MS })
    await runDurableObjectAlarm(guard(s.ownerId))
    await waitFor(async () => (await outboxFor(s.owner.email)).find((m) => m.subject.includes('check in')))
    // Unverified: it has received its link and nothing else.
    expect((await outboxFor(backup)).map((m) => m.subject)).toEqual([`Confirm your backup address for ${PRODUCT_NAME}`])

    await verifyBackup(s.token, backup)
    await setClock(s.ownerId, { checkInSentAt: Date.now() - 2 * DAY_MS - 1000 })
    await runDurableObjectAlarm(guard(s.ownerId))
    for (const address of [s.owner.email, backup]) {
      const reminder = await waitFor(async () => (await outboxFor(address)).find((m) => m.subject.startsWith('Reminder: please check in')))
      expect(linkTokenIn(reminder, '/check-in'), address).toBeTruthy()
    }
  })

  it('a release silence starts: the backup gets the cancel link, the contact only that the owner has not answered', async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    const backup = uniqueEmail('backup')
    const contact = uniqueEmail('contact')
    await setBackup(s.token, backup)
    await verifyBackup(s.token, backup)
    expect((await setContact(s.token, contact, true)).status).toBe(200)
    await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    await setClock(s.ownerId, { lastCheckInAt: Date.now() - 31 * DAY_MS })
    await runDurableObjectAlarm(guard(s.ownerId))
    await waitFor(async () => (await outboxFor(backup)).find((m) => m.subject.includes('check in')))
    // The check-in is the owner's: the contact hears nothing of it.
    expect(await outboxFor(contact)).toEqual([])

    await setClock(s.ownerId, { checkInSentAt: Date.now() - DAY_MS - 1000 })
    await runDurableObjectAlarm(guard(s.ownerId))
    expect(await firingCount(s.ownerId)).toBe(1)
    const started = await waitFor(async () => (await outboxFor(backup)).find((m) => m.text.includes('/cancel-release')))
    expect(started.subject).toBe('A release of your vault has started')

    const [told, ...more] = await waitFor(async () => {
      const mail = await outboxFor(contact)
      return mail.length > 0 && mail
    })
    expect(more).toEqual([])
    expect(told!.subject).toBe(`${s.owner.user.displayName} has not answered`)
    expect(told!.text).toContain(s.owner.email)
    expectNoLink(told!)
    for (const word of ['cancel', 'release', 'item', 'beneficiar', s.beneficiary.fullName]) expect(told!.text.toLowerCase(), word).not.toContain(word.toLowerCase())

    // The backup's cancel link is the owner's own: it cancels.
    const cancelled = await call('/api/releases/cancel', { body: { token: linkTokenIn(started, '/cancel-release') } })
    expect(await cancelled.json()).toMatchObject({ cancelledReleases: 1 })
  })

  it('the owner’s own manual release tells the backup, never the contact; a contact not opted in is never told', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const backup = uniqueEmail('backup')
    const contact = uniqueEmail('contact')
    await setBackup(s.token, backup)
    await verifyBackup(s.token, backup)
    expect((await setContact(s.token, contact, true)).status).toBe(200)
    const trigger = await createTrigger(s.token, { type: 'manual_release', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    await waitFor(async () => (await outboxFor(backup)).find((m) => m.subject === 'A release of your vault has started'))
    expect(await outboxFor(contact)).toEqual([])

    // Not opted in: a death report's release tells the owner's addresses and not the contact.
    const quiet = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    const quietContact = uniqueEmail('contact')
    expect((await setContact(quiet.token, quietContact, false)).status).toBe(200)
    await createTrigger(quiet.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    await setClock(quiet.ownerId, { lastCheckInAt: Date.now() - 31 * DAY_MS, phase: 'checkin_sent', checkInSentAt: Date.now() - 2 * DAY_MS })
    await runDurableObjectAlarm(guard(quiet.ownerId))
    expect(await firingCount(quiet.ownerId)).toBe(1)
    await waitFor(async () => (await outboxFor(quiet.owner.email)).find((m) => m.text.includes('/cancel-release')))
    expect(await outboxFor(quietContact)).toEqual([])
  })

  it("an emergency contact who is the owner's own backup address is told as the owner: the cancel link, never the stranger's notice", async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    const backup = uniqueEmail('backup')
    await setBackup(s.token, backup)
    await verifyBackup(s.token, backup)
    expect((await setContact(s.token, backup, true)).status).toBe(200)
    await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    await setClock(s.ownerId, { lastCheckInAt: Date.now() - 60 * DAY_MS, phase: 'expired', checkInSentAt: Date.now() - 50 * DAY_MS })
    await guard(s.ownerId).tick()
    expect(await firingCount(s.ownerId)).toBe(1)
    await waitFor(async () => (await outboxFor(backup)).some((m) => m.text.includes('/cancel-release')))
    expect((await outboxFor(backup)).filter((m) => m.subject.includes('has not answered'))).toEqual([])
  })

  it('the emergency contact: telling them needs an address, and the address is checked', async () => {
    const owner = await register()
    const none = await setContact(owner.token, null, true)
    expect(none.status).toBe(400)
    expect(await messageOf(none)).toBe(`alerts: ${CHANNEL_MESSAGES.contactAlertsNeedAddress}`)
    const bad = await setContact(owner.token, 'nobody', true)
    expect(bad.status).toBe(400)
    expect(await messageOf(bad)).toBe('email: Emergency contact must be a valid email address')
    const notBool = await call('/api/channels/contact', { method: 'PUT', token: owner.token, body: { email: 'a@example.com', alerts: 'yes' } })
    expect(notBool.status).toBe(400)
    const ok = await setContact(owner.token, 'Friend@Example.com', true)
    expect(((await ok.json()) as { channels: ChannelsView }).channels.contact).toEqual({ address: 'friend@example.com', alerts: true, bouncing: false })
  })
})

const CONTACT_SUBJECT = 'Your emergency contact was changed'
const prove = (token: string, password: string) => call('/api/auth/fresh-proof', { token, body: { method: 'password', password } })
const contactOf = async (token: string) => ((await (await call('/api/channels', { token })).json()) as ChannelsView).contact
const contactMail = async (address: string) => (await outboxFor(address)).filter((m) => m.subject === CONTACT_SUBJECT)
async function contactAudits(token: string) {
  const entries = (await (await call('/api/audit', { token })).json()) as AuditEntry[]
  return entries.filter((e) => e.action === 'account.emergency_contact_set').map((e) => e.details)
}

describe('the emergency contact is a trust change', () => {
  it('naming, opting out of and removing it need fresh proof; each is audited and the owner told at their own addresses', async () => {
    const owner = await register()
    const backup = uniqueEmail('backup')
    await setBackup(owner.token, backup)
    await verifyBackup(owner.token, backup)
    const contact = uniqueEmail('contact')

    await stale(owner.user.id)
    const refused = await setContact(owner.token, contact, true)
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ message: FRESH_PROOF_MESSAGES.required, requiresFreshProof: true, methods: ['password'] })
    expect(await contactOf(owner.token)).toBeNull()
    expect(await contactAudits(owner.token)).toEqual([])
    expect(await contactMail(owner.email)).toEqual([])

    expect((await prove(owner.token, owner.password)).status).toBe(200)
    expect((await setContact(owner.token, contact, true)).status).toBe(200)
    expect(await contactOf(owner.token)).toEqual({ address: contact, alerts: true, bouncing: false })
    expect(await contactAudits(owner.token)).toEqual([{ change: 'added', alerts: true, via: 'settings' }])
    // Both of the owner's own addresses hear of it, with "This wasn't me"; the contact hears nothing.
    for (const address of [owner.email, backup]) {
      const [mail] = await waitFor(async () => (await contactMail(address)).length === 1 && contactMail(address))
      expect(mail!.text).toContain(`Your emergency contact is now ${contact}, and they will be told if a release starts without you.`)
      expect(linkTokenIn(mail!, '/not-me')).toBeTruthy()
    }
    expect(await outboxFor(contact)).toEqual([])

    // Saving it unchanged is no change: no proof, no entry, no e-mail.
    await stale(owner.user.id)
    expect((await setContact(owner.token, contact.toUpperCase(), true)).status).toBe(200)
    expect(await contactAudits(owner.token)).toHaveLength(1)

    // Opting out and removing it are trust changes too: refused, and nothing changed.
    for (const [email, alerts] of [[contact, false], [null, false]] as const) {
      const res = await setContact(owner.token, email, alerts)
      expect(res.status, `${email} ${alerts}`).toBe(403)
      expect(await contactOf(owner.token)).toEqual({ address: contact, alerts: true, bouncing: false })
    }
    expect((await prove(owner.token, owner.password)).status).toBe(200)
    expect((await setContact(owner.token, contact, false)).status).toBe(200)
    expect((await setContact(owner.token, null, false)).status).toBe(200)
    expect(await contactOf(owner.token)).toBeNull()
    expect((await contactAudits(owner.token)).slice(0, 2)).toEqual([
      { change: 'removed', alerts: false, via: 'settings' },
      { change: 'alerts_off', alerts: false, via: 'settings' },
    ])
    const mails = await waitFor(async () => {
      const all = await contactMail(owner.email)
      return all.length === 3 && all
    })
    expect(mails.map((m) => m.text.includes(TRUST_DETAILS.contactRemoved))).toContain(true)
    expect(mails.some((m) => m.text.includes(`Your emergency contact, ${contact}, will no longer be told`))).toBe(true)
  })
})

const SECRET_BYTES = new TextEncoder().encode('a mail provider signing secret, 32+')
const SECRET = `whsec_${btoa(String.fromCharCode(...SECRET_BYTES))}`
const mailEnv: Env = { ...env, MAIL_WEBHOOK_SECRET: SECRET }

async function signed(body: string, { id = crypto.randomUUID(), at = Math.floor(Date.now() / 1000), key = SECRET_BYTES } = {}) {
  const k = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', k, new TextEncoder().encode(`${id}.${at}.${body}`)))
  return { 'webhook-id': id, 'webhook-timestamp': String(at), 'webhook-signature': `v1,${btoa(String.fromCharCode(...mac))}` }
}

async function bounce(to: string[], headers?: Record<string, string>, requestEnv: Env = mailEnv) {
  const rawBody = JSON.stringify({ type: 'email.bounced', created_at: new Date().toISOString(), data: { to, bounce: { type: 'Permanent', message: 'Mailbox does not exist' } } })
  return callSettled('/api/mail/events', { rawBody, headers: headers ?? (await signed(rawBody)) }, requestEnv)
}

async function channelWarnings(token: string) {
  const r = (await (await call('/api/release-readiness', { token })).json()) as ReleaseReadiness
  return r.problems.filter((p) => p.kind === 'channel_bouncing')
}

describe('bounces', () => {
  it('the provider’s signed event marks a channel bouncing; readiness warns of it in plain words', async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    const other = await register()
    const backup = uniqueEmail('backup')
    const contact = uniqueEmail('contact')
    await setBackup(s.token, backup)
    await verifyBackup(s.token, backup)
    expect((await setContact(s.token, contact, true)).status).toBe(200)
    expect(await channelWarnings(s.token)).toEqual([])

    const res = await bounce([s.owner.email.toUpperCase()])
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ received: true, bounced: 1 })
    const [primary, ...rest] = await channelWarnings(s.token)
    expect(rest).toEqual([])
    expect(primary).toMatchObject({ severity: 'warning', message: CHANNEL_BOUNCING.primary, subject: { type: 'account', id: s.ownerId } })
    expect(primary!.message).not.toMatch(/@|bounce_|channel_/)
    // Only this owner's: another owner's readiness is untouched.
    expect(await channelWarnings(other.token)).toEqual([])

    await bounce([backup, contact])
    expect((await channelWarnings(s.token)).map((p) => p.message)).toEqual([CHANNEL_BOUNCING.primary, CHANNEL_BOUNCING.backup, CHANNEL_BOUNCING.contact])
    expect(((await (await call('/api/channels', { token: s.token })).json()) as ChannelsView).backup?.bouncing).toBe(true)
    // A contact no longer told is no channel: its bounce no longer shows on readiness.
    await setContact(s.token, contact, false)
    expect((await channelWarnings(s.token)).map((p) => p.message)).toEqual([CHANNEL_BOUNCING.primary, CHANNEL_BOUNCING.backup])
  })

  it('refuses an event without the right signature, a stale one, and answers 404 with no secret configured', async () => {
    const owner = await register()
    const rawBody = JSON.stringify({ type: 'email.bounced', data: { to: [owner.email] } })
    const wrongKey = await signed(rawBody, { key: new TextEncoder().encode('another secret entirely') })
    for (const headers of [{}, wrongKey, await signed(rawBody, { at: Math.floor(Date.now() / 1000) - 600 }), { ...(await signed(rawBody)), 'webhook-id': 'other' }]) {
      const res = await callSettled('/api/mail/events', { rawBody, headers }, mailEnv)
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe(CHANNEL_MESSAGES.webhookSignatureInvalid)
    }
    const notJson = 'not json'
    const unreadable = await callSettled('/api/mail/events', { rawBody: notJson, headers: await signed(notJson) }, mailEnv)
    expect(unreadable.status).toBe(400)
    expect(await messageOf(unreadable)).toBe(CHANNEL_MESSAGES.webhookBodyInvalid)
    // Without the secret, whatever a developer's .dev.vars holds (`npm start` writes one there).
    expect((await bounce([owner.email], undefined, { ...env, MAIL_WEBHOOK_SECRET: undefined })).status).toBe(404)
    expect(await channelWarnings(owner.token)).toEqual([])
    // Other events change nothing.
    const delivered = JSON.stringify({ type: 'email.delivered', data: { to: [owner.email] } })
    expect(await (await callSettled('/api/mail/events', { rawBody: delivered, headers: await signed(delivered) }, mailEnv)).json()).toEqual({ received: true, bounced: 0 })
  })

  it('following a new link sent to a bouncing backup address clears it', async () => {
    const owner = await register()
    const backup = uniqueEmail('backup')
    await setBackup(owner.token, backup)
    await bounce([backup])
    expect(((await (await call('/api/channels', { token: owner.token })).json()) as ChannelsView).backup).toMatchObject({ verified: false, bouncing: true })
    const { channels } = await verifyBackup(owner.token, backup)
    expect(channels.backup).toEqual({ address: backup, verified: true, bouncing: false })
  })
})
