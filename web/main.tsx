import { QueryClientProvider } from '@tanstack/react-query'
import { createRouter, RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { NotFoundPage } from '@/components/layout/not-found'
import { currentUserQuery } from '@/features/auth/api'
import { createQueryClient } from '@/lib/query-client'
import { routeTree } from './route-tree.gen'
import './styles.css'

const queryClient = createQueryClient()
// Nearly every page asks who is signed in before it shows anything: the question leaves now, while
// the page's own chunk downloads, rather than after it.
void queryClient.prefetchQuery(currentUserQuery)

const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultNotFoundComponent: NotFoundPage,
  scrollRestoration: true,
  defaultPreload: 'intent',
  defaultPreloadStaleTime: 0,
})

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
)
