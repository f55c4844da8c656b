import { Link, useRouterState } from '@tanstack/react-router'
import { Lock, LogOut, Menu, Settings, ShieldCheck, User, CreditCard } from 'lucide-react'
import type { ReactNode } from 'react'
import type { PublicUser } from '../../../contract/auth'
import { SUPPORT_EMAIL } from '../../../contract/constants'
import { copyrightText } from './footer-copy'
import { Logo } from '@/components/brand/logo'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { isAdmin, useLogout } from '@/features/auth/api'
import { APP_NAV, isNavActive } from '@/lib/nav'
import { cn } from '@/lib/utils'
import { DeletionBanner } from './deletion-banner'
import { PaymentIssueBanner } from './payment-issue-banner'

function UserMenu({ user }: { user: PublicUser }) {
  const logout = useLogout()
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        {/* Named by its own text (the name, where shown, then "Account menu"), so what a voice user
            reads on screen is what they can say. */}
        <Button variant="ghost" className="gap-2 px-2">
          <span className="flex size-8 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-800" aria-hidden>
            {user.displayName.slice(0, 1).toUpperCase()}
          </span>
          <span className="hidden max-w-32 truncate lg:inline">{user.displayName}</span>
          <span className="sr-only">Account menu</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>
          <span className="block truncate">{user.displayName}</span>
          <span className="block truncate text-xs font-normal text-slate-500">{user.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {isAdmin(user) && (
          <DropdownMenuItem asChild>
            <Link to="/admin">
              <ShieldCheck aria-hidden /> Back office
            </Link>
          </DropdownMenuItem>
        )}
        <DropdownMenuItem asChild>
          <Link to="/profile">
            <User aria-hidden /> Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/settings">
            <Settings aria-hidden /> Settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/account">
            <CreditCard aria-hidden /> Account &amp; Billing
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => logout.mutate()} disabled={logout.isPending}>
          <LogOut aria-hidden /> Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}

function MobileNav({ pathname }: { pathname: string }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open navigation">
          <Menu aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start">
        {APP_NAV.map((item) => (
          <DropdownMenuItem key={item.to} asChild>
            <Link to={item.to} aria-current={isNavActive(pathname, item.to) ? 'page' : undefined}>
              {item.label}
            </Link>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}

/** The signed-in layout: header, navigation, user menu, footer, 'Encrypted' and 'Secure connection' marks. */
export function AppShell({ user, children }: { user: PublicUser; children: ReactNode }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        Skip to content
      </a>
      <header className="sticky top-0 z-40 border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:px-6">
          <MobileNav pathname={pathname} />
          <Link to="/dashboard" aria-label="Legacy Vault dashboard">
            <Logo />
          </Link>
          <nav aria-label="Main" className="ml-6 hidden items-center gap-1 md:flex">
            {APP_NAV.map((item) => {
              const active = isNavActive(pathname, item.to)
              return (
                <Link
                  key={item.to}
                  to={item.to}
                  aria-current={active ? 'page' : undefined}
                  className={cn(
                    'rounded-md px-3 py-2 text-sm font-medium transition-colors',
                    active ? 'bg-brand-50 text-brand-800' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
                  )}
                >
                  {item.label}
                </Link>
              )
            })}
          </nav>
          <div className="ml-auto flex items-center gap-2">
            <Badge variant="success" className="hidden sm:inline-flex" title="Your vault is encrypted in this browser">
              <Lock className="size-3" aria-hidden /> Encrypted
            </Badge>
            <UserMenu user={user} />
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 pt-8 pb-20 sm:px-6">
        <DeletionBanner user={user} />
        <PaymentIssueBanner user={user} pathname={pathname} />
        {children}
      </main>
      <footer className="border-t border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-6 text-sm text-slate-600 sm:px-6 md:flex-row md:items-center md:justify-between">
          <nav aria-label="Footer" className="flex flex-wrap gap-x-4 gap-y-2">
            <Link to="/vault" className="hover:text-slate-900">Vault</Link>
            <Link to="/beneficiaries" className="hover:text-slate-900">Beneficiaries</Link>
            <Link to="/subscribe" className="hover:text-slate-900">Pricing</Link>
            <Link to="/audit" className="hover:text-slate-900">Security</Link>
            <Link to="/terms" className="hover:text-slate-900">Terms</Link>
            <Link to="/privacy" className="hover:text-slate-900">Privacy</Link>
            <a href={`mailto:${SUPPORT_EMAIL}`} className="hover:text-slate-900">Contact</a>
          </nav>
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            {/* In the footer, not floating: it can never cover what the owner is reading. */}
            <span className="flex items-center gap-1.5 text-xs font-medium text-emerald-800" data-testid="secure-indicator">
              <ShieldCheck className="size-3.5" aria-hidden /> Secure connection
            </span>
            <p className="text-xs text-slate-500">{copyrightText()}</p>
          </div>
        </div>
      </footer>
    </div>
  )
}
