// The capacity model's bytes (run by scripts/bench/capacity.mjs under tsx; prints one JSON line).
//
// One realistic owner is built with the product's own code (the browser's crypto for every key and
// ciphertext, the worker's password hash, link signing, mail templates and audit rule), then seeded
// in SQL, many times over, into the schemas as migrated:
//   before (0.1): D1 migrations 0000–0010, the whole vault in the one database;
//   after (0.2):  D1 migrations 0000–0011 (accounts, sessions, directory, heir index, outbox), and
//                 the owner's own object (worker/owner/migrations), one database per owner.
// Sizes are SQLite's own accounting (the dbstat table: pages of every table and index).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { GENESIS_HASH, hashInput } from '../../contract/audit'
import { cipherSize } from '../../contract/vault-items'
import { createHash } from 'node:crypto'
import { OUTBOX_RETENTION_MS } from '../../worker/mail/retention'
import { checkInEmail, deathReportLinkEmail } from '../../worker/mail/release-templates'
import { approverInvitationEmail, beneficiaryInvitationEmail } from '../../worker/mail/templates'
import { hashPassword } from '../../worker/services/passwords'
import { SignJWT } from 'jose'
import { generateBeneficiaryKeyPair, importBeneficiaryPublicKey, publicKeyFingerprint, wrapDataKeyForBeneficiary } from '../../web/crypto/beneficiary-keys'
import { generateDataKey, wrapDataKey } from '../../web/crypto/data-key'
import { createPassphraseCheck, deriveMasterKey, generateVaultSalt } from '../../web/crypto/master-key'
import { encryptMetadata } from '../../web/crypto/metadata'

const ROOT = new URL('../..', import.meta.url).pathname
const DAY = 86_400_000
const ENV = { JWT_SECRET: 'capacity-model-secret-that-is-long-enough-for-hs256-0123456789', APP_ORIGIN: 'https://vault.example.org' }

// --- The profile -------------------------------------------------------------------------------

/** What one owner of the model holds and does (docs/capacity.md). */
export const PROFILE = {
  items: 100,
  beneficiaries: 3,
  approvers: 2,
  policies: 2,
  triggers: 2,
  /** A year of use. */
  months: 12,
  /** A check-in e-mail a week, answered. */
  checkInsPerMonth: 52 / 12,
  signInsPerMonth: 2,
  /** One device, signed in: one live session at a time. */
  liveSessions: 1,
  /** Premium, paid monthly through Stripe: each month an invoice.paid and a customer.subscription.updated. */
  stripeEventsPerMonth: 2,
}

const MONTH_DAYS = 365 / 12
const id = () => crypto.randomUUID()
const b64 = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64')

