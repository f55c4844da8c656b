import { useMutation } from '@tanstack/react-query'
import { FolderOpen, MailCheck, Send } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { portalLinkRequestSchema, RELEASE_MESSAGES } from '../../../contract/releases'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { linkErrorText } from '@/features/circle/api'
import { LinkPage } from '@/features/circle/link-page'
import { AskForAccessCards } from '@/features/access-requests/ask-cards'
import { linkJson } from './http'

function useRequestPortalLink() {
  return useMutation({ mutationFn: (email: string) => linkJson<{ message: string }>('POST', '/api/beneficiary-portal/link', { email }) })
}

/**
 * /beneficiary-portal without the assets view (the Access Kit's address, or "Back to Portal"
 * from the assets): what an heir can do next. With a portal link, open what was left to them; with
 * none, or one that no longer works, ask for a new one by e-mail.
 */
export function PortalHomePage({ onOpenAssets, link }: { onOpenAssets?: () => void; link?: { id: string; token: string } }) {
  const request = useRequestPortalLink()
  const [email, setEmail] = useState('')
  const [invalid, setInvalid] = useState<string | null>(null)
  const id = useId()

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = portalLinkRequestSchema.safeParse({ email })
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message ?? RELEASE_MESSAGES.portalEmailInvalid)
      return
    }
    setInvalid(null)
    request.mutate(parsed.data.email)
  }

  return (
    <LinkPage
      icon={MailCheck}
      title="Beneficiary Portal"
      description="Items left to you are opened here, in your own browser, with the private key from your Beneficiary Access Kit."
    >
      {onOpenAssets && (
        <Button onClick={onOpenAssets} className="w-full sm:w-auto sm:justify-self-center">
          <FolderOpen aria-hidden /> Open your released assets
        </Button>
      )}
      {link && <AskForAccessCards link={{ kind: 'beneficiary', ...link }} />}
      <form onSubmit={onSubmit} noValidate className="grid gap-3 rounded-lg border border-slate-200 p-4" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} className="font-semibold text-slate-900">
          Send me a new link
        </h2>
        <p className="text-sm text-slate-600">
          Lost the e-mail, or its link stopped working? Enter the address the vault owner named you with, and we will send a
          new link if anything is waiting for you there.
        </p>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-email`}>Your e-mail address</Label>
          <Input
            id={`${id}-email`}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            aria-invalid={invalid ? true : undefined}
            aria-describedby={invalid ? `${id}-error` : undefined}
          />
          {invalid && (
            <p id={`${id}-error`} className="text-sm text-red-700">
              {invalid}
            </p>
          )}
        </div>
        <Button type="submit" disabled={request.isPending} className="sm:justify-self-start">
          <Send aria-hidden /> {request.isPending ? 'Sending...' : 'Send me a new link'}
        </Button>
        {request.isSuccess && (
          <Alert variant="success" role="status">
            <AlertDescription>{request.data.message}</AlertDescription>
          </Alert>
        )}
        {request.isError && (
          <Alert variant="destructive">
            <AlertDescription>{linkErrorText(request.error, 'The request could not be sent. Please try again.')}</AlertDescription>
          </Alert>
        )}
      </form>
    </LinkPage>
  )
}
