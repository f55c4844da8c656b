import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CHANNEL_COPY } from '../../contract/channels-constants'
import { inactivityMonitoringText } from '../../contract/settings'
import { FAILED_UNLOCK_TRIGGER_NAME } from '../../contract/trigger-types'
import { TRIGGER_TYPE_LABELS } from '../../contract/triggers'
import { RELEASE_PROTOCOL_LABELS } from '../../contract/vault-items'
import { copyrightText, HEIR_ENTRY } from '@/components/layout/footer-copy'
import { BENEFICIARY_FIELD_HINTS, NOTIFICATION_COPY, notificationBadge } from '@/features/circle/copy'
import { FAQS, PAYMENT_GRACE_AFTER, PAYMENT_GRACE_DURING, PAYMENT_GRACE_TITLE } from '@/features/marketing/content'
import { TRIGGER_LABELS as POLICY_TRIGGER_LABELS } from '@/features/policies/copy'
import { identityUploadChoices } from '@/features/releases/identity-card'

// Sentences the product said and did not keep (issue 0.3 · 6 of 7), pinned to what it does.

const root = join(__dirname, '../..')
const read = (path: string) => readFileSync(join(root, path), 'utf8')
function filesUnder(dir: string, ends: RegExp): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name)
    return statSync(join(root, path)).isDirectory() ? filesUnder(path, ends) : ends.test(name) ? [path] : []
  })
}

describe('a beneficiary’s notifications switch', () => {
  it('says only the early notice stops: the release e-mail with their link always goes (engine/advance.ts)', () => {
    const off = NOTIFICATION_COPY.disabled('Ada')
    expect(off).not.toMatch(/will not be e-mailed when items are released/)
    expect(off).toBe('Ada will not be told when a release starts. When items are released, they still receive the e-mail with their link to open them.')
    expect(NOTIFICATION_COPY.enabled('Ada')).toBe('Ada will be told by e-mail as soon as a release that may hand items to them starts.')
    expect(notificationBadge({ notificationStatus: 'pending', sendAssetNotifications: false }).title).toContain('still receive the e-mail with their link')
    expect(BENEFICIARY_FIELD_HINTS.sendAssetNotifications.hint).toContain('always goes')
  })

  it('does not promise that items reach only a verified address: a release does not wait for it', () => {
    const hint = BENEFICIARY_FIELD_HINTS.sendVerificationEmail.hint
    expect(hint).not.toMatch(/can only reach a verified address/)
    expect(hint).toContain('a release does not wait for it')
  })
})

describe('/settings and /profile', () => {
  it('promise check-in e-mails only while an inactivity trigger runs the clock', () => {
    expect(inactivityMonitoringText(true)).toBe(
      'We send you regular check-in e-mails. If you do not respond within the grace period, your inheritance triggers activate automatically.',
    )
    expect(inactivityMonitoringText(false)).not.toMatch(/regular check-in e-mails/)
    expect(inactivityMonitoringText(false)).toContain('we send none')
    expect(read('web/features/settings/settings-page.tsx')).not.toContain('We send you regular check-in e-mails')
  })

  it('say what the emergency contact is told, and when, in the words of the setting that turns it on', () => {
    const hint = CHANNEL_COPY.profileContactHint
    expect(hint).not.toMatch(/someone we may contact/)
    expect(hint).toContain(`"${CHANNEL_COPY.contactAlerts}"`)
    expect(hint).toContain('you have not answered us and how to reach you')
    expect(hint).toContain('Otherwise we never contact them')
    expect(read('web/features/profile/profile-page.tsx')).toContain('hint={CHANNEL_COPY.profileContactHint}')
  })
})

describe('a failed payment, as worker/middleware/subscription.ts has it', () => {
  const faq = FAQS.find((f) => f.question === 'What happens if a payment fails?')!.answer

  it('never says the owner is never locked out, nor that uploads are merely "limited"', () => {
    for (const text of [PAYMENT_GRACE_TITLE, faq, ...PAYMENT_GRACE_DURING, ...PAYMENT_GRACE_AFTER, read('web/features/marketing/legal/terms-content.tsx')]) {
      expect(text).not.toMatch(/never locks you out|uploads are limited|fully accessible/i)
    }
  })

  it('says uploads wait during the grace, the vault closes after it, and what stays open', () => {
    expect(PAYMENT_GRACE_DURING[0]).toBe('Everything in your vault stays open to you; only new uploads wait')
    expect(PAYMENT_GRACE_AFTER).toContain('Your vault, its items, beneficiaries, policies and triggers close to you until payment is restored')
    expect(faq).toContain('your vault closes to you until payment is restored')
    expect(faq).toContain('pause your triggers, cancel a release and check in')
  })
})

