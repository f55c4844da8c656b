import { useSyncExternalStore } from 'react'
import type { ProofMethod } from '../../contract/fresh-proof-constants'

// The API asked for fresh proof (a 403 with `requiresFreshProof`): one dialog asks the person, and
// every call waiting on it learns the outcome at once (several calls refused together share it).

export interface FreshProofRequest {
  methods: ProofMethod[]
}

let pending: { request: FreshProofRequest; settle: (proved: boolean) => void; promise: Promise<boolean> } | null = null
const listeners = new Set<() => void>()

function emit() {
  for (const listener of listeners) listener()
}

/** Asks the person to prove it is them; resolves true once they have, false if they gave up. */
export function requestFreshProof(methods: ProofMethod[]): Promise<boolean> {
  if (pending) return pending.promise
  let settle!: (proved: boolean) => void
  const promise = new Promise<boolean>((resolve) => {
    settle = resolve
  })
  pending = { request: { methods: methods.length ? methods : ['password'] }, settle, promise }
  emit()
  return promise
}

export function settleFreshProof(proved: boolean): void {
  const current = pending
  pending = null
  emit()
  current?.settle(proved)
}

/** The dialog opened or closed: closed without proving is giving up, never proof. */
export function freshProofDialogChanged(open: boolean): void {
  if (!open) settleFreshProof(false)
}

/** The request waiting for the person, if any. */
export function pendingFreshProof(): FreshProofRequest | null {
  return pending?.request ?? null
}

export function useFreshProofRequest(): FreshProofRequest | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    pendingFreshProof,
    () => null,
  )
}
