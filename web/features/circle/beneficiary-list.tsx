import { Bell, BellOff, EllipsisVertical, EyeOff, IdCard, KeyRound, Mail, Pencil, Trash2, UserPlus, Users } from 'lucide-react'
import { useState } from 'react'
import type { Beneficiary } from '../../../contract/circle'
import { LoadError } from '@/components/ui/load-error'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { Spinner } from '@/components/ui/spinner'
import { UploadIdDocumentDialog } from '@/features/identity/upload-id-dialog'
import { errorText } from '@/lib/api-client'
import { useBeneficiaries, useDeleteBeneficiary, useResendBeneficiaryVerification, useUpdateBeneficiary } from './api'
import {
  beneficiaryRemovedText,
  CIRCLE_TOASTS,
  deleteBeneficiaryText,
  emailNotSentText,
  emailSentText,
  invitationHeldText,
  IDENTITY_BADGES,
  notificationBadge,
  NOTIFICATION_COPY,
} from './copy'
import { EditBeneficiaryDialog } from './edit-beneficiary-dialog'
import { KeyTrust, useRestatement } from './key-trust'
import { toastFailure, toastSuccess } from './notify'
import { RotateKeyDialog } from './rotate-key-dialog'

/** The first groups of the fingerprint: enough to tell kits apart at a glance. */
function shortFingerprint(fingerprint: string): string {
  return `${fingerprint.split(' ').slice(0, 4).join(' ')} …`
}

function BeneficiaryCard({
  beneficiary: b,
  busy,
  onResend,
  onToggleNotifications,
  onUploadId,
  onEdit,
  onReplaceKey,
  onDelete,
}: {
  beneficiary: Beneficiary
  busy: boolean
  onResend: () => void
  onToggleNotifications: () => void
  onUploadId: () => void
  onEdit: () => void
  onReplaceKey: () => void
  onDelete: () => void
}) {
  const notifications = notificationBadge(b)
  const identity = IDENTITY_BADGES[b.identityStatus]
  const unsubscribed = b.notificationStatus === 'unsubscribed'
  return (
    <li>
      <Card className="flex h-full flex-col gap-3 p-4 sm:p-5" data-testid="beneficiary-card">
        <div className="flex items-start gap-3">
          <span
            className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-800"
            aria-hidden
          >
            {b.fullName.slice(0, 1).toUpperCase()}
          </span>
          <div className="min-w-0 flex-1">
            <h3 className="truncate font-semibold text-slate-900">{b.fullName}</h3>
            <p className="text-sm text-slate-600">{b.relationship}</p>
            <p className="mt-0.5 flex items-center gap-1 break-all text-sm text-slate-600">
              <Mail className="size-3.5 shrink-0 text-slate-400" aria-hidden />
              {b.email}
            </p>
          </div>
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon" className="-mr-2 -mt-1 shrink-0" aria-label={`Actions for ${b.fullName}`} disabled={busy}>
                {busy ? <Spinner className="size-4" label="Working" /> : <EllipsisVertical aria-hidden />}
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              {!b.verified && (
                <DropdownMenuItem onSelect={onResend} disabled={unsubscribed}>
                  <Mail aria-hidden /> Resend Verification
                  {unsubscribed && <span className="ml-auto text-xs text-slate-500">(unsubscribed)</span>}
                </DropdownMenuItem>
              )}
              {!b.identityVerified && (
                <DropdownMenuItem onSelect={onUploadId}>
                  <IdCard aria-hidden /> Upload ID Document
                </DropdownMenuItem>
              )}
              <DropdownMenuItem onSelect={onToggleNotifications}>
                {b.sendAssetNotifications ? (
                  <>
                    <BellOff aria-hidden /> Disable Notifications
                  </>
                ) : (
                  <>
                    <Bell aria-hidden /> Enable Notifications
                  </>
                )}
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={onEdit}>
                <Pencil aria-hidden /> Edit Details
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={onReplaceKey}>
                <KeyRound aria-hidden /> Replace key (lost kit)
              </DropdownMenuItem>
              <DropdownMenuSeparator />
              <DropdownMenuItem onSelect={onDelete} className="text-red-700 data-[highlighted]:bg-red-50">
                <Trash2 aria-hidden /> Delete
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
        <div className="flex flex-wrap gap-1.5">
          {b.verified ? (
            <Badge variant="success" title="E-mail address confirmed">
              Verified
            </Badge>
          ) : b.invitationHeld ? (
            <Badge variant="outline" title={invitationHeldText(b.email)}>
              Invitation waiting
            </Badge>
          ) : (
            <Badge variant="warning" title="Waiting for them to use the verification link">
              Pending
            </Badge>
          )}
          <Badge variant={identity.variant}>{identity.label}</Badge>
          <Badge variant={notifications.variant} title={notifications.title}>
            {notifications.label}
          </Badge>
          {b.delayNotifications && (
            <Badge variant="outline" title="Details stay private and notifications wait until your conditions are met">
              <EyeOff className="size-3" aria-hidden /> Secrecy Mode
            </Badge>
          )}
          <KeyTrust beneficiary={b} />
          {b.hasKeyBackup ? (
            <Badge variant="outline" title="They can open what you leave them with their Access Kit or with a passphrase of their own">
              Passphrase backup
            </Badge>
          ) : (
            <Badge variant="outline" title="Only their Access Kit opens what you leave them; they can add a passphrase backup from their invitation e-mail">
              Access Kit only
            </Badge>
          )}
        </div>
        <p className="mt-auto flex items-center gap-1.5 text-xs text-slate-500" title={b.publicKeyFingerprint}>
          <KeyRound className="size-3.5 shrink-0" aria-hidden />
          <span>
            Key <span className="font-mono">{shortFingerprint(b.publicKeyFingerprint)}</span>
          </span>
        </p>
      </Card>
    </li>
  )
}

