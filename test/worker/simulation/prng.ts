// A small seeded PRNG (mulberry32): the same seed replays the same simulation, action for action.

export interface Rng {
  /** A float in [0, 1). */
  next(): number
  /** An integer in [lo, hi] (both inclusive). */
  int(lo: number, hi: number): number
  chance(p: number): boolean
  pick<T>(list: readonly T[]): T
  /** Picks by weight; entries with weight 0 never come out. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T
  /** A random subset (each element kept with probability p), never empty if `nonEmpty`. */
  subset<T>(list: readonly T[], p: number, nonEmpty?: boolean): T[]
}

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  const rng: Rng = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (list) => {
      if (list.length === 0) throw new Error('pick from an empty list')
      return list[Math.floor(next() * list.length)]!
    },
    weighted: (entries) => {
      const total = entries.reduce((n, [, w]) => n + w, 0)
      let r = next() * total
      for (const [value, w] of entries) {
        if (w <= 0) continue
        r -= w
        if (r < 0) return value
      }
      const last = entries.filter(([, w]) => w > 0).at(-1)
      if (!last) throw new Error('weighted pick with no positive weight')
      return last[0]
    },
    subset: (list, p, nonEmpty = false) => {
      const out = list.filter(() => next() < p)
      if (nonEmpty && out.length === 0 && list.length > 0) out.push(list[Math.floor(next() * list.length)]!)
      return out
    },
  }
  return rng
}
