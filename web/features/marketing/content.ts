// The public pages' copy in one place, so the landing, how-it-works and pricing pages tell the same
// story. Plan names, prices, features and limits are never written here: they come from
// contract/plans.ts. Numbers the spec fixes come from contract/constants.ts.
import {
  BadgeCheck,
  Briefcase,
  CreditCard,
  HardDrive,
  KeyRound,
  Link2,
  Lock,
  Medal,
  Plane,
  ScrollText,
  Timer,
  UserCheck,
  Users,
  type LucideIcon,
} from 'lucide-react'
import {
  INACTIVITY_GRACE_DEFAULT_DAYS,
  PAYMENT_GRACE_DAYS,
  PRODUCT_NAME,
} from '../../../contract/constants'
import { PLAN_LIST, type PlanDefinition } from '../../../contract/plans'

export interface IconText {
  icon: LucideIcon
  title: string
  description: string
}

// The check-in clock runs on the owner's inactivity trigger: its frequency and its grace period.
const GRACE_DEFAULT = INACTIVITY_GRACE_DEFAULT_DAYS

/** The four audiences the public pages name (seeds 000 §1). */
export const AUDIENCES: { icon: LucideIcon; label: string; description: string }[] = [
  {
    icon: ScrollText,
    label: 'Estate planning & wills',
    description:
      'Keep the documents and instructions your will refers to where your executor and heirs can receive them.',
  },
  {
    icon: Briefcase,
    label: 'Business planning',
    description: 'Make sure partners can reach the credentials and contracts a business needs to keep running.',
  },
  {
    icon: Medal,
    label: 'Military & veterans',
    description: 'Put your affairs in order before a deployment, without handing anyone your passwords.',
  },
  {
    icon: Plane,
    label: 'Expats & travellers',
    description: 'Family far away can still receive what they need, wherever you happen to be.',
  },
]

/** The six feature cards of the landing page. */
export const FEATURES: IconText[] = [
  {
    icon: Lock,
    title: 'Zero-knowledge encryption',
    description:
      'Everything is encrypted with AES-256 in your browser before it leaves your device. Your passphrase never reaches our servers, so no one at Legacy Vault can read your vault.',
  },
  {
    icon: Users,
    title: 'Beneficiaries you choose',
    description:
      'Name the people who should inherit and decide, item by item, who receives what and under which conditions.',
  },
  {
    icon: Timer,
    title: 'Flexible release triggers',
    description:
      'Release items after missed inactivity check-ins, by manual release, on a verified death certificate, or on a date you schedule.',
  },
  {
    icon: Link2,
    title: 'Tamper-evident audit trail',
    description:
      'Every significant action is recorded in a hash-chained log. If an entry were altered or removed, the broken chain would show it.',
  },
  {
    icon: UserCheck,
    title: 'Verified beneficiaries',
    description:
      'Approvers you trust review a beneficiary’s identity documents before sensitive items are released to them.',
  },
  {
    icon: CreditCard,
    title: 'Payment-issue protection',
    description: `If a card payment fails, we e-mail you and a ${PAYMENT_GRACE_DAYS}-day grace period begins: everything in your vault stays open to you and no trigger activates while you sort it out.`,
  },
]

export interface Step {
  title: string
  summary: string
  details: string[]
}

/** The four steps, short on the landing page, with details on /how-it-works. */
export const STEPS: Step[] = [
  {
    title: 'Create your account',
    summary: 'Choose a plan, sign up with your e-mail, then set a vault passphrase that only you know.',
    details: [
      'Pick the plan that fits how much you need to store. You can upgrade later.',
      'Your vault passphrase is separate from your account password and never leaves your device.',
      'Add a hardware security key if you have one, for a stronger sign-in.',
    ],
  },
  {
    title: 'Add what matters',
    summary: 'Upload documents, passwords, photos and videos. Each item is encrypted on your device first.',
    details: [
      'Wills, deeds, insurance policies, account credentials, letters, photos and videos.',
      'Files and their names are encrypted in your browser before they are uploaded.',
      'Tag items so they are easy to find and to assign to the right people.',
    ],
  },
  {
    title: 'Name beneficiaries and approvers',
    summary: 'Decide who inherits which items, and who confirms a beneficiary’s identity before release.',
    details: [
      'Beneficiaries confirm their e-mail address so releases reach the right person.',
      'Approvers review identity documents and are notified when their approval is needed.',
      'Access policies decide which beneficiary can receive which items.',
    ],
  },
  {
    title: 'Set your triggers',
    summary: 'Choose when items are released: missed check-ins, manual release, verified death or a set date.',
    details: [
      `Inactivity check-ins by e-mail at the frequency you choose (daily, weekly, monthly or a number of days), with the grace period you choose to answer (${GRACE_DEFAULT} days unless you change it).`,
      'Manual release when you decide the time has come, or a release on a scheduled date.',
      'Release once a death certificate has been verified.',
    ],
  },
]

