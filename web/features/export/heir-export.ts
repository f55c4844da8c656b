import { describeReleasedItem, RELEASE_MESSAGES, type ReleasedAsset } from '../../../contract/releases'
import type { BeneficiaryPrivateKey } from '@/crypto'
import { parsePasswordEntry } from '@/features/vault/items/download'
import type { FetchLike } from '@/features/vault/items/http'
import {
  assetCardModel,
  CONTENT_RETRIES,
  downloadErrorText,
  mayOpen,
  openReleasedAsset,
  type BeneficiaryLink,
  type CardSeal,
  type DownloadCounts,
} from '@/features/releases/portal'
import type { ExportOptions, ExportSource } from './vault-zip'

// The heir's Download all: every released item they can open now, each opened exactly as its own
// Download & Decrypt opens it (its seal checked first, its content held to the seal, its ticket
// counted as one of its downloads), into one ZIP. Nothing here reaches past the server's limits:
// an item that cannot be downloaded on its own is left out, with the reason its card gives.

export interface HeirExportPlan {
  /** What will be opened, in the page's order. */
  included: { asset: ReleasedAsset; seal: CardSeal }[]
  /** What will not, and why, in a person's words. */
  notIncluded: { asset: ReleasedAsset; title: string; reason: string }[]
}

/**
 * "Download all" plans nothing until this heir's key is at hand and the seals of what was released
 * have been checked: before that, an unchecked item could not be told from a planted one.
 */
export function downloadAllPlan(
  assets: readonly ReleasedAsset[],
  options: Parameters<typeof heirExportPlan>[1],
  state: { keyReady: boolean; sealsChecked: boolean },
): HeirExportPlan | null {
  return state.keyReady && state.sealsChecked ? heirExportPlan(assets, options) : null
}

export function heirExportPlan(
  assets: readonly ReleasedAsset[],
  { sealOf, nameOf, ownerName, now = new Date() }: { sealOf: (id: string) => CardSeal | null; nameOf: (id: string) => string | null; ownerName: string; now?: Date },
): HeirExportPlan {
  const plan: HeirExportPlan = { included: [], notIncluded: [] }
  for (const asset of assets) {
    const seal = sealOf(asset.id)
    const model = assetCardModel(asset, { name: nameOf(asset.id), ownerName, seal, now })
    if (model.status === 'available' && seal && mayOpen(seal)) plan.included.push({ asset, seal })
    else plan.notIncluded.push({ asset, title: model.title, reason: model.blockedReason ?? model.seal?.detail ?? RELEASE_MESSAGES.notSealed })
  }
  return plan
}

/** The plan as the export's sources, in the page's order: the items left out are listed in the manifest, never opened. */
export function heirSources(
  link: BeneficiaryLink,
  key: BeneficiaryPrivateKey,
  assets: readonly ReleasedAsset[],
  plan: HeirExportPlan,
  options: { ownerName: string; fetch?: FetchLike; signal?: AbortSignal; onCounted?: (assetId: string, counts: DownloadCounts) => void },
): ExportSource[] {
  const included = new Map(plan.included.map((i) => [i.asset.id, i.seal]))
  const leftOut = new Map(plan.notIncluded.map((n) => [n.asset.id, n]))
  return assets
    .filter((asset) => included.has(asset.id) || leftOut.has(asset.id))
    .map((asset) => {
      const seal = included.get(asset.id)
      const left = leftOut.get(asset.id)
      return {
        // A name the heir's key opened is shown on the card already; otherwise what the server knows.
        label: left?.title ?? describeReleasedItem(asset),
        type: asset.vaultItem.type,
        createdAt: null,
        releasedAt: asset.releasedAt,
        leaveOut: seal ? undefined : left?.reason,
        async open() {
          const opened = await openReleasedAsset(link, asset, key, {
            seal: seal!.verdict.state === 'sealed' ? seal!.verdict.manifest : undefined,
            fetch: options.fetch,
            signal: options.signal,
            retries: CONTENT_RETRIES,
            onCounted: (counts) => options.onCounted?.(asset.id, counts),
          })
          return { filename: opened.metadata.filename, mimetype: opened.metadata.mimetype, tags: [], content: opened.content }
        },
      }
    })
}

export function heirExportOptions(ownerName: string): Pick<ExportOptions, 'parsePassword' | 'describeError'> {
  return { parsePassword: parsePasswordEntry, describeError: (error) => downloadErrorText(error, ownerName) }
}
