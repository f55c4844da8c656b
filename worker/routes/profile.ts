import { mirrorAccount } from '../owner/account'
import { and, eq, inArray, isNull, notExists, sql } from 'drizzle-orm'
import { Hono } from 'hono'
import {
  changePasswordBodySchema,
  passwordChangedMessage,
  PROFILE_FIELDS,
  PROFILE_MESSAGES,
  profileBodySchema,
  type ChangePasswordResponse,
  type ProfileUpdate,
} from '../../contract/profile'
import { WEBAUTHN_MESSAGES } from '../../contract/webauthn'
import { passwordResets, users, webauthnCredentials, type UserRow } from '../db/schema'
import { ownerVault } from '../owner/client'
import { badRequest, conflict } from '../lib/errors'
import { validate } from '../lib/validate'
import { sendEmail } from '../mail'
import { passwordChangedEmail } from '../mail/templates'
import { requireUser, userOf } from '../middleware/auth'
import { assertFreshProof } from '../middleware/fresh-proof'
import { jsonBodyLimit } from '../middleware/body-limit'
import { enforceLimit } from '../middleware/rate-limit'
import { audit } from '../services/audit'
import { checkContactChange, recordContactChange, storedContact } from '../services/emergency-contact'
import { notMeUrl, signedInAt, tellOwner } from '../services/trust-mail'
import { hashPassword, verifyPassword } from '../services/passwords'
import { publicUserOf } from '../services/users'
import { countKeys } from '../webauthn/credentials'
import type { AppEnv } from '../types'

/** The names of the profile fields whose stored value differs from the update. */
function changedFields(before: UserRow, update: ProfileUpdate): string[] {
  return PROFILE_FIELDS.filter((field) => before[field] !== update[field])
}

