import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { TRIGGER_TYPE_LABELS } from '../../../contract/triggers'
import { approversQuery, beneficiariesQuery } from '@/features/circle/api'
import { policiesQuery } from '@/features/policies/api'
import { triggersQuery } from '@/features/triggers/api'
import { useDecryptedMetadata } from '@/features/vault/items/decrypt-items'
import { vaultItemsQuery } from '@/features/vault/items/api'

/**
 * What the ids in audit entries stand for, in words: people and policies by name, triggers by
 * kind, items by their file name once the vault is unlocked in this browser (decrypted here only).
 */
export function useAuditNames(): (id: string) => string | undefined {
  const beneficiaries = useQuery(beneficiariesQuery)
  const approvers = useQuery(approversQuery)
  const policies = useQuery(policiesQuery)
  const triggers = useQuery(triggersQuery)
  const items = useQuery(vaultItemsQuery)
  const metadata = useDecryptedMetadata(items.data)
  return useMemo(() => {
    const names = new Map<string, string>()
    for (const b of beneficiaries.data ?? []) names.set(b.id, b.fullName)
    for (const a of approvers.data ?? []) names.set(a.id, a.fullName)
    for (const p of policies.data ?? []) names.set(p.id, p.name)
    for (const t of triggers.data ?? []) names.set(t.id, `${TRIGGER_TYPE_LABELS[t.type]?.title ?? 'A'} trigger`)
    for (const item of items.data ?? []) {
      const entry = metadata.get(item.id)
      names.set(item.id, entry?.status === 'ready' ? entry.metadata.filename : 'an item (unlock your vault to see its name)')
    }
    return (id: string) => names.get(id)
  }, [beneficiaries.data, approvers.data, policies.data, triggers.data, items.data, metadata])
}
