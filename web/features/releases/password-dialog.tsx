import type { PasswordEntry } from '../../../contract/vault-items'
import { EntryDialog, EntryRow, PasswordEntryFields } from '@/features/vault/items/entry-view'

// A released password entry, shown rather than saved as a JSON file, as the owner's vault does
// (its notes, too, with a copy button).

export function PasswordEntryDialog({ entry, title, onClose }: { entry: PasswordEntry | null; title: string; onClose: () => void }) {
  return (
    <EntryDialog open={entry !== null} title={title} onClose={onClose}>
      {entry && <PasswordEntryFields entry={entry} notes={entry.notes && <EntryRow label="Notes" value={entry.notes} />} />}
    </EntryDialog>
  )
}