async function buildTemplate() {
  const salt = generateVaultSalt()
  const master = await deriveMasterKey('a long and memorable vault passphrase', salt)
  const people = await Promise.all(
    Array.from({ length: PROFILE.beneficiaries + 1 }, async (_, i) => {
      const pair = await generateBeneficiaryKeyPair()
      return {
        fullName: ['Beatrice Whitmore', 'Oliver Whitmore', 'Hannah Okafor-Lindqvist', 'Samuel Whitmore'][i]!,
        email: [`beatrice.whitmore${i}@example.com`][0]!,
        relationship: ['Daughter', 'Son', 'Niece', 'Brother'][i]!,
        publicKey: pair.publicKeySpki,
        fingerprint: await publicKeyFingerprint(pair.publicKeySpki),
        key: await importBeneficiaryPublicKey(pair.publicKeySpki),
      }
    }),
  )
  const names = ['Last will and testament.pdf', 'Passport scan 2024.jpg', 'House deeds - 12 Elm Road.pdf', 'Family holiday 2019.mov', 'Bank and brokerage logins']
  const items = await Promise.all(
    Array.from({ length: PROFILE.items + 1 }, async (_, i) => {
      const dek = await generateDataKey()
      const itemId = id()
      const plainSize = [180_000, 2_400_000, 350_000, 45_000_000, 600][i % 5]!
      return {
        type: (['doc', 'photo', 'doc', 'video', 'password'] as const)[i % 5]!,
        plainSize,
        cipherSize: cipherSize(plainSize),
        encryptedMetadata: await encryptMetadata(dek, itemId, { filename: names[i % 5], mimetype: 'application/pdf', size: plainSize, tags: ['family', 'estate'] }),
        wrappedKey: await wrapDataKey(dek, master),
        grants: await Promise.all(people.map((p) => wrapDataKeyForBeneficiary(dek, p.key))),
      }
    }),
  )
  const selectorKey = await generateDataKey()
  const policy = {
    encryptedSelectors: await encryptMetadata(selectorKey, 'legacy-vault:policy-selectors', { types: ['doc', 'photo', 'video'], tags: ['family'] }),
    wrappedKey: await wrapDataKey(selectorKey, master),
  }
  // A link as the object signs it (worker/lib/link-tokens.ts): the same claims, so the same length.
  const secret = new TextEncoder().encode(ENV.JWT_SECRET)
  const token = (purpose: string) =>
    new SignJWT({ oid: id(), nonce: b64(32).replace(/=+$/, '') })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('legacy-vault')
      .setAudience(`legacy-vault:link:${purpose}`)
      .setSubject(id())
      .setIssuedAt()
      .setExpirationTime('30d')
      .sign(secret)
  const link = async (path: string, purpose: string) => `${ENV.APP_ORIGIN}${path}?token=${await token(purpose)}`
  const checkIn = checkInEmail({ displayName: 'Margaret Whitmore', timeZone: 'America/New_York', checkInUrl: await link('/check-in', 'check-in'), deadline: Date.now() + 14 * DAY, frequencyDays: 7, graceDays: 14, reminder: false })
  const invitations = [
    ...(await Promise.all(
      people.slice(0, PROFILE.beneficiaries).map(async (p) =>
        beneficiaryInvitationEmail({
          fullName: p.fullName,
          email: p.email,
          relationship: p.relationship,
          ownerName: 'Margaret Whitmore',
          secrecyMode: false,
          verifyUrl: await link('/verify-beneficiary', 'beneficiary-verify'),
          optInUrl: await link('/beneficiary-opt-in', 'beneficiary-notifications'),
          unsubscribeUrl: await link('/unsubscribe', 'beneficiary-notifications'),
        }),
      ),
    )),
    ...(await Promise.all(
      Array.from({ length: PROFILE.approvers }, async () =>
        approverInvitationEmail({ fullName: 'Arthur Pennington', role: 'Family solicitor', ownerName: 'Margaret Whitmore', verifyUrl: await link('/verify-approver', 'approver-verify') }),
      ),
    )),
    ...(await Promise.all(
      Array.from({ length: PROFILE.approvers }, async () =>
        deathReportLinkEmail({ approverName: 'Arthur Pennington', ownerName: 'Margaret Whitmore', reportUrl: await link('/confirm-death', 'death-report') }),
      ),
    )),
  ]
  return {
    account: {
      displayName: 'Margaret Whitmore',
      passwordHash: await hashPassword('a sound account password'),
      vaultSalt: salt,
      vaultCheck: await createPassphraseCheck(master),
      userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
    },
    people,
    items,
    policy,
    checkIn,
    invitations,
  }
}

type Template = Awaited<ReturnType<typeof buildTemplate>>

// --- Schemas and measuring --------------------------------------------------------------------

function migrate(db: DatabaseSync, files: string[]) {
  for (const file of files) for (const statement of readFileSync(file, 'utf8').split('--> statement-breakpoint')) db.exec(statement)
}

const d1Migrations = (upTo: number) =>
  readdirSync(join(ROOT, 'migrations'))
    .filter((f) => /^\d{4}_.*\.sql$/.test(f) && Number(f.slice(0, 4)) <= upTo)
    .sort()
    .map((f) => join(ROOT, 'migrations', f))

const OBJECT_MIGRATIONS = readdirSync(join(ROOT, 'worker/owner/migrations'))
  .filter((f) => f.endsWith('.sql'))
  .sort()
  .map((f) => join(ROOT, 'worker/owner/migrations', f))

function open(files: string[], withKv = false): DatabaseSync {
  const db = new DatabaseSync(':memory:')
  db.exec('PRAGMA page_size = 4096; PRAGMA foreign_keys = ON;')
  migrate(db, files)
  // A Durable Object's keyed state lives in a table of its own database.
  if (withKv) db.exec('CREATE TABLE __cf_kv (key TEXT PRIMARY KEY, value BLOB) WITHOUT ROWID')
  return db
}

