import * as identity from './identity'
import { type Account } from '../owner/account'
import { settle } from '../owner/outcome'
import { DomainFacade } from '../owner/host'

/** Identity documents and their review (worker/services/identity.ts). */
export class IdentityFacade extends DomainFacade {
  /** A document's files, checked by the route, stored in R2 and recorded; reviewers are asked. */
  async submitIdentityDocument(
    account: Account | undefined,
    beneficiaryId: string,
    fields: identity.DocumentFields,
    files: { front: identity.DocumentFile; back: identity.DocumentFile | null },
    by: 'owner' | 'beneficiary',
  ) {
    return settle(async () => {
      const owner = account ?? (await this.h.linkOwner())
      identity.assertDocumentAccepted(this.h.db, beneficiaryId, fields.documentType)
      const documentId = crypto.randomUUID()
      const prefix = identity.identityBlobPrefix(this.h.ownerId, documentId)
      const stored = { front: { key: `${prefix}/front`, contentType: files.front.contentType }, back: files.back ? { key: `${prefix}/back`, contentType: files.back.contentType } : null }
      await this.h.env.BLOBS.put(stored.front.key, files.front.bytes, { httpMetadata: { contentType: stored.front.contentType } })
      if (files.back && stored.back) await this.h.env.BLOBS.put(stored.back.key, files.back.bytes, { httpMetadata: { contentType: stored.back.contentType } })
      try {
        return await this.h.act(owner, (u) => {
          const document = identity.recordDocument(u, documentId, beneficiaryId, fields, stored)
          // Only ids, the type and the status: the document's number and authority stay out of the chain.
          if (by === 'owner') {
            u.audit({
              actor: 'user',
              action: 'circle.identity_document_submitted',
              details: { beneficiaryId, documentId, documentType: document.documentType, hasBack: document.hasBack, requiredApprovals: document.requiredApprovals },
            })
          } else {
            u.audit({ actor: 'beneficiary', action: 'release.identity_submitted', details: { beneficiaryId } })
          }
          return document
        })
      } catch (error) {
        await this.h.env.BLOBS.delete([stored.front.key, ...(stored.back ? [stored.back.key] : [])]).catch(() => undefined)
        throw error
      }
    })
  }

  async listIdentityDocuments(beneficiaryId: string) {
    return settle(() => identity.listDocuments(this.h.db, beneficiaryId))
  }

  async identityDocumentFile(documentId: string, side: 'front' | 'back') {
    return settle(() => identity.documentFile(this.h.db, documentId, side))
  }

  async identityReviewView(documentId: string, approverId: string) {
    return settle(async () => identity.reviewView(this.h.db, (await this.h.linkOwner()).displayName, documentId, approverId))
  }

  async identityReviewFile(documentId: string, approverId: string, side: 'front' | 'back') {
    return settle(async () => {
      await this.h.linkOwner()
      return identity.reviewerDocumentFile(this.h.db, documentId, approverId, side)
    })
  }

  async submitIdentityReview(documentId: string, approverId: string, body: Parameters<typeof identity.submitReview>[3]) {
    return settle(async () => {
      const owner = await this.h.linkOwner()
      return this.h.act(owner, (u) => identity.submitReview(u, documentId, approverId, body))
    })
  }
}
