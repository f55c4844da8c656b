import { ESTATE_FILES, ESTATE_FORMAT, ESTATE_MESSAGES, ESTATE_VERSION, type EstateItem, type EstateItemFile, type EstateVaultFile } from '../../../contract/estate-bundle'
import { keyFingerprint } from '../../../contract/vault-statements'
import { byteSource } from '@/lib/byte-source'
import { safeFileName } from './vault-zip'

// The estate bundle (0.3 · 5 of 7, item 4b): per beneficiary, a folder with the items left to
// them exactly as the service stores them (ciphertext, their grant, the encrypted metadata, the
// signed manifest), the vault's signing key, and the offline page that opens the folder with their
// Access Kit. Nothing is decrypted: the owner's browser only copies what the server already holds,
// so the ZIP is safe to hand to a lawyer. Streamed like the export (vault-zip.ts zipPieces).

type Bytes = Uint8Array<ArrayBuffer>
export type EstateZipInput = { name: string; input: string | AsyncIterable<Bytes>; lastModified?: Date }

export interface EstateBeneficiary {
  id: string
  fullName: string
}

export interface EstateFolderPlan {
  beneficiary: EstateBeneficiary
  /** The folder's name in the ZIP: the person's name, made safe and unique. */
  folder: string
  items: EstateItem[]
}

/** A folder for every beneficiary something is granted to, each with exactly the items granted to them. */
export function estatePlan(items: readonly EstateItem[], beneficiaries: readonly EstateBeneficiary[]): EstateFolderPlan[] {
  const used = new Set<string>()
  const plan: EstateFolderPlan[] = []
  for (const beneficiary of beneficiaries) {
    const theirs = items.filter((item) => item.grants.some((g) => g.beneficiaryId === beneficiary.id))
    if (theirs.length === 0) continue
    const base = safeFileName(beneficiary.fullName, 'Beneficiary')
    let folder = base
    for (let n = 2; used.has(folder.toLowerCase()); n++) folder = `${base} (${n})`
    used.add(folder.toLowerCase())
    plan.push({ beneficiary, folder, items: theirs })
  }
  return plan
}

/**
 * What the estate card counts: the items granted to at least one beneficiary the owner still has,
 * and how many of those beneficiaries. Nothing granted: the card says so and offers no bundle.
 */
export function estateScope<T extends { beneficiaryIds: readonly string[] }>(items: readonly T[], beneficiaries: readonly { id: string }[]): { granted: T[]; people: number } {
  const known = new Set(beneficiaries.map((b) => b.id))
  const granted = items.filter((i) => i.beneficiaryIds.some((id) => known.has(id)))
  const people = new Set(granted.flatMap((i) => i.beneficiaryIds.filter((id) => known.has(id)))).size
  return { granted, people }
}

/** Items in the plan the vault has not sealed yet (stored before manifests): the offline page refuses them. */
export function unsealedCount(plan: readonly EstateFolderPlan[]): number {
  return new Set(plan.flatMap((f) => f.items.filter((i) => i.manifest === null).map((i) => i.id))).size
}

/** What goes into `<item id>.json`: the item as stored, with only this beneficiary's grant. */
export function estateItemFile(ownerId: string, item: EstateItem, beneficiaryId: string): EstateItemFile {
  const grant = item.grants.find((g) => g.beneficiaryId === beneficiaryId)
  if (!grant) throw new Error('No grant for this beneficiary')
  return {
    format: ESTATE_FORMAT,
    version: ESTATE_VERSION,
    ownerId,
    itemId: item.id,
    type: item.type,
    plainSize: item.plainSize,
    chunkBytes: item.chunkBytes,
    cipherSize: item.cipherSize,
    encryptedMetadata: item.encryptedMetadata,
    manifest: item.manifest,
    manifestSignature: item.manifestSignature,
    grant: { beneficiaryId: grant.beneficiaryId, keyVersion: grant.keyVersion, wrappedKey: grant.wrappedKey },
  }
}

export interface EstateSources {
  ownerId: string
  ownerName: string
  signingPublicKey: string
  /** The offline page's HTML (open-estate.html, built with the app). */
  page: string
  /** web/crypto/FORMAT.md. */
  format: string
  /** An item's ciphertext exactly as stored. */
  ciphertext: (item: EstateItem) => AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>
  now?: Date
  onProgress?: (done: number, total: number) => void
  signal?: AbortSignal
}

