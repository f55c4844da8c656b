import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server'
import { describe, expect, it } from 'vitest'
import type { AuditEntry } from '../../contract/audit'
import type { PublicUser } from '../../contract/auth'
import type { ChannelsView } from '../../contract/channels'
import { FRESH_PROOF_MESSAGES, FRESH_PROOF_MS } from '../../contract/fresh-proof'
import { VALIDATION } from '../../contract/messages'
import { PROFILE_MESSAGES, type ChangePasswordResponse } from '../../contract/profile'
import { WEBAUTHN_PATHS, type SecurityKey, type SecurityKeyList } from '../../contract/webauthn'
import { call, login, me, messageOf, outboxFor, register, requestResetToken, waitFor, ownerSessions } from './helpers'
import { SoftAuthenticator } from './soft-authenticator'

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

/** Registers a software authenticator's key to the owner (a fresh sign-in may). */
async function addKey(token: string, name: string): Promise<{ auth: SoftAuthenticator; key: SecurityKey }> {
  const auth = await SoftAuthenticator.create()
  const options = await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST', token })
  expect(options.status).toBe(200)
  const response = await auth.register((await options.json()) as PublicKeyCredentialCreationOptionsJSON)
  const res = await call(WEBAUTHN_PATHS.registerVerify, { token, body: { response, name } })
  expect(res.status).toBe(201)
  return { auth, key: ((await res.json()) as { key: SecurityKey }).key }
}

/** A sign-in with the key alone: the server's status (200 with a session, 401 for a key it does not know). */
async function signInWithKey(auth: SoftAuthenticator): Promise<number> {
  const options = await call(WEBAUTHN_PATHS.loginOptions, { method: 'POST' })
  const response = await auth.assert((await options.json()) as PublicKeyCredentialRequestOptionsJSON)
  return (await call(WEBAUTHN_PATHS.loginVerify, { body: { response } })).status
}

