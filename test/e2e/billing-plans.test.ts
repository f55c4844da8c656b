import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PLAN_LIST } from '../../contract/plans'
import { launch, newPage } from './browser'

// 0.3 · 6 of 7: /pricing lists what each plan really has (contract/plans.ts is the one place).

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

describe('/pricing', () => {
  it("lists for each plan exactly what contract/plans.ts gives it: triggers and multi-factor sign-in on every plan", async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/pricing')
    for (const plan of PLAN_LIST) {
      const list = page.getByRole('list', { name: `${plan.name} plan features` })
      await list.waitFor()
      const shown = (await list.getByRole('listitem').allTextContents()).map((t) => t.trim())
      expect(shown).toEqual(plan.features)
      expect(shown).toEqual(expect.arrayContaining(['Inactivity detection', 'Manual release triggers', expect.stringMatching(/^Multi-factor sign-in/)]))
    }
    await context.close()
  }, 180_000)
})
