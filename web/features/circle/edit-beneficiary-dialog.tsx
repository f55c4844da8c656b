import { zodResolver } from '@hookform/resolvers/zod'
import { Info } from 'lucide-react'
import { Controller, useForm, useWatch } from 'react-hook-form'
import type { z } from 'zod'
import { beneficiaryFormSchema, type Beneficiary } from '../../../contract/circle'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Field, InputField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { useBeneficiaries, useUpdateBeneficiary } from './api'
import { BENEFICIARY_FIELD_HINTS, CIRCLE_TOASTS, EDIT_EMAIL_NOTE, invitationOutcomeText } from './copy'
import { changedFields, statedChange } from './dialog-rules'
import { toastFailure, toastSuccess } from './notify'
import { SwitchField } from './switch-field'
import { vaultSession } from '@/features/vault/vault-session'
import { statedFields, withStatementSequence } from './statements'
import { assertTrustedKeys } from './trusted-keys'

const editSchema = beneficiaryFormSchema.pick({ fullName: true, email: true, relationship: true, delayNotifications: true })
type EditInput = z.input<typeof editSchema>
type EditOutput = z.output<typeof editSchema>

function valuesOf(b: Beneficiary): EditInput {
  return { fullName: b.fullName, email: b.email, relationship: b.relationship, delayNotifications: b.delayNotifications }
}

/** Edit Details: name, e-mail, relationship and Secrecy Mode. Only the fields that changed are sent. */
const DETAILS_NEED_UNLOCK = 'Unlock your vault to change the name, relationship or address: your vault signs who this person is.'

export function EditBeneficiaryDialog({
  beneficiary,
  onOpenChange,
}: {
  beneficiary: Beneficiary | null
  onOpenChange: (open: boolean) => void
}) {
  const update = useUpdateBeneficiary()
  return (
    <Dialog open={beneficiary !== null} onOpenChange={(open) => !update.isPending && onOpenChange(open)}>
      <DialogContent>
        {beneficiary && (
          <EditForm key={beneficiary.id} beneficiary={beneficiary} update={update} onDone={() => onOpenChange(false)} />
        )}
      </DialogContent>
    </Dialog>
  )
}

function EditForm({
  beneficiary,
  update,
  onDone,
}: {
  beneficiary: Beneficiary
  update: ReturnType<typeof useUpdateBeneficiary>
  onDone: () => void
}) {
  const form = useForm<EditInput, unknown, EditOutput>({ resolver: zodResolver(editSchema), defaultValues: valuesOf(beneficiary) })
  const known = useBeneficiaries().data ?? []
  const { errors } = form.formState
  const email = useWatch({ control: form.control, name: 'email' })
  const emailChanged = !!email && email.trim().toLowerCase() !== beneficiary.email

  const onSubmit = form.handleSubmit(async (values) => {
    const changes = changedFields(values, beneficiary)
    if (Object.keys(changes).length === 0) {
      onDone()
      return
    }
    // A new name, relationship or address needs the vault's statement over the row as it will be,
    // made only for a row whose statement this vault trusts as it is.
    const stated = statedChange(changes)
    if (stated && !vaultSession.isUnlocked()) {
      form.setError(stated, { message: DETAILS_NEED_UNLOCK })
      return
    }
    try {
      if (stated) await assertTrustedKeys([beneficiary])
      const edited = statedFields({ ...beneficiary, ...changes })
      const send = (statement?: { keySignature: string; statementSequence: number }) => update.mutateAsync({ id: beneficiary.id, ...changes, ...statement })
      const updated = stated
        ? await withStatementSequence(known, async (statementSequence) =>
            send({ keySignature: await vaultSession.signBeneficiary({ ...edited, sequence: statementSequence }), statementSequence }),
          )
        : await send()
      toastSuccess(CIRCLE_TOASTS.beneficiaryUpdated, invitationOutcomeText(updated, '') || undefined)
      onDone()
    } catch (error) {
      toastFailure(CIRCLE_TOASTS.updateBeneficiaryFailed, error)
    }
  })

  return (
    <>
      <DialogHeader>
        <DialogTitle>Edit Details</DialogTitle>
        <DialogDescription>
          Change how {beneficiary.fullName} is named and reached. Their encryption key and Access Kit stay the same.
        </DialogDescription>
      </DialogHeader>
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <InputField label="Full name" error={errors.fullName?.message} autoComplete="off" {...form.register('fullName')} />
        <Field label="Email" error={errors.email?.message} hint={EDIT_EMAIL_NOTE}>
          {({ id, describedBy, invalid }) => (
            <Input id={id} type="email" autoComplete="off" aria-describedby={describedBy} aria-invalid={invalid} {...form.register('email')} />
          )}
        </Field>
        {emailChanged && (
          <Alert variant="info">
            <Info aria-hidden />
            <AlertDescription>
              Saving sends a new verification link to {email.trim().toLowerCase()}. Until it is used, {beneficiary.fullName}{' '}
              shows as Pending.
            </AlertDescription>
          </Alert>
        )}
        <InputField label="Relationship" error={errors.relationship?.message} {...form.register('relationship')} />
        <Controller
          control={form.control}
          name="delayNotifications"
          render={({ field }) => (
            <SwitchField
              label={BENEFICIARY_FIELD_HINTS.delayNotifications.label}
              hint={BENEFICIARY_FIELD_HINTS.delayNotifications.hint}
              checked={field.value}
              onCheckedChange={field.onChange}
              disabled={update.isPending}
            />
          )}
        />
        <DialogFooter>
          <Button variant="outline" onClick={onDone} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? 'Saving...' : 'Save Changes'}
          </Button>
        </DialogFooter>
      </form>
    </>
  )
}
