import { Link } from '@tanstack/react-router'
import type { ReadinessProblem } from '../../../contract/readiness'

/** A readiness problem's fix: an in-app link (path and query), so the vault stays unlocked. */
export function FixLink({ fix, className }: { fix: ReadinessProblem['fix']; className?: string }) {
  const [path, query = ''] = fix.href.split('?')
  return (
    <Link to={path} search={Object.fromEntries(new URLSearchParams(query)) as never} className={className}>
      {fix.label}
    </Link>
  )
}
