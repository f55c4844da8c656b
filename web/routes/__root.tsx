import type { QueryClient } from '@tanstack/react-query'
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'
import { lazy, Suspense, useState } from 'react'
import { NotFoundPage } from '@/components/layout/not-found'
import { useFreshProofRequest } from '@/lib/fresh-proof-store'
import { useDocumentTitle } from '@/lib/document-title'
import { useCurrentToast } from '@/lib/toast-store'

export interface RouterContext {
  queryClient: QueryClient
}

// Radix Toast (and the layers under it) downloads with the first toast, not with every page.
const Toaster = lazy(() => import('@/components/ui/toaster').then((m) => ({ default: m.Toaster })))

function Toasts() {
  const current = useCurrentToast()
  const [needed, setNeeded] = useState(false)
  if (current && !needed) setNeeded(true)
  return needed ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null
}

// The "Confirm it's you" dialog downloads when an act first asks for fresh proof.
const FreshProofDialog = lazy(() => import('@/features/fresh-proof/fresh-proof-dialog').then((m) => ({ default: m.FreshProofDialog })))

function FreshProof() {
  const request = useFreshProofRequest()
  const [needed, setNeeded] = useState(false)
  if (request && !needed) setNeeded(true)
  return needed ? (
    <Suspense fallback={null}>
      <FreshProofDialog />
    </Suspense>
  ) : null
}

function Root() {
  useDocumentTitle()
  return (
    <>
      <Outlet />
      <Toasts />
      <FreshProof />
    </>
  )
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Root,
  notFoundComponent: NotFoundPage,
})
