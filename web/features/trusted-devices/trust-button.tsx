import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query'
import { ShieldCheck, ShieldOff } from 'lucide-react'
import { TRUSTED_DEVICE_MESSAGES, type TrustResult } from '../../../contract/trusted-devices'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { apiJson, errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'

// Marking a device as trusted (contract/trusted-devices.ts), from the Security keys and Signed-in
// devices lists. The API asks for fresh proof; apiJson shows its dialog and tries again.

/** PUT marks, DELETE stops trusting; the list the device is in is read again either way. */
export function useTrustToggle(path: string, listKey: QueryKey) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (trusted: boolean) => apiJson<TrustResult>(trusted ? 'PUT' : 'DELETE', path),
    onSuccess: (result) => toast({ title: result.message, variant: 'success' }),
    onError: (error) => toast({ title: TRUSTED_DEVICE_MESSAGES.changeFailed, description: errorText(error, 'Please try again.'), variant: 'destructive' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: listKey }),
  })
}

export function TrustedBadge() {
  return (
    <Badge variant="success">
      <ShieldCheck aria-hidden className="size-3" /> {TRUSTED_DEVICE_MESSAGES.trustedBadge}
    </Badge>
  )
}

/** "Mark as trusted" or "Stop trusting", named for the device it acts on. */
export function TrustButton({ trusted, deviceName, path, listKey }: { trusted: boolean; deviceName: string; path: string; listKey: QueryKey }) {
  const toggle = useTrustToggle(path, listKey)
  const label = trusted ? TRUSTED_DEVICE_MESSAGES.unmarkTrusted : TRUSTED_DEVICE_MESSAGES.markTrusted
  return (
    <Button variant="outline" size="sm" disabled={toggle.isPending} onClick={() => toggle.mutate(!trusted)} aria-label={`${label}: ${deviceName}`}>
      {trusted ? <ShieldOff aria-hidden /> : <ShieldCheck aria-hidden />} {label}
    </Button>
  )
}
