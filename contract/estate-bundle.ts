import { z } from 'zod'
import { ITEM_TYPES } from './vault-items'

// The estate bundle (0.3 · 5 of 7, item 4b): what the owner's browser packs, per beneficiary, so
// an heir can decrypt their items with their Access Kit even if the service is gone. Ciphertext,
// grants and signed manifests only: nothing in it is decrypted.

/** GET /api/vault/estate: every active item with its seal and every grant of it. */
export const estateItemSchema = z.object({
  id: z.string(),
  type: z.enum(ITEM_TYPES),
  plainSize: z.number().int(),
  cipherSize: z.number().int(),
  chunkBytes: z.number().int(),
  encryptedMetadata: z.string(),
  /** The manifest the vault signed, verbatim; null until the item is sealed. */
  manifest: z.string().nullable(),
  manifestSignature: z.string().nullable(),
  grants: z.array(z.object({ beneficiaryId: z.string(), keyVersion: z.number().int(), wrappedKey: z.string() })),
})
export type EstateItem = z.infer<typeof estateItemSchema>

export const ESTATE_FORMAT = 'legacy-vault/estate-item'
export const ESTATE_VERSION = 1

/** `<item id>.json` in a beneficiary's folder: everything but the ciphertext, which sits beside it as `<item id>.bin`. */
export interface EstateItemFile {
  format: typeof ESTATE_FORMAT
  version: typeof ESTATE_VERSION
  ownerId: string
  itemId: string
  type: EstateItem['type']
  plainSize: number
  /** Plaintext bytes per chunk: each stored chunk is this plus 29. */
  chunkBytes: number
  cipherSize: number
  encryptedMetadata: string
  manifest: string | null
  manifestSignature: string | null
  grant: { beneficiaryId: string; keyVersion: number; wrappedKey: string }
}

/** `vault.json` in every folder: the owner's vault signing key and its fingerprint, as the kit prints it. */
export interface EstateVaultFile {
  format: 'legacy-vault/estate-vault'
  version: 1
  ownerId: string
  ownerName: string
  signingPublicKey: string
  fingerprint: string
  beneficiary: { id: string; name: string }
  madeAt: string
}

export const ESTATE_FILES = {
  vault: 'vault.json',
  page: 'open-estate.html',
  readme: 'README.txt',
  format: 'FORMAT.md',
  item: (itemId: string) => `${itemId}.json`,
  cipher: (itemId: string) => `${itemId}.bin`,
} as const

export const ESTATE_MESSAGES = {
  title: 'Estate bundle',
  body: 'One ZIP with, for each beneficiary, the encrypted items left to them and a page that opens them offline with their Access Kit. Nothing in it is decrypted, so you can give it to a lawyer or keep it on a drive.',
  button: 'Make estate bundle',
  confirmTitle: 'Make an estate bundle?',
  confirmBody:
    'Each beneficiary gets a folder with the items you left them, still encrypted, and a page that opens them with their Access Kit, without this service and without the internet. Only someone with their kit can open their folder.',
  willHold: (people: number, items: number) =>
    `${people} ${people === 1 ? 'beneficiary' : 'beneficiaries'}, ${items} ${items === 1 ? 'item' : 'items'} left to them.`,
  needsUnlock: 'Unlock your vault to make an estate bundle: the bundle names your vault by the key this browser checks when you unlock.',
  nothingGranted: 'None of your items is left to a beneficiary yet, so there is nothing to put in a bundle.',
  failed: 'The estate bundle could not be made. Please try again.',
  doneTitle: 'Estate bundle saved',
  doneBody: (people: number) => `A folder for ${people} ${people === 1 ? 'beneficiary' : 'beneficiaries'}, each with their items and the page that opens them.`,
  notSealed: (n: number) =>
    `${n} ${n === 1 ? 'item is' : 'items are'} not sealed by your vault yet, so the page will not open ${n === 1 ? 'it' : 'them'}. Keep your vault unlocked until sealing finishes, then make the bundle again.`,
  progress: (done: number, total: number) => `${done} of ${total} saved`,
} as const

/** The offline page's title (web/estate/open-estate.html says the same). */
export const ESTATE_PAGE_TITLE = 'Open your estate bundle'

// The offline page's words (web/estate/).
export const ESTATE_PAGE_MESSAGES = {
  kitMissing: 'Add your Access Kit first: paste it, or choose its file.',
  kitInvalid: 'This is not an Access Kit: no private key was found in it.',
  folderMissing: 'Choose your folder from the bundle (or all the files in it).',
  noVault: 'The vault.json file from your folder is missing.',
  wrongVault: 'These files do not come from the vault your Access Kit names. Nothing was opened.',
  uncheckedVault: (fingerprint: string) =>
    `Your Access Kit was printed before kits named the vault. Compare this fingerprint with the one the owner gave you: ${fingerprint}`,
  notSealed: 'Refused: this item does not carry a valid seal of the owner\u2019s vault, so it may not be theirs.',
  contentAltered: 'Refused: the encrypted file does not match its seal.',
  wrongKey: 'Your Access Kit does not open this item. It may be meant for someone else, or for a newer kit.',
  missingCipher: 'The encrypted file for this item is missing from the folder.',
  nothing: 'No items were found in these files.',
} as const
