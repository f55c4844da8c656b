import { HOUR_MS } from '../../contract/constants'
import { SAFETY_WINDOW } from '../../contract/settings'
import { ownerAddresses, recipientsFor, type ChannelMessage } from '../mail/channels'
import type { RenderedEmail } from '../mail/templates'
import { signLinkToken, type LinkPurpose } from '../lib/link-tokens'
import type { Account } from './account'
import { appendAudit, appendAuditMany, type AuditInput } from './audit-chain'
import type { OwnerDb } from './db'
import { recordThirdPartyMail } from './mail-limits'
import { blobDeletions, pendingMail } from './schema'

/**
 * One act on an owner's vault, run by the owner's object inside a single SQLite transaction: what
 * it writes, its audit entries, the e-mails it sends and the blobs it lets go all commit together
 * or not at all. Everything here is synchronous; what needs the network (R2, D1, delivery) happens
 * before the act or after it commits.
 */
export interface Unit {
  readonly env: Env
  readonly db: OwnerDb
  readonly ownerId: string
  readonly account: Account
  /** The act's time (a test may run the engine at a later one). */
  readonly now: number
  /** The owner's safety window (contract/settings.ts), in milliseconds. */
  readonly safetyWindowMs: number
  /** When a device the owner marked as trusted was last used (null: never told). */
  readonly lastTrustedUseAt: number | null
  /**
   * The owner confirmed their own address: in the account, or already told to this object (which
   * hears of it before a slower act that read the account earlier, so no invitation is left held).
   */
  readonly ownerConfirmed: boolean
  audit(entry: AuditInput): void
  /** Several entries in order, written at once (a firing's releases). */
  auditMany(entries: readonly AuditInput[]): void
  /** Kept with the act, handed to D1's outbox once it commits (worker/owner/pending-mail.ts). */
  mail(to: string, kind: string, message: RenderedEmail): void
  /** The message to every address the channel rule names for its kind (worker/mail/channels.ts). */
  tell(kind: ChannelMessage, message: RenderedEmail): void
  /** An absolute link to `path` carrying a token for `purpose` that names `subject` and this owner. */
  signedLink(path: string, purpose: LinkPurpose, subject: string, params?: Record<string, string>, nonce?: string): string
  /** Something falls due then: the object's alarm will ring no later. */
  dueAt(at: number): void
  /** An R2 object the act no longer needs: deleted once it commits (and retried until it is). */
  releaseBlob(key: string): void
}

export interface UnitEffects {
  /** Earliest time something the act created falls due. */
  dueAt: number | null
  mails: number
  blobs: number
}

export const SAFETY_WINDOW_KEY = 'safetyWindowHours'
/** The one "last trusted use" value the Loss of trusted devices trigger reads (worker/engine/device-loss.ts). */
export const LAST_TRUSTED_USE_KEY = 'lastTrustedUseAt'
/** When the owner's object was told that the owner confirmed their address. */
export const OWNER_CONFIRMED_KEY = 'ownerEmailConfirmedAt'

/** The owner confirmed their own address: in the account, or already told to this object. */
export function ownerConfirmedIn(storage: DurableObjectStorage, account: Pick<Account, 'emailVerified'>): boolean {
  return account.emailVerified || storage.kv.get<number>(OWNER_CONFIRMED_KEY) !== undefined
}

export function safetyWindowHours(storage: DurableObjectStorage): number {
  return storage.kv.get<number>(SAFETY_WINDOW_KEY) ?? SAFETY_WINDOW.defaultHours
}

export function createUnit(
  storage: DurableObjectStorage,
  env: Env,
  db: OwnerDb,
  ownerId: string,
  account: Account,
  now: number,
): { unit: Unit; effects: UnitEffects } {
  const effects: UnitEffects = { dueAt: null, mails: 0, blobs: 0 }
  const ownerConfirmed = ownerConfirmedIn(storage, account)
  const unit: Unit = {
    env,
    db,
    ownerId,
    account,
    now,
    get safetyWindowMs() {
      return safetyWindowHours(storage) * HOUR_MS
    },
    get lastTrustedUseAt() {
      return storage.kv.get<number>(LAST_TRUSTED_USE_KEY) ?? null
    },
    ownerConfirmed,
    audit: (entry) => void appendAudit(storage, db, entry),
    auditMany: (entries) => appendAuditMany(storage, db, entries),
    mail(to, kind, message) {
      if (!ownerAddresses(account).some((own) => own.toLowerCase() === to.toLowerCase())) recordThirdPartyMail(db, to, now)
      db.insert(pendingMail)
        .values({ id: crypto.randomUUID(), toAddress: to, kind, subject: message.subject, text: message.text, html: message.html, createdAt: now })
        .run()
      effects.mails++
    },
    tell(kind, message) {
      for (const to of recipientsFor(kind, account)) unit.mail(to, kind, message)
    },
    signedLink(path, purpose, subject, params = {}, nonce) {
      const token = signLinkToken(env, purpose, subject, { owner: ownerId, nonce }, now)
      return `${env.APP_ORIGIN}${path}?${new URLSearchParams({ token, ...params }).toString()}`
    },
    dueAt(at) {
      effects.dueAt = effects.dueAt === null ? at : Math.min(effects.dueAt, at)
    },
    releaseBlob(key) {
      db.insert(blobDeletions).values({ r2Key: key, createdAt: now }).onConflictDoNothing().run()
      effects.blobs++
    },
  }
  return { unit, effects }
}
