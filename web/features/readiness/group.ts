import type { ReadinessProblem } from '../../../contract/readiness'

export interface ProblemGroup {
  key: string
  severity: ReadinessProblem['severity']
  message: string
  fix: ReadinessProblem['fix']
  count: number
}

/**
 * Problems with the same words and fix shown once, with how many items share them (a vault of a
 * thousand items under a protocol no trigger serves is one line, not a thousand); errors first.
 */
export function groupProblems(problems: readonly ReadinessProblem[]): ProblemGroup[] {
  const groups = new Map<string, ProblemGroup>()
  for (const p of problems) {
    const key = `${p.kind}\n${p.message}\n${p.fix.href}`
    const found = groups.get(key)
    if (found) found.count++
    else groups.set(key, { key, severity: p.severity, message: p.message, fix: p.fix, count: 1 })
  }
  return [...groups.values()].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1))
}
