import type { HeirKeyBackup } from '../../contract/heir-key-backup'
import * as circleLinks from './circle-links'
import * as heirBackups from './heir-key-backup'
import * as identity from './identity'
import * as triggersService from './triggers'
import { settle } from '../owner/outcome'
import { DomainFacade } from '../owner/host'

/** Links the owner's people open without an account: address confirmation, notification preferences, an heir's key backup. */
export class CircleLinksFacade extends DomainFacade {
  async verifyBeneficiary(id: string, nonce: string | undefined) {
    return settle(async () => {
      const owner = await this.h.linkOwner()
      const { fullName } = this.h.storage.transactionSync(() => circleLinks.verifyBeneficiary(this.h.db, id, nonce, Date.now()))
      return { fullName, ownerName: owner.displayName }
    })
  }

  /**
   * An approver confirms their address. From then on they can act: the report link goes to them if
   * a verified-death trigger is waiting, and identity documents waiting for their review are sent.
   */
  async verifyApprover(id: string, nonce: string | undefined) {
    return settle(async () => {
      const owner = await this.h.linkOwner()
      return this.h.act(owner, (u) => {
        const verified = circleLinks.verifyApprover(u.db, id, nonce, u.now)
        const reportLink = triggersService.deathTriggerActive(u.db) ? triggersService.sendDeathReportLinks(u, { approverId: id }) : 0
        const reviews = identity.sendWaitingReviews(u, id)
        u.audit({ actor: 'approver', action: 'circle.approver_verified', details: { approverId: id, reportLinkSent: reportLink > 0, reviewsSent: reviews } })
        return verified
      })
    })
  }

  async notificationPreferences(beneficiaryId: string) {
    return settle(async () => circleLinks.preferencesOf(this.h.db, (await this.h.linkOwner()).displayName, beneficiaryId))
  }

  async setNotificationStatus(beneficiaryId: string, status: 'opted_in' | 'unsubscribed') {
    return settle(async () => {
      await this.h.linkOwner()
      const before = circleLinks.setNotificationStatus(this.h.db, beneficiaryId, status, Date.now())
      await this.h.updateDirectory()
      return before
    })
  }

  // An heir's passphrase backup of their key (0.3 · 4 of 7): made from the invitation link, read at the portal.
  async heirBackupContext(beneficiaryId: string) {
    return settle(async () => {
      await this.h.linkOwner()
      return heirBackups.backupContext(this.h.db, this.h.ownerId, beneficiaryId)
    })
  }

  async storeHeirBackup(beneficiaryId: string, body: HeirKeyBackup) {
    return settle(async () => {
      await this.h.linkOwner()
      return heirBackups.storeBackup(this.h.db, beneficiaryId, body, Date.now())
    })
  }

  async portalKeyBackup(beneficiaryId: string) {
    return settle(async () => {
      await this.h.linkOwner()
      return heirBackups.portalBackup(this.h.db, this.h.ownerId, beneficiaryId)
    })
  }
}
