import { AUDIT_PAGE_MAX, type AuditEntry, type ChainVerification } from '../../contract/audit'
import { appendAudit, listAudit, listAuditFrom, verifyAudit, type AuditInput } from '../owner/audit-chain'
import { DomainFacade } from '../owner/host'

/** The audit chain (worker/owner/audit-chain.ts) as routes and other acts reach it. */
export class AuditFacade extends DomainFacade {
  /** An act recorded elsewhere (the account in D1: sign-in, profile, billing) entered in the chain. */
  async appendAudit(entry: AuditInput): Promise<AuditEntry> {
    return this.h.storage.transactionSync(() => appendAudit(this.h.storage, this.h.db, entry))
  }

  /** Several entries in one transaction (the dev route that fills a long chain for tests and the bench). */
  async appendAuditMany(entries: AuditInput[]): Promise<number> {
    return this.h.storage.transactionSync(() => entries.map((entry) => appendAudit(this.h.storage, this.h.db, entry)).length)
  }

  /** Newest first (the spec's GET /api/audit). */
  async listAudit(limit = AUDIT_PAGE_MAX, before?: number): Promise<AuditEntry[]> {
    return listAudit(this.h.db, limit, before)
  }

  /** Oldest first from seq `from`: one page of the whole chain. */
  async listAuditFrom(from: number, limit = AUDIT_PAGE_MAX): Promise<AuditEntry[]> {
    return listAuditFrom(this.h.db, from, limit)
  }

  async verifyAudit(): Promise<ChainVerification & { headMatches: boolean }> {
    return verifyAudit(this.h.storage, this.h.db)
  }
}
