import { useSyncExternalStore } from 'react'

// Toasts show one at a time (seeds 000 §9): a new one replaces whatever is on screen.
export interface ToastMessage {
  id: number
  title: string
  description?: string
  variant: 'default' | 'destructive' | 'success'
}

let current: ToastMessage | null = null
let nextId = 1
const listeners = new Set<() => void>()

function emit() {
  for (const listener of listeners) listener()
}

export function toast(message: Omit<ToastMessage, 'id' | 'variant'> & { variant?: ToastMessage['variant'] }): number {
  current = { variant: 'default', ...message, id: nextId++ }
  emit()
  return current.id
}

export function dismissToast(id: number): void {
  if (current?.id === id) {
    current = null
    emit()
  }
}

export function getCurrentToast(): ToastMessage | null {
  return current
}

export function useCurrentToast(): ToastMessage | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    getCurrentToast,
    () => null,
  )
}
