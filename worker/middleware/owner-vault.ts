import type { Context } from 'hono'
import type { Account } from '../owner/account'
import { ownerVault, type OwnerVaultStub } from '../owner/client'
import type { AppEnv } from '../types'
import { addTiming } from './server-timing'

/** In an owner route (after requireUser): the signed-in owner's object. */
export function vaultOf(c: Context<AppEnv>): OwnerVaultStub {
  const stub = ownerVault(c.env, c.var.account.id)
  // Locally, each call's round trip counts under `owner` in the Server-Timing header.
  return c.get('timings') ? timedMembers(c, stub) : stub
}

export function accountIn(c: Context<AppEnv>): Account {
  return c.var.account
}

/**
 * The stub with each call through it timed from the call until its answer, a facade's too
 * (`vault.items().listItems()`). A call's answer stays the RPC promise it was, so a facade's call is
 * still pipelined into one round trip; a call is applied with its owner as `this`, never through the
 * member's own `apply`, which would be sent to the object.
 */
function timedMembers<T extends object>(c: Context<AppEnv>, target: T, owner?: object): T {
  return new Proxy(target, {
    get(t, name) {
      const member = Reflect.get(t, name) as unknown
      if (typeof name !== 'string' || name === 'then' || typeof member !== 'function') return member
      return timedMembers(c, member, t)
    },
    apply(fn, _this, args: unknown[]) {
      const started = performance.now()
      const answer = Reflect.apply(fn as (...a: unknown[]) => unknown, owner, args) as object
      return timedAnswer(c, answer, started)
    },
  })
}

function timedAnswer<T extends object>(c: Context<AppEnv>, answer: T, started: number): T {
  return new Proxy(answer, {
    get(t, name) {
      const member = Reflect.get(t, name) as unknown
      if (typeof name !== 'string' || typeof member !== 'function') return member
      // A pipelined call on the answer (`.items().listItems()`) is timed on its own.
      if (name !== 'then') return timedMembers(c, member, t)
      return (onDone?: (value: unknown) => unknown, onFailed?: (error: unknown) => unknown) =>
        Reflect.apply(member, t, [
          (value: unknown) => {
            addTiming(c, 'owner', performance.now() - started)
            return onDone ? onDone(value) : value
          },
          (error: unknown) => {
            addTiming(c, 'owner', performance.now() - started)
            if (onFailed) return onFailed(error)
            throw error
          },
        ])
    },
  })
}
