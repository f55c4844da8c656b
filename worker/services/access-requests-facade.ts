import { HOUR_MS } from '../../contract/constants'
import * as accessRequestsService from './access-requests'
import { type Account } from '../owner/account'
import { settle } from '../owner/outcome'
import { safetyWindowHours } from '../owner/unit'
import { DomainFacade } from '../owner/host'

/** Access on request (contract/access-requests.ts): the owner's side and the requester's. */
export class AccessRequestsFacade extends DomainFacade {
  async ownerAccessRequests(account: Account, now = Date.now()) {
    return settle(() => accessRequestsService.ownerRequests(this.h.db, now, safetyWindowHours(this.h.storage)))
  }

  /** "Approve now" (the route asks for fresh proof): the tick arms whatever still waits (approvals). */
  async approveAccessRequest(account: Account, id: string, now = Date.now()) {
    return settle(() => this.h.act(account, (u) => accessRequestsService.approveRequest(u, id), { now, tick: true }))
  }

  async refuseAccessRequest(account: Account, id: string, now = Date.now()) {
    return settle(() => this.h.act(account, (u) => accessRequestsService.refuseRequest(u, id, 'app'), { now, tick: true }))
  }

  /** The owner's Refuse link: what it refuses, before the click. */
  async accessRefuseView(id: string) {
    return settle(async () => accessRequestsService.refuseView(this.h.db, (await this.h.linkOwner()).displayName, id))
  }

  /** The owner's Refuse link: safe without signing in, since it only holds things back. */
  async refuseAccessRequestByLink(id: string, now = Date.now()) {
    return settle(async () => {
      const owner = await this.h.linkOwner()
      return this.h.act(owner, (u) => accessRequestsService.refuseRequest(u, id, 'link'), { now, tick: true })
    })
  }

  /** What a beneficiary (portal) or approver (their link) may ask for, and where each request stands. */
  async requesterView(requester: accessRequestsService.Requester, now = Date.now()) {
    return settle(async () => {
      const owner = await this.h.linkOwner()
      return accessRequestsService.requesterView(this.h.db, owner.displayName, requester, now, safetyWindowHours(this.h.storage) * HOUR_MS)
    })
  }

  async askForAccess(requester: accessRequestsService.Requester, policyId: string, now = Date.now()) {
    return settle(async () => {
      const owner = await this.h.linkOwner()
      return this.h.act(owner, (u) => accessRequestsService.askForAccess(u, requester, policyId), { now, tick: true })
    })
  }
}
