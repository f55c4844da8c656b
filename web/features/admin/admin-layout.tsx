import { LogOut } from 'lucide-react'
import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { Logo } from '@/components/brand/logo'
import { Button } from '@/components/ui/button'
import { vaultSession } from '@/features/vault/vault-session'
import { apiRequest, tokenStore } from '@/lib/api-client'

/** The admin back office frame: title and a Sign Out that ends the session and goes to /login. */
export function AdminLayout({ children }: { children: ReactNode }) {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const signOut = async () => {
    try {
      await apiRequest('POST', '/api/auth/logout')
    } finally {
      tokenStore.clear()
      vaultSession.lock()
      queryClient.clear()
      await navigate({ to: '/login' })
    }
  }
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6" data-testid="admin-header">
          {/* On a phone the mark alone stands for the product, so the title is never cut. */}
          <div className="flex min-w-0 items-center gap-3">
            <Logo nameClassName="sr-only sm:not-sr-only" />
            <span className="hidden text-slate-400 sm:inline" aria-hidden>/</span>
            <h1 className="whitespace-nowrap text-base font-semibold text-slate-900 sm:text-lg">Admin Dashboard</h1>
          </div>
          {/* Icon only on a phone, so the header keeps to one line. */}
          <Button variant="outline" onClick={signOut} aria-label="Sign Out" className="shrink-0">
            <LogOut aria-hidden /> <span className="hidden sm:inline">Sign Out</span>
          </Button>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-7xl px-4 py-8 sm:px-6 [&>*]:min-w-0">
        {children}
      </main>
    </div>
  )
}