export function BeneficiaryList({ onAdd }: { onAdd: () => void }) {
  const { data, isPending, isError, error, refetch, isFetching } = useBeneficiaries()
  useRestatement()
  const resend = useResendBeneficiaryVerification()
  const update = useUpdateBeneficiary()
  const remove = useDeleteBeneficiary()
  const [editing, setEditing] = useState<Beneficiary | null>(null)
  const [deleting, setDeleting] = useState<Beneficiary | null>(null)
  const [uploadingId, setUploadingId] = useState<Beneficiary | null>(null)
  const [rotating, setRotating] = useState<Beneficiary | null>(null)

  if (isPending) {
    return (
      <div className="flex justify-center rounded-xl border border-slate-200 bg-white py-16">
        <Spinner className="size-7" label="Loading beneficiaries" />
      </div>
    )
  }
  if (isError) {
    return (
      <LoadError title="Your beneficiaries could not be loaded" message={errorText(error, CIRCLE_TOASTS.fallback)} onRetry={() => refetch()} retrying={isFetching} />
    )
  }
  if (data.length === 0) {
    return (
      <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
        <Users className="mx-auto size-10 text-slate-400" aria-hidden />
        <h3 className="mt-3 font-semibold text-slate-900">No beneficiaries yet</h3>
        <p className="mx-auto mt-1 max-w-md text-sm text-slate-600">
          Add the people who should receive your documents, photos and passwords. Each one gets an Access Kit with the
          key that opens what you leave them.
        </p>
        <Button className="mt-5" onClick={onAdd}>
          <UserPlus aria-hidden /> Add Beneficiary
        </Button>
      </div>
    )
  }

  const busyId =
    (resend.isPending && resend.variables) || (update.isPending && update.variables?.id) || (remove.isPending && remove.variables) || null

  return (
    <>
      <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
        {data.map((b) => (
          <BeneficiaryCard
            key={b.id}
            beneficiary={b}
            busy={busyId === b.id}
            onResend={() =>
              resend.mutate(b.id, {
                onSuccess: (r) =>
                  r.verificationEmailSent
                    ? toastSuccess(CIRCLE_TOASTS.verificationSent, emailSentText(r.email))
                    : toastSuccess(CIRCLE_TOASTS.verificationNotSent, emailNotSentText),
                onError: (e) => toastFailure(CIRCLE_TOASTS.updateSettingsFailed, e),
              })
            }
            onToggleNotifications={() =>
              update.mutate(
                { id: b.id, sendAssetNotifications: !b.sendAssetNotifications },
                {
                  onSuccess: (r) =>
                    r.sendAssetNotifications
                      ? toastSuccess(CIRCLE_TOASTS.notificationsEnabled, NOTIFICATION_COPY.enabled(r.fullName))
                      : toastSuccess(CIRCLE_TOASTS.notificationsDisabled, NOTIFICATION_COPY.disabled(r.fullName)),
                  onError: (e) => toastFailure(CIRCLE_TOASTS.updateSettingsFailed, e),
                },
              )
            }
            onUploadId={() => setUploadingId(b)}
            onEdit={() => setEditing(b)}
            onReplaceKey={() => setRotating(b)}
            onDelete={() => setDeleting(b)}
          />
        ))}
      </ul>
      <EditBeneficiaryDialog beneficiary={editing} onOpenChange={(open) => !open && setEditing(null)} />
      <UploadIdDocumentDialog beneficiary={uploadingId} onOpenChange={(open) => !open && setUploadingId(null)} />
      <RotateKeyDialog beneficiary={rotating} onOpenChange={(open) => !open && setRotating(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && !remove.isPending && setDeleting(null)}
        title={`Delete ${deleting?.fullName ?? 'beneficiary'}?`}
        description={deleting ? deleteBeneficiaryText(deleting.fullName) : ''}
        confirmLabel={remove.isPending ? 'Deleting...' : 'Delete'}
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleting) return
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toastSuccess(CIRCLE_TOASTS.beneficiaryRemoved, beneficiaryRemovedText(deleting.fullName))
              setDeleting(null)
            },
            onError: (e) => toastFailure(CIRCLE_TOASTS.removeBeneficiaryFailed, e),
          })
        }}
      />
    </>
  )
}