/** The privacy section of /how-it-works. */
export const PRIVACY_PILLARS: IconText[] = [
  {
    icon: KeyRound,
    title: 'Client-side encryption',
    description:
      'Your browser derives an AES-256 key from your passphrase and encrypts every item and file name before upload. We only ever receive ciphertext.',
  },
  {
    icon: Lock,
    title: 'Zero-knowledge architecture',
    description:
      'Your passphrase and keys are never sent to or stored on our servers. We cannot read your vault, and we cannot recover it if the passphrase is lost.',
  },
  {
    icon: Link2,
    title: 'Tamper-evident audit trail',
    description:
      'Each audit entry carries the hash of the one before it, so any alteration or deletion breaks the chain and is visible to you.',
  },
]

export const WE_CAN_SEE = [
  'Your account e-mail address and display name',
  'Your plan, billing status and storage used',
  'Beneficiary and approver names and contact details you enter',
  'The audit trail of account activity',
]

export const WE_CANNOT_SEE = [
  'Your vault passphrase or encryption keys',
  'The contents of your documents, passwords, photos and videos',
  'The names of your encrypted files',
]

/** Storage range across the plans, e.g. "500MB to 50GB", from contract/plans.ts. */
export function formatStorage(bytes: number): string {
  const gb = bytes / 1024 ** 3
  return gb >= 1 ? `${Number(gb.toFixed(1))}GB` : `${Math.round(bytes / 1024 ** 2)}MB`
}

function storageRange(plans: PlanDefinition[]): string {
  const sizes = plans.map((p) => p.limits.maxStorageBytes)
  return `${formatStorage(Math.min(...sizes))} to ${formatStorage(Math.max(...sizes))}`
}

/** The four highlights of 'Why Choose Legacy Vault' on /pricing. */
export const WHY_CHOOSE: IconText[] = [
  {
    icon: Lock,
    title: 'Zero-knowledge security',
    description: 'AES-256 encryption in your browser. Not even our staff can read what you store.',
  },
  {
    icon: Timer,
    title: 'Automated triggers',
    description:
      'Inactivity check-ins, scheduled dates and verified events release items without anyone having to ask.',
  },
  {
    icon: Users,
    title: 'Multiple beneficiaries',
    description: 'Give each person exactly the items meant for them, with identity checks where it matters.',
  },
  {
    icon: HardDrive,
    title: 'Room for everything',
    description: `From ${storageRange(PLAN_LIST)} of encrypted storage for documents, photos and videos.`,
  },
]

export interface Faq {
  question: string
  answer: string
}

export const PAYMENT_FAQ_ANSWER = `We e-mail you and start a ${PAYMENT_GRACE_DAYS}-day grace period. During it everything in your vault stays open to you (only new uploads wait), triggers keep monitoring but do not activate, and beneficiary access policies stay in place. If the payment is still unresolved afterwards, triggers resume and may activate on inactivity, and your vault closes to you until payment is restored: you can still sign in, pay from Account & Billing, pause your triggers, cancel a release and check in.`

