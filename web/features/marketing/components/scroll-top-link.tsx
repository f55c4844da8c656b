import { Link, useNavigate } from '@tanstack/react-router'
import type { MouseEvent, ReactNode } from 'react'
import { REDIRECT_DELAY_MS } from '../../../../contract/constants'
import { Button, type ButtonProps } from '@/components/ui/button'

/**
 * A button-styled link to /pricing that, once the navigation has happened, scrolls the window to
 * the top after REDIRECT_DELAY_MS.landingScroll (seeds 000 §2 and §9: the landing page's closing
 * call to action). Modified clicks (new tab, new window) are left to the browser.
 */
export function PricingScrollTopButton({
  children,
  variant,
  size,
  className,
}: {
  children: ReactNode
  variant?: ButtonProps['variant']
  size?: ButtonProps['size']
  className?: string
}) {
  const navigate = useNavigate()
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return
    event.preventDefault()
    void navigate({ to: '/pricing' }).then(() => {
      window.setTimeout(() => window.scrollTo({ top: 0, left: 0 }), REDIRECT_DELAY_MS.landingScroll)
    })
  }
  return (
    <Button asChild variant={variant} size={size} className={className}>
      <Link to="/pricing" onClick={onClick}>
        {children}
      </Link>
    </Button>
  )
}