describe('the failed-unlock trigger’s name', () => {
  it('is the same wherever a person reads it, and never "Biometric Failure"', () => {
    expect(FAILED_UNLOCK_TRIGGER_NAME).toBe('Failed unlock attempts')
    expect(TRIGGER_TYPE_LABELS.biometric_failure.title).toBe(FAILED_UNLOCK_TRIGGER_NAME)
    expect(RELEASE_PROTOCOL_LABELS.BIOMETRIC_FAILURE).toBe(FAILED_UNLOCK_TRIGGER_NAME)
    expect(POLICY_TRIGGER_LABELS.biometric_failure.label).toBe(FAILED_UNLOCK_TRIGGER_NAME)
  })

  it('appears in no page, message or e-mail as "biometric" (the identifiers biometric_failure and biometricFailure aside)', () => {
    const files = [...filesUnder('web', /\.tsx?$/), ...filesUnder('contract', /\.ts$/), ...filesUnder('worker/mail', /\.ts$/)]
    const offenders = files.filter((path) =>
      read(path)
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
        .some((line) => /biometric(?![_A-Z-]|Config|ConfigSchema)/i.test(line.replace(/biometric[_-]failure|biometricFailure|BIOMETRIC_FAILURE|biometricConfig\w*|BiometricConfig/g, ''))),
    )
    expect(offenders).toEqual([])
  })
})

describe('the footers and the sign-in page', () => {
  it('print this year’s copyright', () => {
    expect(copyrightText(new Date(2026, 5, 1))).toBe('© 2026 Legacy Vault. All rights reserved.')
    for (const path of ['web/components/layout/public-footer.tsx', 'web/components/layout/app-shell.tsx']) expect(read(path)).not.toMatch(/© 20\d\d/)
  })

  it('have no "Help Center" that goes nowhere, and "Contact Us" writes to support, not the privacy officer', () => {
    const footer = read('web/components/layout/public-footer.tsx')
    expect(footer).not.toContain('Help Center')
    expect(footer).toMatch(/href=\{`mailto:\$\{SUPPORT_EMAIL\}`\}[^>]*>Contact Us</)
    expect(read('web/components/layout/app-shell.tsx')).toMatch(/href=\{`mailto:\$\{SUPPORT_EMAIL\}`\}[^>]*>Contact</)
  })

  it('link an heir to the portal’s "Send me a new link" from the footer and the sign-in page', () => {
    expect(HEIR_ENTRY).toEqual({ label: 'Were you left something?', to: '/beneficiary-portal' })
    expect(read('web/components/layout/public-footer.tsx')).toContain('to={HEIR_ENTRY.to}')
    expect(read('web/routes/login.tsx')).toContain('to={HEIR_ENTRY.to}')
    expect(read('web/features/releases/portal-home.tsx')).toContain('Send me a new link')
  })
})

describe('the heir’s identity upload on the portal', () => {
  it('offers only the types the owner’s policies accept, and says so', () => {
    expect(identityUploadChoices(['passport', 'national_id'], false, null)).toEqual({ types: ['passport', 'national_id'], acceptedText: 'Accepted: Passport, National ID.', rejection: null })
    expect(identityUploadChoices(null, false, null)).toMatchObject({ types: ['drivers_license', 'passport', 'state_id', 'national_id'], acceptedText: null })
  })

  it('tells a rejected heir the approver’s note and what to send instead', () => {
    expect(identityUploadChoices(['passport'], true, 'The photo is too dark.').rejection).toBe(
      'Your previous document was not accepted. The approver\'s note: "The photo is too dark." Please upload a clear, current copy of one of these: Passport.',
    )
    expect(identityUploadChoices(null, true, null).rejection).toBe('Your previous document was not accepted. Please upload a clear, current copy.')
  })
})
