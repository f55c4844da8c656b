import type { QueryClient } from '@tanstack/react-query'
import { ESTATE_FILES, ESTATE_MESSAGES, ESTATE_PAGE_TITLE, type EstateItem } from '../../../contract/estate-bundle'
import formatText from '@/crypto/FORMAT.md?raw'
import { apiJson, sessionHeaders } from '@/lib/api-client'
import { byteSource } from '@/lib/byte-source'
import { beneficiariesQuery } from '@/features/circle/api'
import { chooseSaveTarget } from '@/features/vault/items/download'
import { isAbortError } from '@/features/vault/items/http'
import { estateFiles, estatePlan, type EstateFolderPlan } from './estate-bundle'
import { exportFileName, zipPieces } from './vault-zip'

// The owner's side of the estate bundle: what the server holds, packed as estate-bundle.ts lays it
// out and saved on the export's save path. The vault must be unlocked: the signing key the bundle
// names is the one this browser checked against the vault at unlock, not merely what /me says.

export const listEstateItems = () => apiJson<EstateItem[]>('GET', '/api/vault/estate')

/** The offline page, as built beside the app (scripts/estate-page.ts); anything else stops the export. */
export async function offlinePage(signal?: AbortSignal, fetchFn: typeof fetch = fetch): Promise<string> {
  const res = await fetchFn(`/${ESTATE_FILES.page}`, { signal })
  const text = res.ok ? await res.text() : ''
  // Without the built page (a dev server), the app's own index.html would come back instead.
  if (!text.includes(`<title>${ESTATE_PAGE_TITLE}</title>`)) throw new Error(ESTATE_MESSAGES.failed)
  return text
}

export interface EstateRun {
  signer: { ownerId: string; publicKey: string }
  ownerName: string
  queryClient: QueryClient
  signal: AbortSignal
  onProgress: (done: number, total: number) => void
}

export type EstateOutcome = { kind: 'saved'; plan: EstateFolderPlan[] } | { kind: 'cancelled' }

/** Call straight from the click: the save dialog needs the user's gesture. */
export async function saveEstateBundle(run: EstateRun): Promise<EstateOutcome> {
  const filename = exportFileName('estate-bundle')
  const target = await chooseSaveTarget(filename)
  if (target === 'cancelled') return { kind: 'cancelled' }
  try {
    const [items, beneficiaries, page] = await Promise.all([listEstateItems(), run.queryClient.fetchQuery({ ...beneficiariesQuery, staleTime: 0 }), offlinePage(run.signal)])
    const plan = estatePlan(items, beneficiaries)
    const files = estateFiles(plan, {
      ownerId: run.signer.ownerId,
      ownerName: run.ownerName,
      signingPublicKey: run.signer.publicKey,
      page,
      format: formatText,
      signal: run.signal,
      onProgress: run.onProgress,
      ciphertext: async function* (item) {
        const res = await fetch(`/api/vault/items/${encodeURIComponent(item.id)}/content`, { headers: sessionHeaders(), credentials: 'include', signal: run.signal })
        if (!res.ok || !res.body) throw new Error(ESTATE_MESSAGES.failed)
        yield* byteSource(res.body)
      },
    })
    await target.write(zipPieces(files), { filename, mimetype: 'application/zip' })
    return { kind: 'saved', plan }
  } catch (error) {
    if (run.signal.aborted || isAbortError(error)) return { kind: 'cancelled' }
    throw error
  }
}
