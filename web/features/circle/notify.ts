import { errorText, PaymentRedirectError } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { CIRCLE_TOASTS } from './copy'

/** A failed owner action: the spec's title, the server's words (a 402 plan limit included). */
export function toastFailure(title: string, error: unknown): void {
  // The client is already on its way to /subscribe: nothing to say.
  if (error instanceof PaymentRedirectError) return
  toast({ title, description: errorText(error, CIRCLE_TOASTS.fallback), variant: 'destructive' })
}

export function toastSuccess(title: string, description?: string): void {
  toast({ title, description, variant: 'success' })
}
