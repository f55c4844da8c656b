import { zodResolver } from '@hookform/resolvers/zod'
import { Link } from '@tanstack/react-router'
import { AlertTriangle, Bell, KeyRound, Pencil, Save, ShieldCheck, User, X } from 'lucide-react'
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { Controller, useForm } from 'react-hook-form'
import type { PublicUser } from '../../../contract/auth'
import { CHANNEL_COPY } from '../../../contract/channels-constants'
import {
  changePasswordBodySchema,
  COUNTRY_OPTIONS,
  keysAfterPasswordChangeText,
  PROFILE_MESSAGES,
  profileBodySchema,
  TIMEZONE_OPTIONS,
  type ChangePasswordBody,
  type ProfileBody,
  type ProfileUpdate,
} from '../../../contract/profile'
import { PageHeader } from '@/components/layout/page-header'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardIconTitle } from '@/components/ui/card'
import { Detail } from '@/components/ui/detail'
import { InputField, PasswordField, SelectField } from '@/components/ui/form-field'
import { Label } from '@/components/ui/label'
import { LoadError } from '@/components/ui/load-error'
import { PageSpinner } from '@/components/ui/spinner'
import { Switch } from '@/components/ui/switch'
import { useCurrentUser } from '@/features/auth/api'
import { AuthenticatorCard } from '@/features/authenticator/authenticator-card'
import { SecurityKeysCard } from '@/features/security-keys/security-keys-card'
import { SessionsCard } from '@/features/sessions/sessions-card'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { useChangePassword, useUpdateProfile } from './api'
import { RemoveKeysField } from './remove-keys-field'
import {
  memberSince,
  PASSWORD_FORM_DEFAULTS,
  passwordFailureToast,
  planLabel,
  profileFailureToast,
  profileFormValues,
  serverFieldErrors,
  toProfileBody,
} from './profile-form'

const PROFILE_FORM_ID = 'profile-form'
/** What the switch controls, and what it never turns off (an owner's plan depends on those). */
const PROFILE_NOTIFICATION_COPY = {
  always:
    'Always sent, whatever this switch says, because your plan depends on them: check-in e-mails and their reminders, alerts when a release starts (with its cancel link), payment problems and security notices such as a changed password.',
  optional: 'Optional e-mails only: product news and tips. We send none yet; switched off, we never will.',
} as const

const PROFILE_FIELDS = ['displayName', 'email', 'phoneNumber', 'country', 'timezone', 'emergencyContact', 'emailNotifications'] as const
const PASSWORD_FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const

/** /profile: 'Profile Settings' (seeds 000 §2 'Profile Settings page'). */
export function ProfilePage() {
  const query = useCurrentUser()
  if (query.isPending) return <PageSpinner label="Loading your profile" />
  if (query.isError || !query.data) {
    return (
      <div className="mx-auto max-w-3xl">
        <LoadError
          title="Error Loading Profile"
          message={errorText(query.error, 'Unable to load your profile. Please try again.')}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      </div>
    )
  }
  return <ProfileSettings user={query.data} />
}

