import type { ItemMetadata } from '../../../../contract/vault-items'

/** Case-insensitive substring of the decrypted file name or any tag (seeds 001 §2). */
export function matchesSearch(metadata: Pick<ItemMetadata, 'filename' | 'tags'>, search: string): boolean {
  const needle = search.trim().toLowerCase()
  if (!needle) return true
  return metadata.filename.toLowerCase().includes(needle) || metadata.tags.some((tag) => tag.toLowerCase().includes(needle))
}
