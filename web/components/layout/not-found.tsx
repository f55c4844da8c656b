import { Link } from '@tanstack/react-router'
import { PAGES } from '../../../contract/messages'
import { Button } from '@/components/ui/button'

export function NotFoundPage() {
  return (
    // Its own main landmark (not the public layout: this page is in every page's first load).
    <main id="main" className="flex min-h-[60vh] flex-col items-center justify-center px-4 text-center">
        <p className="text-sm font-semibold text-brand-700">404</p>
        <h1 className="mt-2 text-3xl font-bold text-slate-900">{PAGES.notFound}</h1>
        <p className="mt-3 max-w-md text-slate-600">The page you are looking for does not exist or has moved.</p>
        <Button asChild className="mt-6">
          <Link to="/">Back to Home</Link>
        </Button>
    </main>
  )
}
