// Operations are grouped by the first segment of their path after /api, except where a few
// segments belong to one subject (the billing calls, the identity documents, the e-mailed release
// links); the reference page shows the groups in this order.

const SAME_SUBJECT: Record<string, string> = {
  'openapi.json': 'reference',
  docs: 'reference',
  stripe: 'billing',
  'create-subscription': 'billing',
  'create-subscription-guest': 'billing',
  'beneficiary-notifications': 'beneficiaries',
  'beneficiary-key-backup': 'beneficiaries',
  'identity-verification': 'identity',
  'identity-documents': 'identity',
  'identity-reviews': 'identity',
  'identity-verifications': 'identity',
  inactivity: 'trigger-engine',
  'release-readiness': 'trigger-engine',
  'release-approvals': 'releases',
  'death-reports': 'releases',
  'renewal-decisions': 'releases',
  'beneficiary-portal': 'releases',
  mail: 'channels',
}

export const TAGS: Array<{ name: string; description: string }> = [
  { name: 'reference', description: 'This document and the page that shows it.' },
  { name: 'health', description: 'Whether the API answers.' },
  { name: 'auth', description: 'Accounts, sessions, e-mail confirmation, passwords and security keys.' },
  { name: 'profile', description: "The signed-in owner's profile and password." },
  { name: 'user', description: 'Check-in frequency and the safety window.' },
  { name: 'channels', description: "Who hears if the owner goes quiet: a verified backup address, the emergency contact's opt-in, and the mail provider's bounce reports." },
  { name: 'account', description: 'The subscription, and deleting the account.' },
  { name: 'billing', description: "Plans and payments; Stripe's webhook when Stripe is configured." },
  { name: 'vault', description: 'Encrypted items: uploads in parts, content, grants. The server holds ciphertext only.' },
  { name: 'beneficiaries', description: "The people items pass to, their keys, and their own signed links (verification, portal, notifications)." },
  { name: 'approvers', description: 'The people who confirm a death, sign off releases and review identity documents.' },
  { name: 'policies', description: 'Access policies: who receives what, after which triggers.' },
  { name: 'triggers', description: 'What starts a release.' },
  { name: 'trigger-engine', description: 'The check-in clock, dry runs, manual release, releases waiting, readiness.' },
  { name: 'access-requests', description: 'Access on request: heirs and approvers ask, the owner refuses or approves now; unless refused, the policy releases after its wait.' },
  { name: 'releases', description: 'Links e-mailed by the release engine: cancel, sign off, report a death, ask for a portal link, answer an heir’s request for more time.' },
  { name: 'identity', description: "Beneficiaries' identity documents and approvers' reviews." },
  { name: 'audit', description: "The owner's tamper-evident audit chain." },
  { name: 'email-preview', description: 'E-mail templates filled with sample values.' },
  { name: 'admin', description: 'The back office: administrators only.' },
  { name: 'dev', description: 'Local tools: only where ENVIRONMENT is "development".' },
]

/** The group of an endpoint: `/api/vault/items/:id` → `vault`. */
export function tagOf(path: string): string {
  const segment = path.split('/')[2] ?? ''
  return SAME_SUBJECT[segment] ?? segment
}
