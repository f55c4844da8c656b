import * as policiesService from './policies'
import { assertVaultFormat } from '../owner/vault-keys'
import { type Account } from '../owner/account'
import { settle } from '../owner/outcome'
import { needsFreshProof } from './sooner'
import { DomainFacade } from '../owner/host'

/** Release policies (worker/services/policies.ts). */
export class PoliciesFacade extends DomainFacade {
  async listPolicies() {
    return settle(() => policiesService.listPolicies(this.h.db))
  }

  /** Access on request lets people start a release: a policy that turns it on needs fresh proof. */
  async createPolicy(account: Account, body: Parameters<typeof policiesService.createPolicy>[1], freshProof = false) {
    return settle(() => {
      assertVaultFormat(this.h.storage, body.vaultFormat)
      if (body.accessRequest && (body.status ?? 'active') === 'active' && !freshProof) throw needsFreshProof()
      return this.h.act(account, (u) => policiesService.createPolicy(u, body))
    })
  }

  /** Activating a policy with access on request arms it: fresh proof, as for creating one. Answers whether it did. */
  async setPolicyStatus(account: Account, id: string, status: 'active' | 'draft' | 'inactive', freshProof = false) {
    return settle(() =>
      this.h.act(account, (u) => {
        const armsRequests = policiesService.activationArmsRequests(u.db, id, status)
        if (armsRequests && !freshProof) throw needsFreshProof()
        return { policy: policiesService.setPolicyStatus(u, id, status), armsRequests }
      }),
    )
  }

  async addPolicyItems(account: Account, id: string, itemIds: string[]) {
    return settle(() => this.h.act(account, (u) => policiesService.addPolicyItems(u, id, itemIds)))
  }

  async deletePolicy(account: Account, id: string) {
    return settle(() => this.h.act(account, (u) => policiesService.deletePolicy(u, id)))
  }
}
