import { RpcTarget } from 'cloudflare:workers'
import type { ClockState, Schedule } from '../engine/clock'
import type { ClockReading } from '../services/triggers'
import type { Account } from './account'
import type { OwnerDb } from './db'
import type { Unit } from './unit'

// The owner's object (worker/host/vault-object.ts) is the host; the domain facades it hands out
// over RPC (worker/services/*-facade.ts, `vault.items().listItems()`) sit beside their services and
// reach the object only through this interface. So the arrows run one way: host → facades and
// services → this floor (worker/owner), never back up.

export type OwnerActivity = 'registered' | 'signed_in' | 'checked_in'

export interface OwnerVaultState {
  lastActivityAt: number | null
  lastActivity: OwnerActivity | null
}

export interface ClockView {
  state: ClockState
  lastCheckInAt: number
  phase: ClockState['phase']
  nextAlarmAt: number | null
  /** The schedule the clock runs on: null, like the times below, without an active inactivity trigger. */
  schedule: Schedule | null
  nextCheckInAt: number | null
  reminderAt: number | null
  firesAt: number | null
}

export interface ActOptions<T> {
  now?: number
  /** Runs the engine's tick in the act's transaction (and sets the alarm exactly); a function decides from the act's result. */
  tick?: boolean | ((result: T) => boolean)
  forceDirectory?: boolean
  checkIn?: boolean
}

export interface OwnerHost {
  readonly ownerId: string
  readonly env: Env
  readonly db: OwnerDb
  readonly storage: DurableObjectStorage
  /** One act in one transaction with its audit entry, e-mails and plan checks (worker/owner/unit.ts). */
  act<T>(account: Account, run: (u: Unit) => T, options?: ActOptions<T>): Promise<T>
  /** Runs everything due now; null when the account is gone. */
  runTick(account: Account | undefined, now: number): Promise<Account | null>
  /** The owner a link acts for; a link to a deleted account is no link (400). */
  linkOwner(): Promise<Account>
  clock(now: number): ClockState
  reading(now: number): ClockReading
  view(now: number): ClockView
  noteActivity(kind: OwnerActivity, at: number): void
  /** Brings D1's directory row up to date (`force`: written even when unchanged). */
  updateDirectory(force?: boolean): Promise<void>
  /** The item list's JSON kept in memory while nothing changed (ItemsFacade.listItems). */
  itemList: { changes: number; text: string } | null
}

/**
 * A domain's facade: its public methods are what RPC reaches; the host it stands on is an
 * instance property, which RPC never exposes (owner-facades.test.ts).
 */
export abstract class DomainFacade extends RpcTarget {
  constructor(protected readonly h: OwnerHost) {
    super()
  }
}
