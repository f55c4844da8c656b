import { useQuery } from '@tanstack/react-query'
import { Download, FileText } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Button } from '@/components/ui/button'
import { LoadError } from '@/components/ui/load-error'
import { Spinner } from '@/components/ui/spinner'
import { errorText } from '@/lib/api-client'
import type { FileQuery } from './api'
import { IDENTITY_TOASTS } from './copy'

/** An object URL for a Blob, revoked when the Blob changes or the component goes. */
function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    if (!blob) {
      setUrl(null)
      return
    }
    const next = URL.createObjectURL(blob)
    setUrl(next)
    return () => URL.revokeObjectURL(next)
  }, [blob])
  return url
}

/**
 * One side of an identity document, fetched as a Blob: an image is shown inline (blob: URLs are
 * allowed for images by the CSP); a PDF is offered as a download, since the CSP allows no plugin
 * to display it in the page.
 */
export function DocumentFile({
  query,
  alt,
  fileName,
}: {
  query: FileQuery
  /** What the image shows, e.g. "Front of Ada Lovelace’s passport". */
  alt: string
  /** The download name, without extension. */
  fileName: string
}) {
  const file = useQuery({ queryKey: query.queryKey, queryFn: query.queryFn, gcTime: query.gcTime })
  const url = useObjectUrl(file.data)

  if (file.isPending || (file.data && !url)) {
    return (
      <div className="flex h-48 items-center justify-center rounded-lg border border-slate-200 bg-slate-50">
        <Spinner className="size-6" label={`Loading ${alt.toLowerCase()}`} />
      </div>
    )
  }
  if (file.isError) {
    return (
      <LoadError
        title="The file could not be loaded"
        message={errorText(file.error, IDENTITY_TOASTS.fallback)}
        onRetry={() => file.refetch()}
        retrying={file.isFetching}
      />
    )
  }
  if (file.data.type === 'application/pdf') {
    return (
      <div className="flex flex-col items-center gap-3 rounded-lg border border-slate-200 bg-slate-50 p-6 text-center">
        <FileText className="size-10 text-slate-400" aria-hidden />
        <p className="text-sm text-slate-700">{alt} is a PDF. Download it to view it.</p>
        <Button asChild variant="outline">
          <a href={url!} download={`${fileName}.pdf`}>
            <Download aria-hidden /> Download PDF
          </a>
        </Button>
      </div>
    )
  }
  return (
    <figure className="overflow-hidden rounded-lg border border-slate-200 bg-slate-100">
      <img src={url!} alt={alt} className="mx-auto max-h-[60vh] w-auto max-w-full object-contain" />
    </figure>
  )
}
