import { describe, expect, it } from 'vitest'
import type { AuditEntry } from '../../contract/audit'
import type { PublicUser } from '../../contract/auth'
import { VALIDATION } from '../../contract/messages'
import { PROFILE_MESSAGES } from '../../contract/profile'
import { call, login, me, messageOf, outboxFor, register, requestResetToken } from './helpers'

// PUT /api/profile and POST /api/profile/password (seeds 000 §2 'Profile Settings page', §3, §5, §7).

const PROFILE = {
  displayName: 'Ada Lovelace',
  phoneNumber: '+44 20 7946 0958',
  country: 'UK',
  timezone: 'Europe/London',
  emergencyContact: 'Charles@Example.com',
  emailNotifications: false,
  twoFactorEnabled: false,
}

function putProfile(token: string | undefined, body: unknown) {
  return call('/api/profile', { method: 'PUT', token, body })
}

function changePassword(token: string | undefined, body: unknown) {
  return call('/api/profile/password', { token, body })
}

async function userOf(res: Response): Promise<PublicUser> {
  return ((await res.json()) as { user: PublicUser }).user
}

async function auditOf(token: string): Promise<AuditEntry[]> {
  const res = await call('/api/audit', { token })
  expect(res.status).toBe(200)
  return (await res.json()) as AuditEntry[]
}

describe('PUT /api/profile', () => {
  it('starts from the defaults, saves every field and reads it back through /api/auth/me', async () => {
    const owner = await register()
    expect(owner.user).toMatchObject({
      phoneNumber: null,
      country: 'US',
      timezone: 'America/New_York',
      emergencyContact: null,
      emailNotifications: true,
      twoFactorEnabled: false,
    })

    const res = await putProfile(owner.token, { ...PROFILE, email: owner.email })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { message: string; user: PublicUser }
    expect(body.message).toBe('Profile updated.')
    const expected = { ...PROFILE, emergencyContact: 'charles@example.com', email: owner.email }
    expect(body.user).toMatchObject(expected)
    expect(body.user).not.toHaveProperty('passwordHash')

    const read = await userOf(await me(owner.token))
    expect(read).toMatchObject({ ...expected, profile: { displayName: 'Ada Lovelace' } })

    // Blank optional fields clear them; emailNotifications is true unless false.
    const cleared = await putProfile(owner.token, { ...PROFILE, phoneNumber: '  ', emergencyContact: '', emailNotifications: undefined })
    expect(cleared.status).toBe(200)
    expect(await userOf(await me(owner.token))).toMatchObject({ phoneNumber: null, emergencyContact: null, emailNotifications: true })
  })

  it('audits the changed fields by name, never their values', async () => {
    const owner = await register({ displayName: 'Audit Owner' })
    const same = { displayName: 'Audit Owner', country: 'US', timezone: 'America/New_York', emailNotifications: true }
    expect((await putProfile(owner.token, same)).status).toBe(200)
    expect((await putProfile(owner.token, { ...same, country: 'FR', phoneNumber: '555 123 4567' })).status).toBe(200)
    const entries = (await auditOf(owner.token)).filter((e) => e.action === 'account.profile_updated')
    // The unchanged save recorded nothing.
    expect(entries).toHaveLength(1)
    expect(entries[0]!.details).toEqual({ fields: 'phoneNumber,country', count: 2 })
    // Only what the entry says (ids and hashes are random hex, which may hold any digits).
    expect(JSON.stringify(entries.map((e) => [e.action, e.details]))).not.toContain('555')
  })

  it('keeps the e-mail read-only: the account’s own address is accepted, any other refused', async () => {
    const owner = await register()
    const other = await putProfile(owner.token, { ...PROFILE, email: 'someone-else@example.com' })
    expect(other.status).toBe(400)
    expect(await messageOf(other)).toBe(`email: ${PROFILE_MESSAGES.emailReadOnly}`)
    expect((await userOf(await me(owner.token))).email).toBe(owner.email)

    // Case and spaces do not make it another address; leaving it out is fine too.
    expect((await putProfile(owner.token, { ...PROFILE, email: ` ${owner.email.toUpperCase()} ` })).status).toBe(200)
    expect((await putProfile(owner.token, PROFILE)).status).toBe(200)
    expect((await userOf(await me(owner.token))).email).toBe(owner.email)
  })

  it('gives a clear message for each invalid field', async () => {
    const owner = await register()
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ displayName: 'A' }, `displayName: ${VALIDATION.displayNameMin}`],
      [{ displayName: '   ' }, `displayName: ${VALIDATION.displayNameMin}`],
      [{ displayName: 'x'.repeat(101) }, 'displayName: Display name must be at most 100 characters'],
      [{ email: 'not-an-address' }, `email: ${VALIDATION.invalidEmail}`],
      [{ phoneNumber: 'call me' }, `phoneNumber: ${PROFILE_MESSAGES.phoneInvalid}`],
      [{ phoneNumber: '12345' }, `phoneNumber: ${PROFILE_MESSAGES.phoneInvalid}`],
      [{ phoneNumber: 5551234567 }, `phoneNumber: ${PROFILE_MESSAGES.phoneInvalid}`],
      [{ country: 'NZ' }, `country: ${PROFILE_MESSAGES.countryInvalid}`],
      [{ country: undefined }, `country: ${PROFILE_MESSAGES.countryInvalid}`],
      [{ timezone: 'New York' }, `timezone: ${PROFILE_MESSAGES.timezoneInvalid}`],
      [{ timezone: 'Europe/Berlin' }, `timezone: ${PROFILE_MESSAGES.timezoneInvalid}`],
      [{ emergencyContact: 'mum' }, `emergencyContact: ${PROFILE_MESSAGES.emergencyContactInvalid}`],
      [{ emailNotifications: 'yes' }, `emailNotifications: ${PROFILE_MESSAGES.emailNotificationsInvalid}`],
      [{ twoFactorEnabled: 'on' }, `twoFactorEnabled: ${PROFILE_MESSAGES.twoFactorInvalid}`],
    ]
    for (const [patch, message] of cases) {
      const res = await putProfile(owner.token, { ...PROFILE, ...patch })
      expect(res.status, message).toBe(400)
      expect(await messageOf(res), JSON.stringify(patch)).toBe(message)
    }
    // Nothing of it was stored.
    expect(await userOf(await me(owner.token))).toMatchObject({ country: 'US', phoneNumber: null, twoFactorEnabled: false })
    expect((await call('/api/profile', { method: 'PUT', token: owner.token, rawBody: '{' })).status).toBe(400)
  })

  it('needs a session and changes only the signed-in owner’s profile', async () => {
    const owner = await register({ displayName: 'First Owner' })
    const bystander = await register({ displayName: 'Second Owner' })
    expect((await putProfile(undefined, PROFILE)).status).toBe(401)
    expect((await putProfile('not-a-token', PROFILE)).status).toBe(401)
    // The e-mail names the account being changed: another owner's address is refused.
    const hijack = await putProfile(owner.token, { ...PROFILE, email: bystander.email })
    expect(hijack.status).toBe(400)
    expect((await putProfile(owner.token, PROFILE)).status).toBe(200)
    const untouched = await userOf(await me(bystander.token))
    expect(untouched).toMatchObject({ displayName: 'Second Owner', country: 'US', phoneNumber: null, emailNotifications: true })
  })
})

