import { X } from 'lucide-react'
import { Toast } from 'radix-ui'
import { dismissToast, useCurrentToast } from '@/lib/toast-store'
import { cn } from '@/lib/utils'

const variants = {
  default: 'border-slate-200 bg-white text-slate-900',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-900',
  destructive: 'border-red-300 bg-red-600 text-white',
} as const

/** Renders the one current toast (Radix Toast: announced to screen readers, swipe or Esc to close). */
export function Toaster() {
  const current = useCurrentToast()
  return (
    <Toast.Provider swipeDirection="right" duration={6000}>
      {current && (
        <Toast.Root
          key={current.id}
          data-testid="toast"
          data-variant={current.variant}
          onOpenChange={(open) => !open && dismissToast(current.id)}
          className={cn(
            'relative flex w-full items-start gap-3 rounded-lg border p-4 pr-10 shadow-lg data-[swipe=end]:animate-out',
            variants[current.variant],
          )}
        >
          <div className="grid gap-1">
            <Toast.Title className="text-sm font-semibold">{current.title}</Toast.Title>
            {current.description && <Toast.Description className="text-sm opacity-90">{current.description}</Toast.Description>}
          </div>
          <Toast.Close aria-label="Close" className="absolute right-2 top-2 rounded p-1 opacity-70 hover:opacity-100">
            <X className="size-4" aria-hidden />
          </Toast.Close>
        </Toast.Root>
      )}
      <Toast.Viewport className="fixed bottom-0 right-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 sm:bottom-4 sm:right-4 sm:max-w-sm sm:p-0" />
    </Toast.Provider>
  )
}
