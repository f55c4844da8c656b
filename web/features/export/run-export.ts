import { chooseSaveTarget, type SaveTargetOptions } from '@/features/vault/items/download'
import { isAbortError } from '@/features/vault/items/http'
import { exportFiles, zipPieces, type ExportOptions, type ExportReport, type ExportSource } from './vault-zip'

export type ExportOutcome = { kind: 'saved'; report: ExportReport } | { kind: 'cancelled' }

/**
 * Opens the save dialog (call it straight from a click: the picker needs the user's gesture), then
 * lists the items (`sources`, after the dialog so a slow list does not lose the gesture) and writes
 * them into one ZIP on the same save path as a single download: the file chosen, or a stream the
 * download worker hands to the browser. Resolves 'cancelled' if the save dialog was closed, the
 * download was cancelled in the browser, or `signal` was aborted.
 */
export async function saveExport(
  filename: string,
  sources: () => Promise<readonly ExportSource[]>,
  options: ExportOptions &
    SaveTargetOptions & {
      onListed?: (total: number) => void
      /** The items' plaintext bytes as last listed: a browser that can only save a Blob refuses a ZIP too large for memory before anything is fetched. */
      size?: number
    },
): Promise<ExportOutcome> {
  const target = await chooseSaveTarget(filename, options)
  if (target === 'cancelled') return { kind: 'cancelled' }
  try {
    const list = await sources()
    options.onListed?.(list.length)
    const { files, report } = exportFiles(list, options)
    await target.write(zipPieces(files), { filename, mimetype: 'application/zip' })
    return { kind: 'saved', report: await report }
  } catch (error) {
    if (options.signal?.aborted || isAbortError(error)) return { kind: 'cancelled' }
    throw error
  }
}
