import { z } from 'zod'
import type { ItemType } from './vault-items'

// Taking the vault out (0.3 · 5 of 7): the owner's "Download my vault" and the heir's "Download
// all" write every item, decrypted in the browser, into one ZIP. The server never sees the ZIP;
// the owner's browser reports a finished export so it enters the owner's audit chain.

export const EXPORT_AUDIT_ACTION = 'vault.exported'

/** The most items a vault can hold (the largest plan) is far below this. */
const MAX_COUNT = 1_000_000

/** POST /api/vault/exports: a finished export, by counts only (never names). */
export const exportRecordBodySchema = z.strictObject({
  included: z.number({ error: 'included must be a number' }).int().min(0).max(MAX_COUNT),
  leftOut: z.number({ error: 'leftOut must be a number' }).int().min(0).max(MAX_COUNT),
})
export type ExportRecordBody = z.infer<typeof exportRecordBodySchema>

// The ZIP's manifest.json (its manifest.csv has the same columns).
export interface ManifestEntry {
  /** Its path in the ZIP; null when it was left out. */
  file: string | null
  name: string
  type: ItemType
  mimetype: string | null
  /** Plaintext bytes written (a password entry: its text file's); null when left out. */
  size: number | null
  createdAt: string | null
  releasedAt?: string
  tags: string[]
  /** Why it is not in the ZIP. */
  problem?: string
}

export interface ExportManifest {
  format: 'legacy-vault/export'
  version: 1
  exportedAt: string
  included: number
  leftOut: number
  items: ManifestEntry[]
}

export const EXPORT_MESSAGES = {
  recorded: 'Export recorded.',
  untitled: 'Untitled',
  passwordFileTitle: 'Password entry',
  passwordTooLarge: 'This password entry is larger than a password entry can be.',
  itemFailed: 'This item could not be decrypted.',
  stoppedAt: (name: string) =>
    `The download stopped at “${name}”: part of it could not be decrypted. Nothing was saved as if complete. Please try again.`,
  ownerTitle: 'Download my vault',
  ownerBody:
    'Save a copy of everything in your vault to this device: every item decrypted in this browser into one ZIP file, with a list of names, types and dates.',
  confirmTitle: 'Download everything unencrypted?',
  confirmBody:
    'The ZIP file will hold every item in your vault, decrypted: files, and password entries as plain text. Anyone who can open the file can read all of it. Keep it somewhere safe, and delete it when you no longer need it.',
  needsUnlock: 'Unlock your vault to download everything in it.',
  empty: 'Your vault is empty: there is nothing to download yet.',
  progress: (done: number, total: number) => `${done} of ${total} ${total === 1 ? 'item' : 'items'}`,
  willHold: (n: number) => `The file will hold ${n} ${n === 1 ? 'item' : 'items'}.`,
  cancelled: 'The download was cancelled. Nothing was saved.',
  doneTitle: 'Vault downloaded',
  doneBody: (included: number) => `${included} ${included === 1 ? 'item was' : 'items were'} decrypted and saved in one ZIP file.`,
  leftOutTitle: (n: number) => `${n} ${n === 1 ? 'item was' : 'items were'} left out`,
  leftOutBody: 'They are listed in the ZIP’s manifest too.',
  failedTitle: 'The download did not finish',
  failed: 'Your vault could not be downloaded. Please try again.',
  heirTitle: 'Download all',
  heirBody: (n: number) =>
    `Save the ${n === 1 ? 'item' : `${n} items`} you can open into one ZIP file, each decrypted in this browser after its seal is checked.`,
  heirCounts: 'Each item saved counts as one of its downloads, as a single download does.',
  heirNeedsKey: 'Load your private key above to download everything at once.',
  heirNothing: 'None of these items can be downloaded now.',
  heirNotIncluded: 'Not included',
  heirSomeLeftOut: (n: number) => `${n === 1 ? '1 item' : `${n} items`} cannot be included now; ${n === 1 ? 'its card says' : 'their cards say'} why.`,
  heirUnencrypted: 'The ZIP file holds them decrypted: anyone who can open the file can read them. Keep it somewhere safe.',
  heirDoneBody: (included: number) => `${included} ${included === 1 ? 'item was' : 'items were'} decrypted and saved in one ZIP file.`,
} as const
