import { responseError, sessionHeaders } from '@/lib/api-client'

// Identity documents travel as multipart forms and come back as files, neither of which
// apiRequest (JSON only) can carry. These helpers send the same credentials and turn a failed
// response into the same errors, by the same rules.


/** A multipart request with the session; the browser sets the multipart Content-Type itself. */
export async function apiForm<T>(method: string, url: string, formData: FormData): Promise<T> {
  const res = await fetch(url, { method, headers: sessionHeaders(), body: formData, credentials: 'include' })
  if (!res.ok) throw await responseError(res)
  return (await res.json()) as T
}

/**
 * A file as a Blob. With `session` the stored token goes along (the owner's view); without it the
 * URL carries its own credential (an approver's signed link).
 */
export async function apiBlob(url: string, { session }: { session: boolean }): Promise<Blob> {
  const res = await fetch(url, { headers: session ? sessionHeaders() : {}, credentials: session ? 'include' : 'same-origin' })
  if (!res.ok) throw await responseError(res)
  return res.blob()
}