// The signed-in owner's profile (seeds 000 §2 'Profile Settings page', §7 PUT /api/profile).
export const profileRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(jsonBodyLimit)
  // The whole editable profile at once. The e-mail is read-only: it may be sent back unchanged
  // (the spec's client does), never changed. Two-factor can be turned on only with a security key
  // registered; the update checks that in the same statement that removing a key checks the flag.
  .put('/', validate('json', profileBodySchema), async (c) => {
    const update = c.req.valid('json')
    const current = (await userOf(c))
    if (update.email !== undefined && update.email !== current.email) {
      throw badRequest(`email: ${PROFILE_MESSAGES.emailReadOnly}`, {
        errors: [{ field: 'email', message: PROFILE_MESSAGES.emailReadOnly }],
      })
    }
    // Turning two-factor off lets a password alone in again.
    if (current.twoFactorEnabled && update.twoFactorEnabled === false) await assertFreshProof(c)
    // The page edits the contact's address only; removing it also ends the opt-in, so a contact
    // named later is not told until the owner chooses so again.
    const contact = { email: update.emergencyContact, alerts: update.emergencyContact !== null && current.emergencyContactAlerts }
    const contactChanged = await checkContactChange(c, storedContact(current), contact)
    const fields = changedFields(current, update)
    if (fields.length === 0) return c.json({ message: 'Nothing to update.', user: await publicUserOf(c.env, c.var.db, current) })
    const [user] = await c.var.db
      .update(users)
      .set({
        displayName: update.displayName,
        phoneNumber: update.phoneNumber,
        country: update.country,
        timezone: update.timezone,
        emergencyContact: contact.email,
        emergencyContactAlerts: contact.alerts,
        emailNotifications: update.emailNotifications,
        twoFactorEnabled: update.twoFactorEnabled,
        updatedAt: Date.now(),
      })
      .where(and(eq(users.id, current.id), update.twoFactorEnabled ? sql`exists (select 1 from ${webauthnCredentials} where ${webauthnCredentials.userId} = ${current.id})` : undefined))
      .returning()
    if (!user) throw conflict(WEBAUTHN_MESSAGES.twoFactorNeedsKey)
    await mirrorAccount(user.id, user)
    // Which fields changed, by name only: never their values.
    await audit(c, 'account.profile_updated', { fields: fields.join(','), count: fields.length })
    if (current.twoFactorEnabled && !user.twoFactorEnabled) await tellOwner(c, user, 'two_factor_off')
    if (contactChanged) await recordContactChange(c, user, contactChanged, 'profile')
    return c.json({ message: 'Profile updated.', user: await publicUserOf(c.env, c.var.db, user) })
  })
  // Changing the password while signed in: the current one proves it is the owner at the keyboard.
  // Every other session of the account is revoked; the one making the change stays signed in. A
  // key someone else added would still let them in, so the owner may name keys to remove with it.
  .post('/password', validate('json', changePasswordBodySchema), async (c) => {
    const { currentPassword, newPassword, removeKeyIds = [] } = c.req.valid('json')
    const user = (await userOf(c))
    // Slows guessing the current password with a stolen session (the login limiter, per account).
    await enforceLimit(c.env, 'LOGIN_LIMITER', `password-change:account:${user.id}`)
    // 400, not 401: the session is fine, and a 401 reads as "signed out" to clients.
    if (!(await verifyPassword(currentPassword, user.passwordHash))) {
      throw badRequest(`currentPassword: ${PROFILE_MESSAGES.currentPasswordIncorrect}`, {
        errors: [{ field: 'currentPassword', message: PROFILE_MESSAGES.currentPasswordIncorrect }],
      })
    }
    const now = Date.now()
    const passwordHash = await hashPassword(newPassword)
    const db = c.var.db
    // One transaction; each statement acts only if this request's hash is the one stored, so two
    // concurrent changes cannot interleave (the loser changes nothing and is told so).
    const ours = sql`exists (select 1 from ${users} where ${users.id} = ${user.id} and ${users.passwordHash} = ${passwordHash})`
    const keyIds = [...new Set(removeKeyIds)]
    const [claimed, , removed, turnedOff] = await db.batch([
      db
        .update(users)
        .set({ passwordHash, updatedAt: now })
        .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)))
        .returning({ id: users.id }),
      // A reset link mailed before the change must not undo it.
      db
        .update(passwordResets)
        .set({ usedAt: now })
        .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt), ours)),
      // The keys named, of this owner's only: another owner's id, or one already gone, is ignored.
      db
        .delete(webauthnCredentials)
        .where(and(eq(webauthnCredentials.userId, user.id), keyIds.length ? inArray(webauthnCredentials.id, keyIds) : sql`0`, ours))
        .returning({ id: webauthnCredentials.id }),
      // With no key left, two-factor by security key could never be completed: it is turned off
      // (the owner has just proved it is them with the password; removeKey refuses the last key
      // instead, because a session alone has not).
      db
        .update(users)
        .set({ twoFactorEnabled: false })
        .where(
          and(
            eq(users.id, user.id),
            eq(users.twoFactorEnabled, true),
            keyIds.length ? undefined : sql`0`,
            notExists(db.select({ one: sql`1` }).from(webauthnCredentials).where(eq(webauthnCredentials.userId, user.id))),
            ours,
          ),
        )
        .returning({ id: users.id }),
    ])
    if (claimed.length === 0) throw conflict(PROFILE_MESSAGES.passwordChangeConflict)
    // Every other session ends, in the owner's object where they are checked (after the change is in).
    const revoked = { length: await ownerVault(c.env, user.id).revokeSessions(c.var.sessionId) }
    const keys = { removedKeys: removed.length, keysLeft: await countKeys(db, user.id), twoFactorTurnedOff: turnedOff.length > 0 }
    await audit(c, 'account.password_changed', { otherSessionsRevoked: revoked.length, ...keys })
    for (const { id } of removed) await audit(c, 'account.security_key_removed', { key: id.slice(0, 12), with: 'password_change' })
    // A security notice, whatever the notification preference.
    await sendEmail(c.env, c.executionCtx, db, {
      to: user.email,
      kind: 'password_changed',
      ...passwordChangedEmail({
        displayName: user.displayName,
        loginUrl: `${c.env.APP_ORIGIN}/login`,
        keptCurrentDevice: true,
        ...keys,
        notMeUrl: notMeUrl(c.env, user.id, await signedInAt(c)),
      }),
    })
    return c.json({ message: passwordChangedMessage(keys), ...keys } satisfies ChangePasswordResponse)
  })
