import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { Logo } from '@/components/brand/logo'
import { cn } from '@/lib/utils'

/**
 * A public page's own header: the logo linking home, and the page's actions on the right.
 * `compact` drops the product name below 400px, to leave room for two buttons on a phone.
 */
export function SimpleHeader({ children, compact = false }: { children?: ReactNode; compact?: boolean }) {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
        <Link to="/" aria-label="Legacy Vault home" className="shrink-0 rounded-md">
          <Logo className={cn(compact && '[&>span:last-child]:hidden min-[400px]:[&>span:last-child]:inline')} />
        </Link>
        {children && (
          <nav aria-label="Page" className="flex items-center gap-2">
            {children}
          </nav>
        )}
      </div>
    </header>
  )
}
