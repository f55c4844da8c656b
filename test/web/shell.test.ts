import { describe, expect, it } from 'vitest'
import { APP_NAV, isNavActive } from '@/lib/nav'
import { dismissToast, getCurrentToast, toast } from '@/lib/toast-store'

describe('navigation highlighting (seeds 000 §2)', () => {
  it('highlights an item when the path equals it or starts with it', () => {
    expect(isNavActive('/vault', '/vault')).toBe(true)
    expect(isNavActive('/vault/items/1', '/vault')).toBe(true)
    expect(isNavActive('/beneficiaries', '/vault')).toBe(false)
    expect(isNavActive('/triggers', '/trigger-monitor')).toBe(false)
  })
  it('lists the six sections in the spec order', () => {
    expect(APP_NAV.map((i) => i.to)).toEqual([
      '/vault',
      '/beneficiaries',
      '/protocols',
      '/identity-verification',
      '/triggers',
      '/audit',
    ])
  })
})

describe('toasts (one at a time, seeds 000 §9)', () => {
  it('a new toast replaces the current one', () => {
    toast({ title: 'First' })
    toast({ title: 'Second', variant: 'destructive' })
    expect(getCurrentToast()).toMatchObject({ title: 'Second', variant: 'destructive' })
  })
  it('dismissing an older toast leaves the newer one; dismissing the current clears it', () => {
    const old = toast({ title: 'Old' })
    const fresh = toast({ title: 'New' })
    dismissToast(old)
    expect(getCurrentToast()?.title).toBe('New')
    dismissToast(fresh)
    expect(getCurrentToast()).toBeNull()
  })
})
