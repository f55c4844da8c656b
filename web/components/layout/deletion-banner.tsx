import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Trash2 } from 'lucide-react'
import { DELETION_MESSAGES } from '../../../contract/account-deletion'
import type { PublicUser } from '../../../contract/auth'
import { Button } from '@/components/ui/button'
import { currentUserKey } from '@/features/auth/api'
import { apiJson, errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'

/**
 * Everywhere in the app while the account waits out its deletion: when it goes, that nothing can
 * change until then, and the one way back (which asks the owner to confirm it is them).
 */
export function DeletionBanner({ user }: { user: PublicUser }) {
  const queryClient = useQueryClient()
  const keep = useMutation({
    mutationFn: () => apiJson<{ message: string; user: PublicUser }>('POST', '/api/account/deletion/cancel'),
    onSuccess: (data) => {
      queryClient.setQueryData(currentUserKey, data.user)
      void queryClient.invalidateQueries()
      toast({ title: 'Account kept', description: data.message, variant: 'success' })
    },
    onError: (error) => toast({ title: 'Your account is still set to be deleted', description: errorText(error, 'Please try again.'), variant: 'destructive' }),
  })
  if (!user.deletionScheduledFor) return null
  return (
    <div
      role="status"
      data-testid="deletion-banner"
      className="mb-6 flex flex-col gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-950 sm:flex-row sm:items-center sm:justify-between"
    >
      <p className="flex items-start gap-2">
        <Trash2 className="mt-0.5 size-4 shrink-0 text-red-700" aria-hidden />
        <span>{DELETION_MESSAGES.banner(user.deletionScheduledFor)}</span>
      </p>
      <Button size="sm" variant="outline" className="shrink-0 self-start sm:self-auto" disabled={keep.isPending} onClick={() => keep.mutate()}>
        {keep.isPending ? 'Keeping your account...' : 'Keep my account'}
      </Button>
    </div>
  )
}