describe('POST /api/profile/password', () => {
  const NEW_PASSWORD = 'a fresh and longer secret'

  it('refuses a wrong current password and leaves everything as it was', async () => {
    const owner = await register()
    const res = await changePassword(owner.token, { currentPassword: 'not my password', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe(`currentPassword: ${PROFILE_MESSAGES.currentPasswordIncorrect}`)
    expect((await login(owner.email, owner.password)).status).toBe(200)
    expect((await login(owner.email, NEW_PASSWORD)).status).toBe(401)
    expect((await me(owner.token)).status).toBe(200)
  })

  it('checks the new password with the registration rules', async () => {
    const owner = await register()
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ currentPassword: '', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, `currentPassword: ${PROFILE_MESSAGES.currentPasswordRequired}`],
      [{ currentPassword: owner.password, newPassword: 'short', confirmPassword: 'short' }, `newPassword: ${VALIDATION.registerPasswordMin}`],
      [{ currentPassword: owner.password, newPassword: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}!` }, `confirmPassword: ${VALIDATION.passwordsDontMatch}`],
      [{ currentPassword: owner.password, newPassword: NEW_PASSWORD }, `confirmPassword: ${VALIDATION.passwordsDontMatch}`],
      [{ currentPassword: owner.password, newPassword: owner.password, confirmPassword: owner.password }, `newPassword: ${PROFILE_MESSAGES.newPasswordSame}`],
      [{ currentPassword: owner.password, newPassword: 'x'.repeat(257), confirmPassword: 'x'.repeat(257) }, `newPassword: ${VALIDATION.passwordTooLong}`],
    ]
    for (const [body, message] of cases) {
      const res = await changePassword(owner.token, body)
      expect(res.status, message).toBe(400)
      expect(await messageOf(res)).toBe(message)
    }
    expect((await changePassword(undefined, { currentPassword: owner.password, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(401)
    expect((await login(owner.email, owner.password)).status).toBe(200)
  })

  it('changes the password, signs out the other sessions but keeps this one, and touches no one else', async () => {
    const owner = await register()
    const bystander = await register()
    const otherDevice = ((await (await login(owner.email, owner.password)).json()) as { token: string }).token
    const resetToken = await requestResetToken(owner.email)

    const res = await changePassword(owner.token, { currentPassword: owner.password, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'Your password has been updated. Other devices have been signed out.' })

    // The old password no longer signs in; the new one does.
    expect((await login(owner.email, owner.password)).status).toBe(401)
    expect((await login(owner.email, NEW_PASSWORD)).status).toBe(200)
    // This session goes on; the other device's is over.
    expect((await me(owner.token)).status).toBe(200)
    expect((await me(otherDevice)).status).toBe(401)
    // A reset link mailed before the change no longer works.
    const reset = await call('/api/auth/reset-password', { body: { token: resetToken, password: 'yet another password' } })
    expect(reset.status).toBe(400)
    expect((await login(owner.email, NEW_PASSWORD)).status).toBe(200)

    // The other account is untouched.
    expect((await me(bystander.token)).status).toBe(200)
    expect((await login(bystander.email, bystander.password)).status).toBe(200)

    // Audited without any secret, and the owner is told by e-mail.
    const [entry] = (await auditOf(owner.token)).filter((e) => e.action === 'account.password_changed')
    expect(entry?.details).toEqual({ otherSessionsRevoked: 1 })
    expect(JSON.stringify(await auditOf(owner.token))).not.toContain(NEW_PASSWORD)
    const mails = await outboxFor(owner.email)
    expect(mails.some((m) => m.subject === 'Your Legacy Vault password was changed')).toBe(true)
  })

  it('limits attempts per account', async () => {
    const owner = await register()
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) {
      const res = await changePassword(owner.token, { currentPassword: `wrong ${i}`, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })
      statuses.push(res.status)
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true)
    expect(statuses.at(-1)).toBe(429)
  })
})
