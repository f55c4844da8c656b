import { describe, expect, it } from 'vitest'
import { runSimulation } from './simulation/world'

describe('tmp seeds', () => {
  for (const seed of [6, 7, 8, 9]) {
    it(`seed ${seed}`, { timeout: 400_000 }, async () => {
      const result = await runSimulation(seed, { owners: 8, days: 120, maxSteps: 400 })
      const s = result.stats
      console.log(`TMPSEED ${seed} violations=${result.violations.length} dl=${s['firings.device_loss'] ?? 0} tu=${s['actions.trusted_use'] ?? 0} ts=${s['actions.trusted_sign_in'] ?? 0} days=${s.simulatedDays} runMs=${s.runMs}`)
      for (const v of result.violations) console.log(`TMPVIOL ${seed} ${v.split('\n')[0]}`)
      expect(true).toBe(true)
    })
  }
})
