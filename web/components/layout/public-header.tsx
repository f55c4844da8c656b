import { Link } from '@tanstack/react-router'
import { Menu } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { Logo } from '@/components/brand/logo'
import { Button } from '@/components/ui/button'

const links = [
  { to: '/how-it-works', label: 'How It Works' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/login', label: 'Sign In' },
  { to: '/register', label: 'Get Started' },
] as const

/** The public pages' top navigation: How It Works, Pricing, Sign In, Get Started. */
export function PublicHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
        <Link to="/" aria-label="Legacy Vault home">
          <Logo />
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {links.map((link, i) => (
            <Button key={link.to} variant={i === links.length - 1 ? 'default' : 'ghost'} asChild>
              <Link to={link.to}>{link.label}</Link>
            </Button>
          ))}
        </nav>
        <PhoneMenu />
      </div>
    </header>
  )
}

/**
 * Below the md breakpoint the links fold into a disclosure (the navigation pattern: a button with
 * aria-expanded and the list it shows), not a Radix menu: the landing page is the first thing a
 * visitor downloads, and a popper, focus scope and dismissable layer for four links would be a
 * sixth of it. Escape and a press outside close it, and Escape puts focus back on the button.
 */
function PhoneMenu() {
  const [open, setOpen] = useState(false)
  const panelId = useId()
  const root = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpen(false)
      button.current?.focus()
    }
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('keydown', onKey)
    document.addEventListener('pointerdown', onPointer)
    return () => {
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('pointerdown', onPointer)
    }
  }, [open])

  return (
    <div ref={root} className="relative md:hidden">
      <Button
        ref={button}
        variant="ghost"
        size="icon"
        aria-label="Open menu"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
      >
        <Menu aria-hidden />
      </Button>
      <nav
        id={panelId}
        aria-label="Main"
        hidden={!open}
        className="absolute right-0 top-full z-50 mt-1.5 min-w-48 rounded-md border border-slate-200 bg-white p-1 text-slate-900 shadow-lg"
      >
        <ul>
          {links.map((link) => (
            <li key={link.to}>
              <Link to={link.to} onClick={() => setOpen(false)} className="flex rounded-sm px-2 py-2 text-sm hover:bg-slate-100 focus-visible:bg-slate-100">
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  )
}
