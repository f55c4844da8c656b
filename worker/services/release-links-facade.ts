import { type AssetDownload } from '../../contract/releases'
import * as accessRequestsService from './access-requests'
import * as releaseLinks from './release-links'
import * as renewals from './renewals'
import { loadAccount } from '../owner/account'
import { settle, type Outcome } from '../owner/outcome'
import { vaultKeysOf } from '../owner/vault-keys'
import { DomainFacade } from '../owner/host'

// An heir's "send me a new link": one e-mail per address per owner in this time, however often asked.
const PORTAL_LINK_GAP_MS = 10 * 60_000

/** The heir's portal and the release links: approvals, death reports, assets, downloads, renewals. */
export class PortalFacade extends DomainFacade {
  /**
   * An heir's request for a new portal link (by address, looked up through D1's heir index). At most
   * one such e-mail per beneficiary in PORTAL_LINK_GAP_MS, whatever is asked.
   */
  async sendPortalLink(email: string, now = Date.now()): Promise<boolean> {
    const key = `portalLink:${email.toLowerCase()}`
    const last = this.h.storage.kv.get<number>(key)
    if (last !== undefined && now - last < PORTAL_LINK_GAP_MS) return false
    const owner = await loadAccount(this.h.env, this.h.ownerId)
    if (!owner) return false
    const sent = await this.h.act(
      owner,
      (u) => {
        const portal = releaseLinks.sendPortalLink(u, email)
        return accessRequestsService.sendAskLinks(u, email, portal) > 0 || portal
      },
      { now },
    )
    if (sent) this.h.storage.kv.put(key, now)
    return sent
  }

  async approvalView(releaseId: string, email: string) {
    return settle(async () => releaseLinks.approvalView(this.h.db, (await this.h.linkOwner()).displayName, releaseId, email))
  }

  async decideApproval(releaseId: string, email: string, decision: 'approved' | 'rejected', notes: string) {
    return settle(async () => {
      const owner = await this.h.linkOwner()
      return this.h.act(owner, (u) => releaseLinks.decideApproval(u, releaseId, email, decision, notes), { tick: true })
    })
  }

  async deathReportView(approverId: string, nonce: string | undefined) {
    return settle(async () => releaseLinks.deathReportView(this.h.db, (await this.h.linkOwner()).displayName, approverId, nonce))
  }

  /** An approver's confirmation; the tick fires the verified-death triggers (unless a payment hold applies). */
  async confirmDeath(approverId: string, nonce: string | undefined, body: { certificateNumber: string; dateOfDeath: string; issuingAuthority: string }) {
    return settle(async () => {
      const owner = await this.h.linkOwner()
      await this.h.act(owner, (u) => releaseLinks.recordDeathReport(u, approverId, nonce, body), { tick: true })
    })
  }

  async portalView(beneficiaryId: string) {
    return settle(async () => {
      const owner = await this.h.linkOwner()
      return releaseLinks.portalView(this.h.db, owner.displayName, vaultKeysOf(this.h.storage)?.signing?.publicKey ?? null, beneficiaryId, Date.now())
    })
  }

  /** The beneficiary's identity status as the portal's upload needs it. */
  async portalIdentityStatus(beneficiaryId: string) {
    return settle(async () => {
      await this.h.linkOwner()
      return releaseLinks.portalBeneficiary(this.h.db, beneficiaryId).identityStatus
    })
  }

  async listAssets(beneficiaryId: string) {
    return settle(async () => {
      await this.h.linkOwner()
      return releaseLinks.listAssets(this.h.db, beneficiaryId, Date.now())
    })
  }

  async prepareDownload(beneficiaryId: string, assetId: string): Promise<Outcome<Omit<AssetDownload, 'contentUrl'>>> {
    return settle(async () => {
      const owner = await this.h.linkOwner()
      return releaseLinks.prepareDownload(this.h.db, owner.displayName, beneficiaryId, assetId, Date.now())
    })
  }

  /** The ciphertext's R2 key for a download ticket; its first fetch counts the download. */
  async serveTicket(beneficiaryId: string, assetId: string, ticketId: string | undefined): Promise<Outcome<string>> {
    return settle(async () => {
      const owner = await this.h.linkOwner()
      return this.h.act(owner, (u) => releaseLinks.serveTicket(u, beneficiaryId, assetId, ticketId))
    })
  }

  // An heir who ran out asks for more; the owner or an approver answers (worker/services/renewals.ts).
  async requestRenewal(beneficiaryId: string) {
    return settle(async () => {
      const owner = await this.h.linkOwner()
      releaseLinks.portalBeneficiary(this.h.db, beneficiaryId)
      return this.h.act(owner, (u) => renewals.requestRenewal(u, beneficiaryId))
    })
  }

  async renewalDecisionView(requestId: string, key: string) {
    return settle(async () => renewals.decisionView(this.h.db, (await this.h.linkOwner()).displayName, requestId, key))
  }

  async decideRenewal(requestId: string, key: string, decision: 'approved' | 'refused') {
    return settle(async () => {
      const owner = await this.h.linkOwner()
      return this.h.act(owner, (u) => renewals.decide(u, requestId, key, decision))
    })
  }
}