function ProfileSettings({ user }: { user: PublicUser }) {
  const [editing, setEditing] = useState(false)
  const update = useUpdateProfile()
  const editButton = useRef<HTMLButtonElement>(null)
  const form = useForm<ProfileBody, unknown, ProfileUpdate>({
    resolver: zodResolver(profileBodySchema),
    defaultValues: profileFormValues(user),
  })
  const { errors } = form.formState

  // Entering edit mode puts the cursor at the end of the first field; leaving it returns focus to the button.
  const wasEditing = useRef(false)
  const nameInput = useRef<HTMLInputElement | null>(null)
  const displayName = form.register('displayName')
  useEffect(() => {
    if (editing) {
      // The field was reset while disabled, which leaves its caret at the start.
      const input = nameInput.current
      input?.focus()
      input?.setSelectionRange(input.value.length, input.value.length)
    } else if (wasEditing.current) editButton.current?.focus()
    wasEditing.current = editing
  }, [editing])

  // Shown, not being edited: the details as they now are (the Settings card also edits the contact).
  useEffect(() => {
    if (!editing) form.reset(profileFormValues(user))
  }, [user, editing, form])

  const startEditing = () => {
    form.reset(profileFormValues(user))
    setEditing(true)
  }
  const cancel = () => {
    form.reset(profileFormValues(user))
    update.reset()
    setEditing(false)
  }
  // Esc while editing the profile is Cancel.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && editing && !update.isPending) {
      event.preventDefault()
      cancel()
    }
  }

  const onSubmit = form.handleSubmit((values) =>
    update.mutate(toProfileBody(values, user), {
      onSuccess: ({ user: saved }) => {
        form.reset(profileFormValues(saved))
        setEditing(false)
        toast({ title: PROFILE_MESSAGES.updatedTitle, description: PROFILE_MESSAGES.updatedBody, variant: 'success' })
      },
      onError: (error) => {
        for (const [field, message] of Object.entries(serverFieldErrors(error, PROFILE_FIELDS))) {
          form.setError(field as (typeof PROFILE_FIELDS)[number], { message })
        }
        const content = profileFailureToast(error)
        if (content) toast({ ...content, variant: 'destructive' })
      },
    }),
  )

  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <PageHeader title="Profile Settings" description="Your personal details, notifications, password and account.">
        <div className="flex flex-wrap gap-2">
          {editing ? (
            <>
              <Button variant="outline" onClick={cancel} disabled={update.isPending}>
                <X aria-hidden /> Cancel
              </Button>
              <Button type="submit" form={PROFILE_FORM_ID} disabled={update.isPending}>
                <Save aria-hidden /> {update.isPending ? 'Saving...' : 'Save Changes'}
              </Button>
            </>
          ) : (
            <Button ref={editButton} onClick={startEditing}>
              <Pencil aria-hidden /> Edit Profile
            </Button>
          )}
        </div>
      </PageHeader>

      <Card>
        <CardHeader>
          <CardIconTitle icon={User}>Personal Information</CardIconTitle>
          <CardDescription>{editing ? 'Change your details, then select Save Changes.' : 'Your details as we hold them. Select Edit Profile to change them.'}</CardDescription>
        </CardHeader>
        <CardContent>
          <form id={PROFILE_FORM_ID} onSubmit={onSubmit} onKeyDown={onKeyDown} noValidate aria-label="Personal information">
            <fieldset disabled={!editing || update.isPending} className="grid gap-4 *:content-start sm:grid-cols-2">
              <InputField
                label="Display name"
                autoComplete="name"
                error={errors.displayName?.message}
                {...displayName}
                ref={(element) => {
                  displayName.ref(element)
                  nameInput.current = element
                }}
              />
              <InputField
                label="Email"
                type="email"
                value={user.email}
                readOnly
                // Never editable, whatever the mode (seeds 000 §5).
                disabled
                hint="Email cannot be changed: it is the address you sign in with."
                error={errors.email?.message}
              />
              <InputField
                label="Phone number"
                type="tel"
                inputMode="tel"
                autoComplete="tel"
                placeholder="+1 555 123 4567"
                hint="Optional."
                error={errors.phoneNumber?.message}
                {...form.register('phoneNumber')}
              />
              <InputField
                label="Emergency contact"
                type="email"
                autoComplete="off"
                placeholder="someone@example.com"
                hint={CHANNEL_COPY.profileContactHint}
                error={errors.emergencyContact?.message}
                {...form.register('emergencyContact')}
              />
              <SelectField label="Country" error={errors.country?.message} {...form.register('country')}>
                {COUNTRY_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </SelectField>
              <SelectField label="Timezone" error={errors.timezone?.message} {...form.register('timezone')}>
                {TIMEZONE_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </SelectField>
            </fieldset>
          </form>
        </CardContent>
      </Card>

      <Card onKeyDown={onKeyDown}>
        <CardHeader>
          <CardIconTitle icon={Bell}>Notifications</CardIconTitle>
          <CardDescription>{PROFILE_NOTIFICATION_COPY.always}</CardDescription>
        </CardHeader>
        <CardContent>
          <Controller
            control={form.control}
            name="emailNotifications"
            render={({ field }) => (
              <div className="flex items-start justify-between gap-4">
                <div className="grid gap-1">
                  <Label htmlFor="profile-email-notifications">Email notifications</Label>
                  <p id="profile-email-notifications-hint" className="text-sm text-slate-600">
                    {PROFILE_NOTIFICATION_COPY.optional}
                    {!editing && ' Select Edit Profile to change this.'}
                  </p>
                </div>
                <Switch
                  id="profile-email-notifications"
                  aria-describedby="profile-email-notifications-hint"
                  checked={field.value !== false}
                  onCheckedChange={field.onChange}
                  onBlur={field.onBlur}
                  ref={field.ref}
                  disabled={!editing || update.isPending}
                />
              </div>
            )}
          />
        </CardContent>
      </Card>

      <SecurityCard user={user} />

      <AuthenticatorCard user={user} />

      <SecurityKeysCard user={user} />

      <SessionsCard />

      <Card>
        <CardHeader>
          <CardIconTitle icon={ShieldCheck}>Account Details</CardIconTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-4 text-sm sm:grid-cols-3">
            <Detail label="Plan" testId="account-plan">
              {planLabel(user.planTier)}
            </Detail>
            <Detail label="Member since" testId="account-member-since">
              {memberSince(user.createdAt) || '—'}
            </Detail>
            <Detail label="Vault set up" testId="account-vault-setup">
              {user.vaultSetup ? 'Yes' : 'No'}
            </Detail>
          </dl>
        </CardContent>
      </Card>

      <Card className="border-red-200">
        <CardHeader>
          <CardIconTitle icon={AlertTriangle} iconClassName="text-current" className="text-red-800">Danger Zone</CardIconTitle>
          <CardDescription>
            Deleting your account removes your vault, beneficiaries and triggers for good. It is done from Account &amp; Billing.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Button asChild variant="outline" className="border-red-300 text-red-700 hover:bg-red-50">
            <Link to="/account">Go to Account &amp; Billing</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  )
}

