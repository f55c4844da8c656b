import { useRouterState } from '@tanstack/react-router'
import { useEffect } from 'react'

/**
 * Keeps document.title on the page shown (mounted once, in the root route). The titles
 * (page-titles.ts) load after the page, not with it: every page's first load counts.
 */
export function useDocumentTitle() {
  const fullPath = useRouterState({
    select: (state) => {
      const last = state.matches.at(-1)
      // The root alone matched: no route has this address.
      if (!last || last.routeId === '__root__' || state.matches.some((m) => m.status === 'notFound')) return undefined
      return last.fullPath as string
    },
  })
  useEffect(() => {
    let current = true
    void import('./page-titles').then(({ pageTitle }) => {
      if (current) document.title = pageTitle(fullPath)
    })
    return () => {
      current = false
    }
  }, [fullPath])
}
