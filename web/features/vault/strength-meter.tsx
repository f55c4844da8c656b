import { cn } from '@/lib/utils'
import type { PassphraseStrength } from './passphrase-strength'

const toneClass = { red: 'bg-red-500', yellow: 'bg-amber-400', green: 'bg-emerald-500' } as const
const textClass = { red: 'text-red-700', yellow: 'text-amber-700', green: 'text-emerald-700' } as const

export function StrengthMeter({ strength }: { strength: PassphraseStrength }) {
  return (
    <div className="grid gap-1.5" data-testid="strength-meter">
      <div className="flex items-center justify-between text-xs">
        <span className="text-slate-600">Strength</span>
        <span className={cn('font-semibold', textClass[strength.tone])} data-testid="strength-label">
          {strength.label}
        </span>
      </div>
      <div
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
        role="meter"
        aria-label="Passphrase strength"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={strength.score}
        aria-valuetext={`${strength.label} (${strength.score} of 100)`}
      >
        <div className={cn('h-full transition-all', toneClass[strength.tone])} style={{ width: `${strength.score}%` }} />
      </div>
      {strength.hints.length > 0 && (
        <ul className="list-disc pl-5 text-xs text-slate-600">
          {strength.hints.map((hint) => (
            <li key={hint}>{hint}</li>
          ))}
        </ul>
      )}
    </div>
  )
}