export const FAQS: Faq[] = [
  {
    question: 'How secure is my data?',
    answer: `Your vault is encrypted in your browser with AES-256 before anything is uploaded, using a key derived from a passphrase that never leaves your device. ${PRODUCT_NAME} stores only encrypted data, and every significant action is recorded in a tamper-evident, hash-chained audit trail. Because we never hold your passphrase or your recovery code, we cannot read your vault, and we cannot open it for you if you lose both.`,
  },
  {
    question: 'What happens if I miss a check-in?',
    answer: `If inactivity monitoring is on, we e-mail you a check-in at the frequency you set on your inactivity trigger. Missing one is not a problem in itself: you have the grace period you chose (${GRACE_DEFAULT} days unless you change it) to respond, and the e-mail names the exact deadline. Only if that period also passes without an answer do your inactivity triggers activate and release the items you assigned to your beneficiaries.`,
  },
  {
    question: 'Can I cancel my subscription at any time?',
    answer:
      'Yes. You can cancel from Account & Billing whenever you like. Your plan stays active until the end of the billing period you have already paid for, and you will not be charged again. You can also delete your account, which permanently deletes your vault.',
  },
  {
    question: 'What happens if a payment fails?',
    answer: PAYMENT_FAQ_ANSWER,
  },
  {
    question: 'Can you recover my vault if I forget my passphrase?',
    answer:
      'We cannot: only your passphrase, or the recovery code you print when you set up your vault, can decrypt it. If you forget your passphrase, choose “Forgot your vault passphrase?” when you unlock, type your recovery code and choose a new passphrase. Resetting your account password restores access to your account, not to encrypted vault contents. Keep your passphrase and your Recovery Kit somewhere safe, apart.',
  },
  {
    question: 'Is Legacy Vault a replacement for a will?',
    answer:
      'No. Legacy Vault helps the right people receive your documents, passwords and memories, but it is not a legal instrument and does not give legal advice. Use it alongside a will and the advice of an estate planning attorney.',
  },
]

/**
 * Illustrative testimonials: composite stories of how people in each audience use the product,
 * not statistics and not quotes from named customers. The page says so next to them.
 */
export interface Testimonial {
  name: string
  role: string
  content: string
  rating: 1 | 2 | 3 | 4 | 5
}

export const TESTIMONIALS: Testimonial[] = [
  {
    name: 'Margaret E.',
    role: 'Retired teacher, estate planning',
    content:
      'My will says who inherits, but it could never tell my children where everything is. Now the deed, the insurance papers and the letters I wrote for them are in one place, and I know exactly what happens if I stop answering check-ins.',
    rating: 5,
  },
  {
    name: 'David O.',
    role: 'Co-founder of a small engineering firm',
    content:
      'Our continuity plan used to be a sealed envelope in a drawer. Now the credentials my partner would need are released to her only after an approver has verified her identity, and every step is in the audit trail.',
    rating: 5,
  },
  {
    name: 'Rosa D.',
    role: 'U.S. Army staff sergeant',
    content:
      'Before my deployment I set up a manual release and an inactivity trigger for my husband. It took an afternoon, and I didn’t have to hand anyone my passwords before I left.',
    rating: 4,
  },
]

// What a payment issue does, as worker/services/users.ts (hasActiveSubscription), the upload check in
// worker/services/vault-items.ts and the engine's hold (worker/engine/tick.ts) do it: the one place
// for these words on /how-it-works, the landing page, the FAQ and the Terms.
export const PAYMENT_GRACE_TITLE = 'A failed payment gives you time to put it right'

export const PAYMENT_GRACE_DESCRIPTION = `Cards expire and payments get declined. When that happens we tell you, and give you ${PAYMENT_GRACE_DAYS} days to put it right, with everything in your vault still open to you.`

export const PAYMENT_GRACE_DURING = [
  'Everything in your vault stays open to you; only new uploads wait',
  'Triggers keep monitoring but do not activate',
  'Beneficiary access policies stay active',
  'We e-mail you so you can update your payment method',
]

export const PAYMENT_GRACE_AFTER = [
  'Triggers resume and may activate on inactivity',
  'Your vault, its items, beneficiaries, policies and triggers close to you until payment is restored',
  'You can still sign in, pay from Account & Billing, pause your triggers, cancel a release and check in',
]

export const TRUST_POINTS: IconText[] = [
  { icon: Lock, title: 'AES-256', description: 'encrypted in your browser' },
  { icon: BadgeCheck, title: 'Zero-knowledge', description: 'we cannot read your vault' },
  { icon: Link2, title: 'Hash-chained', description: 'tamper-evident audit trail' },
]
