import { CIRCLE_MESSAGES, type ApproverForm, type BeneficiaryUpdateBody } from '../../contract/circle'
import type { ReleaseReadiness } from '../../contract/readiness'
import { badRequest, conflict, notFound } from '../lib/errors'
import * as approversService from './approvers'
import * as beneficiariesService from './beneficiaries'
import { releaseReadiness } from './readiness'
import { getDb } from '../db/client'
import { bouncingChannelsOf } from './channels'
import { type Account } from '../owner/account'
import { settle } from '../owner/outcome'
import { verifyVaultSignature } from './key-signing'
import { KEY_SIGNING_MESSAGES } from '../../contract/key-signing'
import { beneficiaryStatement, grantsStatement } from '../../contract/vault-statements'
import { OWNER_CONFIRMED_KEY, ownerConfirmedIn } from '../owner/unit'
import { sendHeldInvitations } from './invitations'
import { signingPublicKeyOf } from '../owner/vault-keys'
import { DomainFacade, type OwnerHost } from '../owner/host'

// The highest beneficiary statement sequence accepted (worker/services/beneficiaries.ts, StatementLedger).
export const STATEMENT_SEQUENCE_KEY = 'statementSequence'

/** Beneficiaries and approvers, their signed statements, and whether what the owner chose would reach them. */
export class CircleFacade extends DomainFacade {
  async listBeneficiaries() {
    return settle(() => beneficiariesService.listBeneficiaries(this.h.db).map(beneficiariesService.toBeneficiary))
  }

  async createBeneficiary(
    account: Account,
    body: Parameters<typeof beneficiariesService.createBeneficiary>[1],
    statementSequence: number,
    sendVerificationEmail: boolean,
  ) {
    return settle(async () => {
      const stated = await checkStatement(this.h, beneficiariesService.statementOf({ ...body, keyVersion: 1 }, statementSequence), body.keySignature)
      return this.h.act(account, (u) => beneficiariesService.createBeneficiary(u, body, sendVerificationEmail, stated, statementLedger(this.h)))
    })
  }

  async updateBeneficiary(account: Account, id: string, body: BeneficiaryUpdateBody) {
    return settle(async () => {
      const current = beneficiariesService.findBeneficiary(this.h.db, id)
      const stated =
        current && (beneficiariesService.changesStatement(current, body) || body.keySignature !== undefined)
          ? await checkStatement(this.h, beneficiariesService.statementOf(beneficiariesService.editedRow(current, body), body.statementSequence ?? 0), body.keySignature)
          : undefined
      return this.h.act(account, (u) => beneficiariesService.updateBeneficiary(u, id, body, stated, statementLedger(this.h)))
    })
  }

  /** A rotation in pages: the new key, stated by the vault for the next version, waits for its grants. */
  async startKeyRotation(
    account: Account,
    id: string,
    key: { publicKey: string; fingerprint: string; keySignature: string; replacesKeyVersion: number },
    statementSequence: number,
  ) {
    return settle(async () => {
      const current = beneficiariesService.findBeneficiary(this.h.db, id)
      if (!current) throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
      if (key.replacesKeyVersion !== current.keyVersion) throw conflict(CIRCLE_MESSAGES.keyChangedMeanwhile)
      const next = { ...current, keyVersion: current.keyVersion + 1, publicKey: key.publicKey }
      const stated = await checkStatement(this.h, beneficiariesService.statementOf(next, statementSequence), key.keySignature)
      return this.h.act(account, (u) => beneficiariesService.startRotation(u, id, key, stated, statementLedger(this.h)))
    })
  }

  async addRotationGrants(id: string, rotationId: string, grants: Array<{ itemId: string; wrappedKey: string }>) {
    return settle(() => this.h.storage.transactionSync(() => beneficiariesService.addRotationGrants(this.h.db, id, rotationId, grants)))
  }

  /**
   * Switches to the rotation's key and grants at once. Its statement is checked again against the
   * row as it is now, and the vault's signature over the complete staged grant set must hold.
   */
  async commitKeyRotation(account: Account, id: string, rotationId: string, grantsSignature: string) {
    return settle(async () => {
      const { rotation, current } = beneficiariesService.pendingRotation(this.h.db, id, rotationId)
      const signingKey = signingPublicKeyOf(this.h.storage)
      let stated: beneficiariesService.Stated | undefined
      if (rotation.statementSequence !== null) {
        const fields = beneficiariesService.statementOf({ ...current, keyVersion: rotation.keyVersion, publicKey: rotation.publicKey }, rotation.statementSequence)
        if (!(await verifyVaultSignature(signingKey, beneficiaryStatement({ ownerId: this.h.ownerId, ...fields }), rotation.keySignature))) {
          throw conflict(CIRCLE_MESSAGES.keyChangedMeanwhile)
        }
        stated = fields
      }
      const signedGrants = beneficiariesService.stagedGrantsStatement(this.h.db, this.h.ownerId, rotation)
      await checkGrantsSignature(this.h, signedGrants, grantsSignature)
      return this.h.act(account, (u) => beneficiariesService.commitRotation(u, id, rotationId, stated, signedGrants))
    })
  }

  /** The vault's statement over a row as it is: a key stored before signing keys, confirmed, or a v1 statement restated. */
  async signBeneficiaryKey(account: Account, id: string, keySignature: string, statementSequence: number) {
    return settle(async () => {
      const current = beneficiariesService.findBeneficiary(this.h.db, id)
      if (!current) throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
      const stated = await checkStatement(this.h, beneficiariesService.statementOf(current, statementSequence), keySignature)
      return this.h.act(account, (u) => beneficiariesService.signStoredKey(u, id, keySignature, stated, statementLedger(this.h)))
    })
  }

