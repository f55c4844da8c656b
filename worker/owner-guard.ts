import { DurableObject } from 'cloudflare:workers'

export type OwnerActivity = 'registered' | 'signed_in' | 'checked_in'

export interface OwnerGuardState {
  lastActivityAt: number | null
  lastActivity: OwnerActivity | null
}

/**
 * One per owner (`idFromName(userId)`). It is the single writer of the owner's inactivity clock;
 * the release engine arms its alarm from here. For now it records the owner's last sign of life.
 */
export class OwnerGuard extends DurableObject<Env> {
  async recordActivity(kind: OwnerActivity, at: number): Promise<OwnerGuardState> {
    const previous = this.ctx.storage.kv.get<number>('lastActivityAt') ?? null
    // Activity only moves the clock forward: a delayed, older report cannot rewind it.
    if (previous === null || at >= previous) {
      this.ctx.storage.kv.put('lastActivityAt', at)
      this.ctx.storage.kv.put('lastActivity', kind)
    }
    return this.state()
  }

  async state(): Promise<OwnerGuardState> {
    return {
      lastActivityAt: this.ctx.storage.kv.get<number>('lastActivityAt') ?? null,
      lastActivity: this.ctx.storage.kv.get<OwnerActivity>('lastActivity') ?? null,
    }
  }
}
