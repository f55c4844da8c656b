import { describe, expect, it } from 'vitest'
import { ownerVault } from '../../worker/owner/client'
import { ask } from '../../worker/owner/outcome'
import { env, register } from './helpers'

// The owner's object hands out each domain as an RpcTarget facade (worker/services/*-facade.ts)
// and keeps what the facades stand on (its act machinery, its database, its host) out of RPC's
// reach: the worker calling it can only ask for what a domain offers.

describe("the owner's object over RPC", () => {
  it('answers a domain through its facade, in one pipelined call', async () => {
    const owner = await register()
    const stub = ownerVault(env, owner.user.id)
    expect(JSON.parse(await ask(stub.items().listItems()))).toEqual([])
    expect((await stub.engine().safetyWindow()).hours).toBeGreaterThanOrEqual(0)
  })

  it('keeps its act machinery, database and host out of reach', async () => {
    const owner = await register()
    const stub = ownerVault(env, owner.user.id) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>
    // Each asked for as a property: a member RPC can reach answers (a method as a callable stub); one it cannot, refuses.
    for (const name of ['act', 'runTick', 'linkOwner', 'updateDirectory', 'noteActivity', 'clock', 'view', 'host', 'db', 'itemList']) {
      await expect(Promise.resolve(stub[name]), name).rejects.toThrow(/does not implement/)
    }
    const items = (stub as unknown as { items: () => Record<string, unknown> }).items()
    await expect(Promise.resolve(items.h), 'a facade’s host').rejects.toThrow(/does not implement/)
  })
})
