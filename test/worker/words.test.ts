import { describe, expect, it } from 'vitest'
import { assetRows, createTrigger, guard, manualReleaseOk, policyCovering } from './engine-helpers'
import { addBeneficiary, outboxFor, register, waitFor } from './helpers'
import { ownerExec, ownerRow } from './owner-helpers'
import { publicKey, uploadItem } from './vault-helpers'

// What the owner's screens promise about the e-mails heirs receive, held to what the engine does
// (issue 0.3 · 6 of 7, "every sentence true").

const HOUR = 3_600_000
const settle = () => new Promise((resolve) => setTimeout(resolve, 150))

describe('"Disable Notifications" and an unconfirmed address', () => {
  it('stop only the early notice: the release e-mail with the link still goes, to an address never confirmed', async () => {
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await publicKey(), { fullName: 'Quiet Heir', sendAssetNotifications: false })
    expect((await ownerRow(owner.user.id, 'select email_verified_at from beneficiaries where id = ?', heir.id))!.email_verified_at).toBeNull()
    const { item } = await uploadItem(owner.token, [heir.id])
    await ownerExec(owner.user.id, ['update item_grants set direct = 0 where item_id = ?', item.id])
    await policyCovering(owner.token, heir.id, [item.id])
    const trigger = await createTrigger(owner.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(owner.token, trigger.id)).toMatchObject({ pendingReleases: 1 })

    await settle()
    const subjects = async () => (await outboxFor(heir.email)).map((m) => m.subject)
    expect((await subjects()).filter((s) => s.endsWith('has started a release to you'))).toEqual([])

    await guard(owner.user.id).tick(Date.now() + 73 * HOUR)
    await waitFor(async () => (await subjects()).some((s) => s.endsWith('has left something for you')))
    expect((await assetRows(owner.user.id, heir.id)).map((a) => a.status)).toEqual(['available'])
  })
})
