// Fresh proof: acts that change who can get in, who receives what or when, or that cannot be
// undone, need the person at the session to have proved who they are within FRESH_PROOF_MS, with
// something a stolen session token is not. The API answers 403 with `requiresFreshProof: true` and
// the ways this owner can prove it; the web app asks in one dialog and retries the act.

export const FRESH_PROOF_MS = 5 * 60 * 1000

export const FRESH_PROOF_PATHS = {
  prove: '/api/auth/fresh-proof',
  keyOptions: '/api/auth/fresh-proof/options',
  notMe: '/api/auth/not-me',
} as const

/** The ways an owner can prove it is them: the password always, the others once set up. */
export const PROOF_METHODS = ['password', 'security_key', 'authenticator'] as const
export type ProofMethod = (typeof PROOF_METHODS)[number]

export const FRESH_PROOF_MESSAGES = {
  required: 'Confirm it’s you to continue: this change needs your password, security key or authenticator code.',
  passwordWrong: 'That password is not right.',
  codeWrong: 'That code is not right, or it has already been used.',
  noKeys: 'There is no security key on this account.',
  noAuthenticator: 'There is no authenticator app on this account.',
  keyNotYours: 'That security key is not one of this account’s keys.',
  proved: 'Thank you. You can go on for the next 5 minutes.',
  cancelled: 'Nothing was changed: this needs you to confirm it’s you.',
} as const

/** The body of a 403 that asks for fresh proof. */
export interface FreshProofRequired {
  message: string
  requiresFreshProof: true
  methods: ProofMethod[]
}

export function isFreshProofRequired(body: unknown): body is FreshProofRequired {
  return !!body && typeof body === 'object' && (body as { requiresFreshProof?: unknown }).requiresFreshProof === true
}

/** "This wasn't me", from the e-mail every change of trust sends the owner. */
export const NOT_ME_MESSAGES = {
  invalid: 'This link is not valid. If someone else may be using your account, ask for a password reset from the sign-in page.',
  expired: 'This link has expired. If someone else may be using your account, ask for a password reset from the sign-in page.',
  done: (sessions: number, keys: number, app = false) => {
    const removed = [keys > 0 ? `${keys} security ${keys === 1 ? 'key' : 'keys'}` : null, app ? 'the authenticator app' : null].filter(Boolean).join(' and ')
    return `Every device has been signed out${sessions > 0 ? ` (${sessions})` : ''}${removed ? `, and ${removed} added since then ${keys + (app ? 1 : 0) === 1 ? 'was' : 'were'} removed` : ''}. Now choose a new password.`
  },
} as const