  async resendBeneficiaryVerification(account: Account, id: string) {
    return settle(() => this.h.act(account, (u) => beneficiariesService.resendBeneficiaryVerification(u, id)))
  }

  async rotateBeneficiaryKey(
    account: Account,
    id: string,
    key: Parameters<typeof beneficiariesService.rotateBeneficiaryKey>[2],
    grants: Array<{ itemId: string; wrappedKey: string }>,
    signatures: { statementSequence: number; grantsSignature: string },
  ) {
    return settle(async () => {
      const current = beneficiariesService.findBeneficiary(this.h.db, id)
      if (!current) throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
      // A rotation made meanwhile is a 409 (the browser signed for the version it saw), not a bad signature.
      if (key.replacesKeyVersion !== undefined && key.replacesKeyVersion !== current.keyVersion) throw conflict(CIRCLE_MESSAGES.keyChangedMeanwhile)
      const next = { ...current, keyVersion: current.keyVersion + 1, publicKey: key.publicKey }
      const stated = await checkStatement(this.h, beneficiariesService.statementOf(next, signatures.statementSequence), key.keySignature)
      const statement = grantsStatement(this.h.ownerId, grants.map((g) => ({ ...g, beneficiaryId: id, keyVersion: next.keyVersion })))
      await checkGrantsSignature(this.h, statement, signatures.grantsSignature)
      return this.h.act(account, (u) => beneficiariesService.rotateBeneficiaryKey(u, id, key, grants, stated, statementLedger(this.h)))
    })
  }

  async deleteBeneficiary(account: Account, id: string) {
    return settle(() => this.h.act(account, (u) => beneficiariesService.deleteBeneficiary(u, id)))
  }

  /** The owner confirmed their address (the account says so): held invitations go out. Returns how many. */
  async ownerEmailConfirmed(account: Account) {
    return settle(() =>
      this.h.act(account, (u) => {
        const first = this.h.storage.kv.get<number>(OWNER_CONFIRMED_KEY) === undefined
        if (first) this.h.storage.kv.put(OWNER_CONFIRMED_KEY, u.now)
        const invitationsSent = sendHeldInvitations(u)
        if (first || invitationsSent > 0) u.audit({ actor: 'user', action: 'account.email_confirmed', details: { invitationsSent } })
        return invitationsSent
      }),
    )
  }

  async listApprovers() {
    return settle(() => approversService.listApprovers(this.h.db).map(approversService.toApprover))
  }

  async createApprover(account: Account, body: Required<Omit<ApproverForm, 'sendVerificationEmail'>>, sendVerificationEmail: boolean) {
    return settle(() => this.h.act(account, (u) => approversService.createApprover(u, body, sendVerificationEmail)))
  }

  async resendApproverVerification(account: Account, id: string) {
    return settle(() => this.h.act(account, (u) => approversService.resendApproverVerification(u, id)))
  }

  async deleteApprover(account: Account, id: string) {
    return settle(() => this.h.act(account, (u) => approversService.deleteApprover(u, id)))
  }

  /** Whether what the owner chose would reach the people they chose today (one fixed set of queries). */
  async releaseReadiness(account: Account): Promise<ReleaseReadiness> {
    // Addresses of the people something is left to, checked against what D1's outbox gave up on.
    const addresses = this.h.storage.sql
      .exec<{ email: string }>('select distinct lower(email) as email from beneficiaries where id in (select beneficiary_id from item_grants)')
      .toArray()
      .map((r) => r.email)
    const failed = addresses.length
      ? (
          await this.h.env.DB.prepare("select distinct lower(to_address) as address from email_outbox where status = 'failed' and lower(to_address) in (select value from json_each(?))")
            .bind(JSON.stringify(addresses))
            .all<{ address: string }>()
        ).results.map((r) => r.address)
      : []
    return releaseReadiness(this.h.db, {
      owner: { id: this.h.ownerId, confirmed: ownerConfirmedIn(this.h.storage, account) },
      now: Date.now(),
      undeliverable: new Set(failed),
      bouncingChannels: await bouncingChannelsOf(getDb(this.h.env), account),
    })
  }
}

/** The vault-wide high-water mark of beneficiary statements, written in the act's transaction. */
function statementLedger(h: OwnerHost): beneficiariesService.StatementLedger {
  return {
    highest: () => h.storage.kv.get<number>(STATEMENT_SEQUENCE_KEY) ?? 0,
    accept: (sequence) => h.storage.kv.put(STATEMENT_SEQUENCE_KEY, sequence),
  }
}

/**
 * Refuses a beneficiary statement the vault did not sign (400 naming keySignature), or any at all
 * while the vault has no signing key (409). Returns what was stated, for the act to check again
 * against the row and the sequence (the check here is asynchronous).
 */
async function checkStatement(h: OwnerHost, stated: beneficiariesService.Stated, signature: string | undefined): Promise<beneficiariesService.Stated> {
  const signingKey = signingPublicKeyOf(h.storage)
  if (!signature || !(await verifyVaultSignature(signingKey, beneficiaryStatement({ ownerId: h.ownerId, ...stated }), signature))) {
    throw badRequest(`keySignature: ${KEY_SIGNING_MESSAGES.signatureInvalid}`)
  }
  return stated
}

/** Refuses grants the vault did not sign as they are (400 naming grantsSignature). */
async function checkGrantsSignature(h: OwnerHost, statement: string, signature: string): Promise<void> {
  if (!(await verifyVaultSignature(signingPublicKeyOf(h.storage), statement, signature))) {
    throw badRequest(`grantsSignature: ${KEY_SIGNING_MESSAGES.grantsSignatureInvalid}`)
  }
}
