import { PRODUCT_NAME } from '../../../../contract/constants'
import { RECOVERY_MESSAGES } from '../../../../contract/vault-recovery'

// The owner's Recovery Kit: the recovery code, made in this browser, and what to do with it. One
// description, rendered as a page to print and as a text file to download.

export interface RecoveryKit {
  email: string
  displayName: string
  code: string
  createdAt: Date
  /** Where the unlock dialog is, for the steps (this site's address). */
  siteUrl: string
}

export interface RecoveryKitContent {
  title: string
  warning: string
  facts: Array<[label: string, value: string]>
  steps: string[]
  codeHeading: string
}

export function recoveryKitContent(kit: RecoveryKit): RecoveryKitContent {
  const date = kit.createdAt.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' })
  return {
    title: `${PRODUCT_NAME} — Vault Recovery Kit`,
    warning: `Keep this page private and safe. With this code and a way into your account, anyone can open your vault. ${PRODUCT_NAME} does not have a copy and cannot make it again.`,
    facts: [
      ['Account', kit.email],
      ['Name', kit.displayName],
      ['Made on', date],
      ['Website', kit.siteUrl],
    ],
    steps: [
      'Keep this page with your important papers, away from where you keep your vault passphrase. Do not e-mail it, photograph it or store it online.',
      `If you forget your vault passphrase: sign in at ${kit.siteUrl}, open your vault, choose “${RECOVERY_MESSAGES.forgotLink}” and type this code. You then choose a new passphrase; everything in your vault stays as it is.`,
      'Letters and digits only; case, spaces and hyphens do not matter. The last character checks the others, so a typing mistake is caught before anything is tried.',
      'Making a new recovery code in Settings makes this one stop working. Destroy this page then.',
    ],
    codeHeading: 'Your recovery code',
  }
}

export function recoveryKitText(kit: RecoveryKit): string {
  const c = recoveryKitContent(kit)
  const width = Math.max(...c.facts.map(([label]) => label.length)) + 2
  return [
    c.title,
    '='.repeat(c.title.length),
    '',
    c.warning,
    '',
    ...c.facts.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`),
    '',
    c.codeHeading.toUpperCase(),
    '',
    `    ${kit.code}`,
    '',
    'WHAT TO DO',
    ...c.steps.map((step, i) => `${i + 1}. ${step}`),
    '',
  ].join('\n')
}

export const RECOVERY_KIT_FILE_NAME = 'vault-recovery-kit.txt'