/** The README a lawyer or an heir reads first. */
export function estateReadme(ownerName: string, fingerprint: string, madeAt: Date): string {
  return [
    `Estate bundle of ${ownerName}'s vault`,
    `Made ${madeAt.toISOString().slice(0, 10)}.`,
    '',
    'What this is',
    'Each folder belongs to one beneficiary and holds the files left to them, still encrypted.',
    'Only that person can open them, with the Access Kit they were given. Nothing in this bundle',
    'can be read without a kit, so it is safe to keep with a lawyer or on a drive.',
    '',
    'How a beneficiary opens their folder (no internet or account needed)',
    `1. Open the file ${ESTATE_FILES.page} (in your folder) in a web browser such as Chrome,`,
    '   Edge, Firefox or Safari. It works with the computer offline.',
    '2. Paste your Access Kit, or choose the kit file.',
    '3. Choose your folder (or select all the files in it).',
    '4. Each file is checked and decrypted on your computer; save the ones you need.',
    '',
    'The page refuses any file that was changed or that does not come from the owner\u2019s vault.',
    'Your Access Kit names the vault by a fingerprint; this bundle\u2019s vault fingerprint is:',
    `  ${fingerprint}`,
    '',
    `The exact format is in ${ESTATE_FILES.format}, so a technical person can open the files with`,
    'other tools if ever needed ("Estate bundle" at its end describes this folder layout).',
    '',
  ].join('\r\n')
}

async function* exactly(source: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>, size: number): AsyncGenerator<Bytes> {
  let seen = 0
  for await (const piece of byteSource(source)) {
    seen += piece.length
    if (seen > size) break
    yield piece as Bytes
  }
  // A cut or padded download must not pass for the stored ciphertext.
  if (seen !== size) throw new Error(ESTATE_MESSAGES.failed)
}

/** The ZIP's files in order: the shared files, then each folder. Ciphertext is fetched only when the ZIP reaches it. */
export async function* estateFiles(plan: readonly EstateFolderPlan[], sources: EstateSources): AsyncGenerator<EstateZipInput, void, undefined> {
  const madeAt = sources.now ?? new Date()
  const fingerprint = keyFingerprint(sources.signingPublicKey)
  const readme = estateReadme(sources.ownerName, fingerprint, madeAt)
  const shared = (folder: string) => [
    { name: `${folder}${ESTATE_FILES.readme}`, input: readme, lastModified: madeAt },
    { name: `${folder}${ESTATE_FILES.page}`, input: sources.page, lastModified: madeAt },
    { name: `${folder}${ESTATE_FILES.format}`, input: sources.format, lastModified: madeAt },
  ]
  yield* shared('')
  yield { name: 'vault-signing-key.txt', input: `Vault signing public key (base64 SPKI, ECDSA P-256):\r\n${sources.signingPublicKey}\r\nVault fingerprint: ${fingerprint}\r\n`, lastModified: madeAt }
  const total = plan.reduce((n, f) => n + f.items.length, 0)
  let done = 0
  sources.onProgress?.(0, total)
  for (const { beneficiary, folder, items } of plan) {
    const vault: EstateVaultFile = {
      format: 'legacy-vault/estate-vault',
      version: 1,
      ownerId: sources.ownerId,
      ownerName: sources.ownerName,
      signingPublicKey: sources.signingPublicKey,
      fingerprint,
      beneficiary: { id: beneficiary.id, name: beneficiary.fullName },
      madeAt: madeAt.toISOString(),
    }
    yield { name: `${folder}/${ESTATE_FILES.vault}`, input: `${JSON.stringify(vault, null, 2)}\n`, lastModified: madeAt }
    yield* shared(`${folder}/`)
    for (const item of items) {
      sources.signal?.throwIfAborted()
      yield { name: `${folder}/${ESTATE_FILES.item(item.id)}`, input: `${JSON.stringify(estateItemFile(sources.ownerId, item, beneficiary.id), null, 2)}\n`, lastModified: madeAt }
      yield { name: `${folder}/${ESTATE_FILES.cipher(item.id)}`, input: exactly(sources.ciphertext(item), item.cipherSize), lastModified: madeAt }
      sources.onProgress?.(++done, total)
    }
  }
}
