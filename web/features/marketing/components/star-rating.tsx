import { Star } from 'lucide-react'
import { cn } from '@/lib/utils'

const MAX_STARS = 5

/** A 1–5 star rating, announced as "4 out of 5 stars". */
export function StarRating({ rating, className }: { rating: number; className?: string }) {
  const value = Math.max(0, Math.min(MAX_STARS, Math.round(rating)))
  return (
    <div role="img" aria-label={`${value} out of ${MAX_STARS} stars`} className={cn('flex gap-0.5', className)}>
      {Array.from({ length: MAX_STARS }, (_, i) => (
        <Star
          key={i}
          aria-hidden
          className={cn('size-4', i < value ? 'fill-amber-400 text-amber-400' : 'fill-slate-200 text-slate-200')}
        />
      ))}
    </div>
  )
}
