import type { ItemMetadata, ItemType, VaultItem } from '../../../../contract/vault-items'
import type { DecryptedMetadata } from './decrypt-items'

/** Case-insensitive substring of the decrypted file name or any tag (seeds 001 §2). */
export function matchesSearch(metadata: Pick<ItemMetadata, 'filename' | 'tags'>, search: string): boolean {
  const needle = search.trim().toLowerCase()
  if (!needle) return true
  return metadata.filename.toLowerCase().includes(needle) || metadata.tags.some((tag) => tag.toLowerCase().includes(needle))
}

/**
 * The vault list as filtered: by type, and by the search over decrypted names and tags. A locked
 * vault ignores the search (nothing is decrypted to match); an item not yet decrypted, or one that
 * could not be, never matches a search. `filtered` says whether the count is "n of all".
 */
export function visibleItems<T extends Pick<VaultItem, 'id' | 'type'>>(
  items: readonly T[],
  filters: { type: 'all' | ItemType; search: string; unlocked: boolean },
  metadataOf: (id: string) => DecryptedMetadata | undefined,
): { visible: T[]; filtered: boolean } {
  const activeSearch = filters.unlocked ? filters.search.trim() : ''
  const visible = items.filter((item) => {
    if (filters.type !== 'all' && item.type !== filters.type) return false
    if (!activeSearch) return true
    const entry = metadataOf(item.id)
    return entry?.status === 'ready' && matchesSearch(entry.metadata, activeSearch)
  })
  return { visible, filtered: filters.type !== 'all' || activeSearch !== '' }
}
