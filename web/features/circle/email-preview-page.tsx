import { Mail } from 'lucide-react'
import { useState } from 'react'
import { PublicLayout } from '@/components/layout/public-layout'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { PageSpinner } from '@/components/ui/spinner'
import { errorText } from '@/lib/api-client'
import { useBeneficiaryInvitationPreview } from './api'
import { CIRCLE_TOASTS } from './copy'
import { SwitchField } from './switch-field'

/**
 * /email-preview (seeds 001 §2): the invitation a beneficiary receives, rendered by the server's
 * real template with sample values. The HTML is shown in a sandboxed frame: no script, no forms,
 * no navigation, no access to this page.
 */
export function EmailPreviewPage() {
  const [secrecy, setSecrecy] = useState(false)
  const { data, isPending, isError, error, refetch, isFetching } = useBeneficiaryInvitationPreview(secrecy)

  return (
    <PublicLayout>
      <div className="mx-auto grid max-w-4xl grid-cols-1 gap-6 px-4 py-10 sm:px-6">
        <header>
          <h1 className="flex items-center gap-2 text-2xl font-bold text-slate-900">
            <Mail className="size-6 text-brand-700" aria-hidden /> E-mail preview
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            The invitation a beneficiary receives when you add them, filled in with sample details.
          </p>
        </header>
        <SwitchField
          label="Secrecy Mode version"
          hint="Show the e-mail sent when Secrecy Mode is on: fewer details, and a note that notifications are delayed."
          checked={secrecy}
          onCheckedChange={setSecrecy}
        />
        {isPending ? (
          <PageSpinner label="Loading the preview" />
        ) : isError ? (
          <Alert variant="destructive">
            <AlertTitle>The preview could not be loaded</AlertTitle>
            <AlertDescription className="grid gap-3">
              <p>{errorText(error, CIRCLE_TOASTS.fallback)}</p>
              <div>
                <Button variant="outline" size="sm" onClick={() => refetch()} disabled={isFetching}>
                  Try again
                </Button>
              </div>
            </AlertDescription>
          </Alert>
        ) : (
          <>
            <Card aria-busy={isFetching}>
              <CardHeader className="gap-1 border-b border-slate-200 pb-4">
                <p className="text-xs font-medium uppercase tracking-wide text-slate-500">Subject</p>
                <CardTitle data-testid="email-subject">{data.subject}</CardTitle>
              </CardHeader>
              <CardContent className="pt-4">
                <iframe
                  title="E-mail (HTML version)"
                  sandbox=""
                  srcDoc={data.html}
                  className="h-[85vh] min-h-[560px] w-full rounded-md border border-slate-200 bg-white"
                />
              </CardContent>
            </Card>
            <Card>
              <CardHeader className="pb-3">
                <CardTitle className="text-base">Plain-text version</CardTitle>
              </CardHeader>
              <CardContent>
                {/* Scrolls on its own, so it takes focus: keyboard users scroll it with the arrow keys. */}
                <pre
                  tabIndex={0}
                  aria-label="Plain-text version of the e-mail"
                  className="max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-50 p-4 text-sm text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  {data.text}
                </pre>
              </CardContent>
            </Card>
          </>
        )}
      </div>
    </PublicLayout>
  )
}
