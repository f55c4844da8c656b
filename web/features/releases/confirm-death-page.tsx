import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { ClipboardCheck, FileText, TriangleAlert } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { CIRCLE_MESSAGES } from '../../../contract/circle'
import { RELEASE_MESSAGES, type DeathReportView } from '../../../contract/releases'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { CheckboxField } from '@/components/ui/checkbox'
import { InputField } from '@/components/ui/form-field'
import { linkErrorText } from '@/features/circle/api'
import { InvalidLinkPage, LinkDonePage, LinkFormPage, LinkPage, LoadingLinkPage, ReturnHomeButton } from '@/features/circle/link-page'
import { deathReportQuery, useConfirmDeath } from './api'
import { deathFormSchema, EMPTY_DEATH_FORM, todayIso, type DeathFormInput, type DeathFormOutput } from './forms'
import { isBadLink } from './http'
import { FailureAlert, LoadFailedPage } from './link-parts'

/**
 * /confirm-death?token=… : an approver confirms, from their own signed link, that they have seen
 * the owner's death certificate. This is what fires a verified-death trigger.
 */
export function ConfirmDeathPage({ token }: { token: string | undefined }) {
  if (!token) return <InvalidLinkPage reason={CIRCLE_MESSAGES.noToken} />
  return <DeathReport token={token} />
}

function DeathReport({ token }: { token: string }) {
  const view = useQuery(deathReportQuery(token))
  const confirm = useConfirmDeath()
  if (view.isPending) return <LoadingLinkPage label="Loading" />
  if (view.isError) {
    return <LoadFailedPage error={view.error} title="The page could not be loaded" onRetry={() => view.refetch()} retrying={view.isFetching} />
  }
  if (confirm.isError && isBadLink(confirm.error)) return <InvalidLinkPage reason={linkErrorText(confirm.error)} />
  if (confirm.isSuccess) {
    return <LinkDonePage title="Confirmation recorded" description={confirm.data.message || RELEASE_MESSAGES.deathConfirmed} />
  }
  if (view.data.alreadyConfirmed) {
    return (
      <LinkPage
        icon={ClipboardCheck}
        title="Already confirmed"
        description={`${view.data.ownerName}’s death has already been confirmed. The release instructions are in motion; there is nothing more to do.`}
      >
        <ReturnHomeButton variant="outline" />
      </LinkPage>
    )
  }
  return <DeathForm token={token} view={view.data} confirm={confirm} />
}

function DeathForm({ token, view, confirm }: { token: string; view: DeathReportView; confirm: ReturnType<typeof useConfirmDeath> }) {
  const form = useForm<DeathFormInput, unknown, DeathFormOutput>({ resolver: zodResolver(deathFormSchema), defaultValues: EMPTY_DEATH_FORM })
  const { errors } = form.formState
  const pending = confirm.isPending

  const onSubmit = form.handleSubmit((values) =>
    confirm.mutate({ token, ...values }, { onSettled: () => window.scrollTo({ top: 0 }) }),
  )

  return (
    <LinkFormPage
      icon={FileText}
      tone="neutral"
      title="Confirm a death"
      intro={
        <>
          {view.approverName}, {view.ownerName} named you as an approver and asked that you confirm their death when the time comes. We
          are sorry for your loss. Please only continue if you have seen {view.ownerName}’s death certificate.
        </>
      }
    >
      <Alert variant="warning">
        <TriangleAlert aria-hidden />
        <AlertTitle>What confirming does</AlertTitle>
        <AlertDescription className="grid gap-2">
          <p>
            Your confirmation starts {view.ownerName}’s release instructions: the items in their vault go to the beneficiaries they
            chose, once their safety window (or any longer delay they set) has passed and any approvals they asked for are given.
          </p>
          <p>
            {view.ownerName} is e-mailed at once and can cancel the release until then, so a mistaken confirmation can be
            stopped. Your confirmation is recorded in your name.
          </p>
        </AlertDescription>
      </Alert>

      <Card className="p-5 sm:p-6">
        <form onSubmit={onSubmit} noValidate className="grid gap-5">
          <h2 className="text-lg font-semibold text-slate-900">The death certificate</h2>
          <div className="grid gap-4 sm:grid-cols-2">
            <InputField
              label="Certificate number"
              error={errors.certificateNumber?.message}
              autoComplete="off"
              maxLength={100}
              disabled={pending}
              {...form.register('certificateNumber')}
            />
            <InputField
              label="Date of death"
              type="date"
              max={todayIso()}
              error={errors.dateOfDeath?.message}
              disabled={pending}
              {...form.register('dateOfDeath')}
            />
          </div>
          <InputField
            label={
              <>
                Issuing authority <span className="font-normal text-slate-500">(optional)</span>
              </>
            }
            placeholder="e.g. General Register Office, County Clerk"
            error={errors.issuingAuthority?.message}
            autoComplete="off"
            maxLength={200}
            disabled={pending}
            {...form.register('issuingAuthority')}
          />
          <CheckboxField
            control={form.control}
            name="attest"
            label={<>I have seen {view.ownerName}’s death certificate, and the details above are taken from it.</>}
            error={errors.attest?.message}
            disabled={pending}
          />
          {confirm.isError && <FailureAlert title="The confirmation was not recorded" error={confirm.error} />}
          <Button type="submit" size="lg" variant="destructive" disabled={pending} className="sm:justify-self-end">
            {pending ? 'Confirming...' : 'Confirm the death'}
          </Button>
        </form>
      </Card>
    </LinkFormPage>
  )
}