async function keysOf(token: string): Promise<SecurityKeyList> {
  const res = await call(WEBAUTHN_PATHS.keys, { token })
  expect(res.status).toBe(200)
  return (await res.json()) as SecurityKeyList
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

describe('PUT /api/profile: the emergency contact is a trust change', () => {
  const stale = (userId: string) => ownerSessions(userId, 'update sessions set proved_at = ?', Date.now() - FRESH_PROOF_MS - 1000).run()
  const prove = (token: string, password: string) => call('/api/auth/fresh-proof', { token, body: { method: 'password', password } })
  const contactMail = async (address: string) => (await outboxFor(address)).filter((m) => m.subject === 'Your emergency contact was changed')
  const contactAudits = async (token: string) => (await auditOf(token)).filter((e) => e.action === 'account.emergency_contact_set').map((e) => e.details)
  const opted = (token: string) => call('/api/channels/contact', { method: 'PUT', token, body: { email: 'friend@example.com', alerts: true } })

  it('a stale session may save the rest, but not name, change or remove the contact: refused whole, nothing written', async () => {
    const owner = await register({ displayName: 'Stale Owner' })
    const base = { displayName: 'Stale Owner', country: 'US', timezone: 'America/New_York', emergencyContact: null }
    await stale(owner.user.id)
    // No contact change: no proof needed.
    expect((await putProfile(owner.token, { ...base, country: 'FR' })).status).toBe(200)

    const refused = await putProfile(owner.token, { ...base, displayName: 'Renamed Owner', emergencyContact: 'friend@example.com' })
    expect(refused.status).toBe(403)
    expect(await messageOf(refused)).toBe(FRESH_PROOF_MESSAGES.required)
    expect(await userOf(await me(owner.token))).toMatchObject({ displayName: 'Stale Owner', country: 'FR', emergencyContact: null })
    expect(await contactAudits(owner.token)).toEqual([])
    expect(await contactMail(owner.email)).toEqual([])

    expect((await prove(owner.token, owner.password)).status).toBe(200)
    const saved = await putProfile(owner.token, { ...base, country: 'FR', emergencyContact: 'Friend@Example.com' })
    expect(saved.status).toBe(200)
    expect((await userOf(saved)).emergencyContact).toBe('friend@example.com')
    expect(await contactAudits(owner.token)).toEqual([{ change: 'added', alerts: false, via: 'profile' }])
    const [mail] = await waitFor(async () => (await contactMail(owner.email)).length === 1 && contactMail(owner.email))
    expect(mail!.text).toContain('Your emergency contact is now friend@example.com, and they will not be told anything unless you choose to.')
    expect(mail!.text).toContain('This wasn’t me')

    // Removing it needs proof too.
    await stale(owner.user.id)
    expect((await putProfile(owner.token, { ...base, country: 'FR', emergencyContact: '' })).status).toBe(403)
    expect((await userOf(await me(owner.token))).emergencyContact).toBe('friend@example.com')
    // A save that leaves the contact as it is still needs none.
    expect((await putProfile(owner.token, { ...base, country: 'UK', emergencyContact: 'friend@example.com' })).status).toBe(200)
    expect(await contactAudits(owner.token)).toHaveLength(1)
  })

  it('changing an opted-in contact keeps the opt-in and says so; removing it ends the opt-in', async () => {
    const owner = await register()
    expect((await opted(owner.token)).status).toBe(200)
    const base = { ...PROFILE, emergencyContact: 'friend@example.com' }
    expect((await putProfile(owner.token, { ...base, emergencyContact: 'other@example.com' })).status).toBe(200)
    expect(await contactAudits(owner.token)).toContainEqual({ change: 'changed', alerts: true, via: 'profile' })
    await waitFor(async () => (await contactMail(owner.email)).some((m) => m.text.includes('now other@example.com, and they will be told if a release starts without you')))

    expect((await putProfile(owner.token, { ...base, emergencyContact: null })).status).toBe(200)
    expect(await contactAudits(owner.token)).toContainEqual({ change: 'removed', alerts: false, via: 'profile' })
    // Named again later, the contact is not told until the owner opts in again.
    expect((await putProfile(owner.token, base)).status).toBe(200)
    const channels = (await (await call('/api/channels', { token: owner.token })).json()) as ChannelsView
    expect(channels.contact).toEqual({ address: 'friend@example.com', alerts: false, bouncing: false })
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
    expect(await res.json()).toEqual({ message: 'Your password has been updated. Other devices have been signed out.', removedKeys: 0, keysLeft: 0, twoFactorTurnedOff: false })

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
    expect(entry?.details).toEqual({ otherSessionsRevoked: 1, removedKeys: 0, keysLeft: 0, twoFactorTurnedOff: false })
    expect(JSON.stringify(await auditOf(owner.token))).not.toContain(NEW_PASSWORD)
    const mails = await outboxFor(owner.email)
    expect(mails.some((m) => m.subject === 'Your Legacy Vault password was changed')).toBe(true)
  })

  it('removes the security keys named with it (they no longer sign in), keeps the others, and says so in the answer and the e-mail', async () => {
    const owner = await register()
    const first = await addKey(owner.token, 'Desk key')
    const second = await addKey(owner.token, 'Spare key')
    const kept = await addKey(owner.token, 'Keyring key')
    const bystander = await register()
    const theirs = await addKey(bystander.token, 'Someone else’s key')

    const res = await changePassword(owner.token, {
      currentPassword: owner.password,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
      // Another owner's key and an id nobody has are ignored; a repeated id counts once.
      removeKeyIds: [first.key.id, second.key.id, first.key.id, theirs.key.id, 'no-such-key'],
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as ChangePasswordResponse
    const says =
      '2 security keys were removed. 1 security key can still sign in to your account: if you did not add it, remove it from your Profile Settings.'
    expect(body).toEqual({
      message: `Your password has been updated. Other devices have been signed out. ${says}`,
      removedKeys: 2,
      keysLeft: 1,
      twoFactorTurnedOff: false,
    })

    // The removed keys no longer sign in; the kept one does, and so does the other owner's.
    expect(await signInWithKey(first.auth)).toBe(401)
    expect(await signInWithKey(second.auth)).toBe(401)
    expect(await signInWithKey(kept.auth)).toBe(200)
    expect(await signInWithKey(theirs.auth)).toBe(200)
    expect((await keysOf(owner.token)).keys.map((k) => k.name)).toEqual(['Keyring key'])
    expect((await keysOf(bystander.token)).keys.map((k) => k.id)).toEqual([theirs.key.id])
    expect((await me(owner.token)).status).toBe(200)

    const [mail] = (await outboxFor(owner.email)).filter((m) => m.subject === 'Your Legacy Vault password was changed')
    expect(mail?.text).toContain(says)
    expect(mail?.text).toContain('Every other device that was signed in has been signed out.')
    expect((await outboxFor(bystander.email)).some((m) => m.subject.includes('password was changed'))).toBe(false)

    const entries = await auditOf(owner.token)
    expect(entries.find((e) => e.action === 'account.password_changed')?.details).toEqual({ otherSessionsRevoked: 0, removedKeys: 2, keysLeft: 1, twoFactorTurnedOff: false })
    expect(entries.filter((e) => e.action === 'account.security_key_removed').map((e) => e.details.key).sort()).toEqual(
      [first.key.id.slice(0, 12), second.key.id.slice(0, 12)].sort(),
    )
  })

  it('says what was not done: with no key named, the keys that can still sign in', async () => {
    const owner = await register()
    await addKey(owner.token, 'Desk key')
    await addKey(owner.token, 'Spare key')
    const res = await changePassword(owner.token, { currentPassword: owner.password, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, removeKeyIds: [] })
    expect(res.status).toBe(200)
    const says = 'No security key was removed. 2 security keys can still sign in to your account: if you did not add them, remove them from your Profile Settings.'
    expect(await res.json()).toEqual({
      message: `Your password has been updated. Other devices have been signed out. ${says}`,
      removedKeys: 0,
      keysLeft: 2,
      twoFactorTurnedOff: false,
    })
    const [mail] = (await outboxFor(owner.email)).filter((m) => m.subject === 'Your Legacy Vault password was changed')
    expect(mail?.text).toContain(says)
  })

  it('turns two-factor sign-in off when the last key goes, and says so', async () => {
    const owner = await register()
    const only = await addKey(owner.token, 'Only key')
    expect((await putProfile(owner.token, { ...PROFILE, twoFactorEnabled: true })).status).toBe(200)
    expect((await login(owner.email, owner.password)).status).toBe(200)

    const res = await changePassword(owner.token, { currentPassword: owner.password, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, removeKeyIds: [only.key.id] })
    expect(res.status).toBe(200)
    const body = (await res.json()) as ChangePasswordResponse
    expect(body).toMatchObject({ removedKeys: 1, keysLeft: 0, twoFactorTurnedOff: true })
    expect(body.message).toContain('1 security key was removed. No security key can sign in to your account now.')
    expect(body.message).toContain('Two-factor sign-in has been turned off')

    expect(await userOf(await me(owner.token))).toMatchObject({ twoFactorEnabled: false, securityKeyCount: 0 })
    expect(await signInWithKey(only.auth)).toBe(401)
    // The new password alone signs in: no key step is asked for.
    const signIn = await login(owner.email, NEW_PASSWORD)
    expect(signIn.status).toBe(200)
    expect(await signIn.json()).toHaveProperty('token')
    const [mail] = (await outboxFor(owner.email)).filter((m) => m.subject === 'Your Legacy Vault password was changed')
    expect(mail?.text).toContain('Two-factor sign-in has been turned off')
  })

  it('removes nothing when the current password is wrong, and checks the list', async () => {
    const owner = await register()
    const key = await addKey(owner.token, 'Desk key')
    const wrong = await changePassword(owner.token, { currentPassword: 'not my password', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, removeKeyIds: [key.key.id] })
    expect(wrong.status).toBe(400)
    const cases: Array<[unknown, string]> = [
      [key.key.id, `removeKeyIds: ${PROFILE_MESSAGES.removeKeyIdsInvalid}`],
      [[''], `removeKeyIds.0: ${PROFILE_MESSAGES.removeKeyIdsInvalid}`],
      [[42], `removeKeyIds.0: ${PROFILE_MESSAGES.removeKeyIdsInvalid}`],
      [Array.from({ length: 51 }, (_, i) => `key-${i}`), `removeKeyIds: ${PROFILE_MESSAGES.removeKeyIdsTooMany}`],
    ]
    for (const [removeKeyIds, message] of cases) {
      const res = await changePassword(owner.token, { currentPassword: owner.password, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, removeKeyIds })
      expect(res.status, message).toBe(400)
      expect(await messageOf(res)).toBe(message)
    }
    expect((await keysOf(owner.token)).keys.map((k) => k.id)).toEqual([key.key.id])
    expect(await signInWithKey(key.auth)).toBe(200)
    expect((await login(owner.email, owner.password)).status).toBe(200)
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
