import type { ReactNode } from 'react'
import { PublicFooter } from './public-footer'
import { PublicHeader } from './public-header'

export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <PublicHeader />
      <main id="main" className="flex-1">
        {children}
      </main>
      <PublicFooter />
    </div>
  )
}