/** Password change (real: the server checks the current one) and two-factor, not available yet. */
function SecurityCard({ user }: { user: PublicUser }) {
  const change = useChangePassword()
  const form = useForm<ChangePasswordBody>({
    resolver: zodResolver(changePasswordBodySchema),
    defaultValues: PASSWORD_FORM_DEFAULTS,
    mode: 'onTouched',
  })
  const { errors } = form.formState

  const [removeKeys, setRemoveKeys] = useState<Set<string>>(() => new Set())

  const onSubmit = form.handleSubmit((values) =>
    change.mutate(
      { ...values, removeKeyIds: [...removeKeys] },
      {
        onSuccess: (answer) => {
          form.reset(PASSWORD_FORM_DEFAULTS)
          setRemoveKeys(new Set())
          const keys = keysAfterPasswordChangeText(answer)
          toast({
            title: PROFILE_MESSAGES.passwordUpdatedTitle,
            description: keys ? `${PROFILE_MESSAGES.passwordUpdatedBody} ${keys}` : PROFILE_MESSAGES.passwordUpdatedBody,
            variant: 'success',
          })
        },
        onError: (error) => {
          for (const [field, message] of Object.entries(serverFieldErrors(error, PASSWORD_FIELDS))) {
            form.setError(field as (typeof PASSWORD_FIELDS)[number], { message }, { shouldFocus: true })
          }
          const content = passwordFailureToast(error)
          if (content) toast({ ...content, variant: 'destructive' })
        },
      },
    ),
  )

  return (
    <Card>
      <CardHeader>
        <CardIconTitle icon={KeyRound}>Security</CardIconTitle>
        <CardDescription>Changing your password signs out every other device. This one stays signed in.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <form onSubmit={onSubmit} noValidate aria-label="Change password" className="grid gap-4">
          {/* Lets password managers tie the new password to the account. */}
          <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            error={errors.currentPassword?.message}
            disabled={change.isPending}
            {...form.register('currentPassword')}
          />
          <div className="grid gap-4 *:content-start sm:grid-cols-2">
            <PasswordField
              label="New password"
              autoComplete="new-password"
              hint="At least 8 characters."
              error={errors.newPassword?.message}
              disabled={change.isPending}
              {...form.register('newPassword', { deps: ['confirmPassword'] })}
            />
            <PasswordField
              label="Confirm new password"
              autoComplete="new-password"
              error={errors.confirmPassword?.message}
              disabled={change.isPending}
              {...form.register('confirmPassword', {
                // A "don't match" shown before this field was left goes as soon as it matches, not on
                // leaving it: otherwise the form shrinks under the finger between pressing Update
                // Password and letting go, and the first tap is lost.
                onChange: () => {
                  if (form.getFieldState('confirmPassword').error) void form.trigger('confirmPassword')
                },
              })}
            />
          </div>
          <RemoveKeysField selected={removeKeys} onChange={setRemoveKeys} twoFactorEnabled={user.twoFactorEnabled} disabled={change.isPending} />
          <div>
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? 'Updating...' : 'Update Password'}
            </Button>
          </div>
        </form>

      </CardContent>
    </Card>
  )
}