interface Usage {
  bytes: number
  tables: Record<string, { bytes: number; rows: number }>
}

/** Every b-tree's pages, by the table it belongs to (indexes counted with their table), and rows. */
function usage(db: DatabaseSync): Usage {
  const owner = new Map<string, string>()
  for (const r of db.prepare("select name, tbl_name as t from sqlite_schema where type in ('table', 'index')").all() as Array<{ name: string; t: string }>) owner.set(r.name, r.t)
  const tables: Usage['tables'] = {}
  let bytes = 0
  for (const r of db.prepare('select name, sum(pgsize) as b from dbstat group by name').all() as Array<{ name: string; b: number }>) {
    bytes += r.b
    const table = owner.get(r.name) ?? r.name
    if (table === 'sqlite_schema') continue
    const entry = (tables[table] ??= { bytes: 0, rows: 0 })
    entry.bytes += r.b
  }
  for (const [table, entry] of Object.entries(tables)) entry.rows = (db.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n
  return { bytes, tables }
}

function diff(after: Usage, before: Usage, per: number): Usage {
  const tables: Usage['tables'] = {}
  for (const [t, u] of Object.entries(after.tables)) {
    const b = before.tables[t] ?? { bytes: 0, rows: 0 }
    const bytes = (u.bytes - b.bytes) / per
    const rows = (u.rows - b.rows) / per
    if (bytes !== 0 || rows !== 0) tables[t] = { bytes, rows }
  }
  return { bytes: (after.bytes - before.bytes) / per, tables }
}

function insert(db: DatabaseSync, table: string, row: Record<string, unknown>) {
  const columns = Object.keys(row)
  db.prepare(`insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`).run(
    ...columns.map((c) => row[c] as string | number | null),
  )
}

// --- Seeding one owner --------------------------------------------------------------------------

interface Shape {
  items: number
  beneficiaries: number
  months: number
  releases: number
}
const BASE: Shape = { items: PROFILE.items, beneficiaries: PROFILE.beneficiaries, months: PROFILE.months, releases: 0 }

function auditEntries(shape: Shape) {
  // Setting up (registration, vault, people, items, policies, triggers), then each month's
  // check-in requests, check-ins and sign-ins, then per release its firing and completion.
  const checkIns = Math.round(shape.months * PROFILE.checkInsPerMonth)
  const actions = [
    'account.registered',
    'vault.setup',
    ...Array.from({ length: shape.beneficiaries }, () => 'circle.beneficiary_added'),
    ...Array.from({ length: PROFILE.approvers }, () => 'circle.approver_added'),
    ...Array.from({ length: shape.items }, () => 'vault.item_added'),
    ...Array.from({ length: PROFILE.policies * 2 }, () => 'policy.created'),
    ...Array.from({ length: PROFILE.triggers }, () => 'trigger.created'),
    ...Array.from({ length: checkIns * 2 }, (_, i) => (i % 2 ? 'checkin.recorded' : 'checkin.requested')),
    ...Array.from({ length: Math.round(shape.months * PROFILE.signInsPerMonth) }, () => 'account.signed_in'),
    ...Array.from({ length: shape.releases * 2 }, (_, i) => (i % 2 ? 'release.completed' : 'trigger.fired')),
  ]
  let prev = GENESIS_HASH
  return actions.map((action, i) => {
    const body = { id: id(), seq: i + 1, action, actor: 'user' as const, details: { itemId: id(), type: 'doc', protocol: 'VERIFIED_DEATH', cipherSize: 180_058 }, createdAt: new Date().toISOString() }
    const hash = createHash('sha256').update(hashInput(prev, body)).digest('hex')
    const row = { seq: body.seq, id: body.id, action, actor: body.actor, details: JSON.stringify(body.details), created_at: body.createdAt, hash, prev_hash: prev }
    prev = hash
    return row
  })
}

/** The vault's rows: into 0.1's D1 (with `ownerId`) or into the owner's object (without). */
function seedVault(db: DatabaseSync, t: Template, shape: Shape, ownerId: string | null) {
  const now = Date.now()
  const owned = ownerId ? { owner_id: ownerId } : {}
  const people = t.people.slice(0, 1).concat(t.people.slice(1)).slice(0, Math.max(shape.beneficiaries, 0))
  const beneficiaryIds: string[] = []
  for (let i = 0; i < shape.beneficiaries; i++) {
    const p = people[i % people.length]!
    const bid = id()
    beneficiaryIds.push(bid)
    insert(db, 'beneficiaries', {
      id: bid,
      ...owned,
      full_name: p.fullName,
      email: `${id().slice(0, 8)}.${p.email}`,
      relationship: p.relationship,
      public_key: p.publicKey,
      public_key_fingerprint: p.fingerprint,
      key_version: 1,
      email_verified_at: now,
      identity_status: 'unverified',
      send_asset_notifications: 1,
      delay_notifications: 0,
      notification_status: 'opted_in',
      created_at: now,
      updated_at: now,
    })
  }
  for (let i = 0; i < PROFILE.approvers; i++) {
    insert(db, 'approvers', { id: id(), ...owned, full_name: 'Arthur Pennington', email: `${id().slice(0, 8)}.arthur@pennington-law.example`, role: 'Family solicitor', email_verified_at: now, created_at: now, updated_at: now })
  }
  const policyIds: string[] = []
  for (let i = 0; i < PROFILE.policies; i++) {
    const pid = id()
    policyIds.push(pid)
    insert(db, 'policies', {
      id: pid,
      ...owned,
      name: 'Family documents',
      description: 'Everything my children need to settle the estate.',
      status: 'active',
      release_on: '["verified_death","inactivity"]',
      delay_hours: 72,
      requires_approver: 0,
      approver_contact: null,
      requires_identity_verification: 0,
      identity_verification_approvers: '[]',
      required_document_types: '[]',
      minimum_approvals: 1,
      encrypted_selectors: t.policy.encryptedSelectors,
      wrapped_key: t.policy.wrappedKey,
      created_at: now,
      updated_at: now,
    })
    for (const bid of beneficiaryIds) insert(db, 'policy_beneficiaries', { policy_id: pid, beneficiary_id: bid })
  }
  const itemIds: string[] = []
  for (let i = 0; i < shape.items; i++) {
    const item = t.items[i % t.items.length]!
    const iid = id()
    itemIds.push(iid)
    insert(db, 'vault_items', {
      id: iid,
      ...owned,
      type: item.type,
      status: 'active',
      plain_size: item.plainSize,
      cipher_size: item.cipherSize,
      chunk_bytes: 8_388_608,
      part_count: Math.max(1, Math.ceil(item.plainSize / 8_388_608)),
      r2_key: `items/${ownerId ?? id()}/${iid}`,
      encrypted_metadata: item.encryptedMetadata,
      wrapped_key: item.wrappedKey,
      release_protocol: 'VERIFIED_DEATH',
      requires_approver: 0,
      created_at: now,
      completed_at: now,
    })
    beneficiaryIds.forEach((bid, b) =>
      insert(db, 'item_grants', { item_id: iid, beneficiary_id: bid, wrapped_key: item.grants[b % item.grants.length]!, key_version: 1, direct: 1, created_at: now }),
    )
    for (const pid of policyIds) insert(db, 'policy_items', { policy_id: pid, item_id: iid })
  }
  const triggerIds = [id(), id()]
  insert(db, 'triggers', { id: triggerIds[0]!, ...owned, type: 'inactivity', status: 'active', config: '{"pingFrequency":"weekly","gracePeriod":14}', generation: 0, created_at: now, updated_at: now })
  insert(db, 'triggers', { id: triggerIds[1]!, ...owned, type: 'verified_death', status: 'active', config: '{}', generation: 0, created_at: now, updated_at: now })
  for (let r = 0; r < shape.releases; r++) {
    const firingId = `t:${triggerIds[1]}:${r}`
    insert(db, 'firings', { id: firingId, ...owned, trigger_id: triggerIds[1]!, kind: 'verified_death', trigger_type: 'verified_death', reason: null, actor: 'system', ...(ownerId ? { operation_token: id() } : {}), fired_at: now })
    const rid = id()
    insert(db, 'releases', {
      id: rid,
      ...owned,
      firing_id: firingId,
      source_key: `policy:${policyIds[0]}`,
      source_name: 'Family documents',
      policy_id: policyIds[0]!,
      status: 'released',
      release_at: now,
      required_approvals: 0,
      identity_required: 0,
      created_at: now,
      released_at: now,
    })
    for (const iid of itemIds) {
      for (const bid of beneficiaryIds) {
        insert(db, 'release_targets', { release_id: rid, item_id: iid, beneficiary_id: bid })
        insert(db, 'released_assets', {
          id: Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex'),
          release_id: rid,
          ...owned,
          beneficiary_id: bid,
          item_id: iid,
          status: 'available',
          download_count: 0,
          max_downloads: 5,
          expires_at: now + 90 * DAY,
          created_at: now,
          notified_at: now,
        })
      }
    }
  }
  return { itemIds }
}

type Era = 'before' | 'after'

function seedSessions(db: DatabaseSync, t: Template, ownerId: string, era: Era) {
  const now = Date.now()
  for (let i = 0; i < PROFILE.liveSessions; i++) {
    if (era === 'before') insert(db, 'sessions', { id: id(), user_id: ownerId, created_at: now, expires_at: now + 30 * DAY, user_agent: t.account.userAgent })
    else insert(db, 'sessions', { user_id: ownerId, id: Math.floor(Math.random() * 2 ** 48), created_at: now, expires_at: now + 30 * DAY })
  }
}

function seedUser(db: DatabaseSync, t: Template, ownerId: string, era: Era) {
  const now = Date.now()
  const email = `margaret.${ownerId.slice(0, 8)}@example.com`
  insert(db, 'users', {
    id: ownerId,
    email,
    password_hash: t.account.passwordHash,
    display_name: t.account.displayName,
    role: 'owner',
    plan_tier: 'premium',
    subscription_status: 'active',
    billing_provider: 'stripe',
    stripe_customer_id: 'cus_Q8dE4cVw1x2yZa',
    stripe_subscription_id: 'sub_1Q8dE4Lkd93JfkeP0a9s8d7f',
    ping_frequency: 7,
    subscription_period_start: now,
    subscription_period_end: now + 30 * DAY,
    created_at: now,
    updated_at: now,
    ...(era === 'before'
      ? { vault_setup: 1, vault_salt: t.account.vaultSalt, vault_check: t.account.vaultCheck, storage_used: 1_000_000_000, vault_item_count: PROFILE.items }
      : // The directory's columns, as the owner's object writes them.
        { next_due_at: now + 7 * DAY, vault_items: PROFILE.items, vault_bytes: 1_000_000_000, vault_beneficiaries: PROFILE.beneficiaries, vault_revision: now }),
  })
  insert(db, 'subscriptions', {
    id: `sub_1Q8dE4${ownerId.replace(/-/g, '').slice(0, 18)}`,
    // 0.2 keeps an address only on a guest's subscription, until it is claimed.
    email: era === 'before' ? email : null,
    user_id: ownerId,
    plan: 'premium',
    status: 'active',
    created_at: now,
  })
}

function seedMail(db: DatabaseSync, to: string, message: { subject: string; text: string; html: string }, kind: string, keepBody: boolean) {
  const now = Date.now()
  insert(db, 'email_outbox', {
    id: id(),
    to_address: to,
    subject: message.subject,
    text: keepBody ? message.text : '',
    html: keepBody ? message.html : '',
    kind,
    status: 'sent',
    attempts: 1,
    created_at: now,
    sent_at: now,
    next_attempt_at: now,
  })
}

// --- 0.1 and 0.2, per owner ---------------------------------------------------------------------

/**
 * 0.1: the whole vault, and kept forever: every e-mail whole in the outbox, every paid invoice,
 * every Stripe event's id, and the clock mirror, in the one D1.
 */
function before(t: Template, owners: number, shape: Shape): Usage {
  const db = open(d1Migrations(10))
  const empty = usage(db)
  for (let n = 0; n < owners; n++) {
    db.exec('BEGIN')
    const ownerId = id()
    seedUser(db, t, ownerId, 'before')
    seedSessions(db, t, ownerId, 'before')
    seedVault(db, t, shape, ownerId)
    insert(db, 'owner_clocks', { owner_id: ownerId, next_alarm_at: Date.now() + 7 * DAY, updated_at: Date.now() })
    const to = `margaret.${ownerId.slice(0, 8)}@example.com`
    for (const m of t.invitations) seedMail(db, to, m, 'invitation', true)
    for (let i = 0; i < Math.round(shape.months * PROFILE.checkInsPerMonth); i++) seedMail(db, to, t.checkIn, 'check_in', true)
    for (let m = 0; m < shape.months; m++) {
      insert(db, 'invoices', { id: `in_1Q${id().replace(/-/g, '').slice(0, 22)}`, user_id: ownerId, amount_paid: 2999, status: 'paid', created_at: Date.now() })
      insert(db, 'stripe_events', { id: `evt_1Q${id().replace(/-/g, '').slice(0, 22)}`, type: 'invoice.paid', received_at: Date.now() })
      insert(db, 'stripe_events', { id: `evt_1Q${id().replace(/-/g, '').slice(0, 22)}`, type: 'customer.subscription.updated', received_at: Date.now() })
    }
    db.exec('COMMIT')
  }
  return diff(usage(db), empty, owners)
}

/** 0.1's owner object: the clock and the audit chain only. */
function beforeObject(shape: Shape): Usage {
  const db = open([], true)
  db.exec(`create table if not exists audit (seq integer primary key, id text not null, action text not null, actor text not null,
    details text not null, created_at text not null, hash text not null, prev_hash text not null)`)
  for (const e of auditEntries(shape)) insert(db, 'audit', e)
  seedObjectState(db, false)
  return usage(db)
}

/** A share of owners, exactly (n of every 1000). */
const share = (n: number, fraction: number) => n % 1000 < Math.round(fraction * 1000)

/**
 * 0.2's D1 for one owner, as it stands on any day (nothing in it grows month by month): the
 * account with its directory columns, a live session, the subscription, the heir keys, and what
 * is kept for a while: Stripe's event keys (a paid invoice's for 30 days, a subscription event's
 * for 3) and the check-in e-mail (its row, without its text, for the outbox's retention).
 */
function afterD1(t: Template, owners: number): Usage {
  const db = open(d1Migrations(11))
  const empty = usage(db)
  const mailKept = (OUTBOX_RETENTION_MS.sent / DAY) * ((PROFILE.checkInsPerMonth * 12) / 365)
  const paidKept = 30 / MONTH_DAYS
  const updatedKept = 3 / MONTH_DAYS
  for (let n = 0; n < owners; n++) {
    db.exec('BEGIN')
    const ownerId = id()
    const uuidBytes = Buffer.from(ownerId.replace(/-/g, ''), 'hex')
    seedUser(db, t, ownerId, 'after')
    seedSessions(db, t, ownerId, 'after')
    for (let b = 0; b < PROFILE.beneficiaries; b++) insert(db, 'heir_index', { address_key: Math.floor(Math.random() * 2 ** 48), owner_id: uuidBytes })
    if (share(n, paidKept)) insert(db, 'stripe_events', { id: `paid:in_1Q${id().replace(/-/g, '').slice(0, 22)}`, keep_until: Date.now() + 30 * DAY })
    if (share(n, updatedKept)) insert(db, 'stripe_events', { id: `evt_1Q${id().replace(/-/g, '').slice(0, 22)}`, keep_until: Date.now() + 3 * DAY })
    if (share(n, mailKept)) seedMail(db, `margaret.${ownerId.slice(0, 8)}@example.com`, t.checkIn, 'check_in', false)
    db.exec('COMMIT')
  }
  return diff(usage(db), empty, owners)
}

function seedObjectState(db: DatabaseSync, after: boolean) {
  const kv: Record<string, unknown> = {
    clock: { lastCheckInAt: Date.now(), phase: 'ok', checkInSentAt: null },
    lastActivityAt: Date.now(),
    lastActivity: 'signed_in',
    auditHead: { seq: 300, hash: 'f'.repeat(64) },
    ...(after
      ? {
          alarmAt: Date.now() + 7 * DAY,
          vaultKeys: { salt: 'S'.repeat(44), check: 'C'.repeat(84), setUpAt: Date.now() },
          directory: { nextDueAt: Date.now(), items: 100, storageBytes: 1e9, beneficiaries: 3, heirKeys: [1, 2, 3].map(() => Math.floor(Math.random() * 2 ** 48)) },
          directoryRevision: Date.now(),
        }
      : {}),
  }
  for (const [key, value] of Object.entries(kv)) insert(db, '__cf_kv', { key, value: JSON.stringify(value) })
}

/** 0.2's owner object: the whole vault, its audit chain and its keyed state, for one owner. */
function afterObject(t: Template, shape: Shape): Usage {
  const db = open(OBJECT_MIGRATIONS, true)
  db.exec('BEGIN')
  seedVault(db, t, shape, null)
  for (const e of auditEntries(shape)) insert(db, 'audit', e)
  seedObjectState(db, true)
  db.exec('COMMIT')
  return usage(db)
}

// --- The model ----------------------------------------------------------------------------------

/** D1's size limit (bytes): 10 GB a database (developers.cloudflare.com/d1/platform/limits). */
export const D1_MAX_BYTES = 10e9

async function main() {
  const owners = Number(process.argv[2] ?? 100)
  const t = await buildTemplate()
  // Marginal shapes; a month is measured over ten years more and divided, below a page's granularity.
  const shapes = {
    base: BASE,
    items: { ...BASE, items: BASE.items * 2 },
    beneficiary: { ...BASE, beneficiaries: BASE.beneficiaries + 1 },
    release: { ...BASE, releases: 1 },
    year: { ...BASE, months: BASE.months + 12 },
    decade: { ...BASE, months: BASE.months + 120 },
  }
  const d1Shapes = ['base', 'items', 'beneficiary', 'release', 'year'] as const
  const objectShapes = ['base', 'items', 'beneficiary', 'release', 'decade'] as const
  const d1Before = Object.fromEntries(d1Shapes.map((k) => [k, before(t, owners, shapes[k])]))
  const d1After = afterD1(t, owners * 10)
  const objectBefore = { base: beforeObject(BASE), decade: beforeObject(shapes.decade), release: beforeObject(shapes.release) }
  const objectAfter = Object.fromEntries(objectShapes.map((k) => [k, afterObject(t, shapes[k])]))
  const marginal = (m: Record<string, Usage>, key: keyof typeof shapes, per: number) => (m[key]!.bytes - m.base!.bytes) / per
  const heirKeyBytes = (d1After.tables.heir_index?.bytes ?? 0) / BASE.beneficiaries
  const auditGrowth = (m: Record<string, Usage>) => (m.decade!.tables.audit!.bytes - m.base!.tables.audit!.bytes) / 120
  const units = {
    item: { before: marginal(d1Before, 'items', BASE.items), after: marginal(objectAfter, 'items', BASE.items) },
    beneficiary: { before: marginal(d1Before, 'beneficiary', 1), after: marginal(objectAfter, 'beneficiary', 1) + heirKeyBytes },
    release: {
      before: marginal(d1Before, 'release', 1) + (objectBefore.release.bytes - objectBefore.base.bytes),
      after: marginal(objectAfter, 'release', 1),
    },
    // A month of use: audit entries (in the object, then and now); in 0.1's D1 also the month's
    // e-mail kept whole, its invoice and its Stripe events, kept forever. 0.2's D1 does not grow.
    auditMonth: { before: auditGrowth(objectBefore), after: auditGrowth(objectAfter) },
    d1Month: { before: marginal(d1Before, 'year', 12), after: 0 },
  }
  const perOwner = { before: d1Before.base!.bytes, after: d1After.bytes }
  console.log(
    JSON.stringify({
      owners,
      profile: PROFILE,
      d1: { before: d1Before.base, after: d1After },
      object: { before: objectBefore.base, after: objectAfter.base },
      units,
      // Owners of the profile (after its first year) one D1 database holds; 0.1's kept growing by d1Month.
      d1Owners: { before: Math.floor(D1_MAX_BYTES / perOwner.before), after: Math.floor(D1_MAX_BYTES / perOwner.after) },
    }),
  )
}

await main()
