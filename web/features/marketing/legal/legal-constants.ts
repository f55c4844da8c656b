// Figures the legal pages state that the spec does not fix (seeds 000 §9 fixes the fee-change
// notice, the liability cap, the minimum age, the payment grace period and the trial length; those
// come from contract/constants.ts or are repeated here with their source). The rest are our
// choices, gathered here so counsel can review and change them in one place.

/** Seeds 000 §6: "The Terms require users to be 18 or older." */
export const MINIMUM_AGE = 18
/** Seeds 000 §9: "fee changes need 30 days' notice". */
export const FEE_CHANGE_NOTICE_DAYS = 30
/** Seeds 000 §9: "liability capped at the last 12 months of fees". */
export const LIABILITY_CAP_MONTHS = 12
/** Seeds 000 §9: "governing law Vermont". */
export const GOVERNING_STATE = 'Vermont'

/** Ours: notice before material changes to the Terms or the Privacy Policy take effect. */
export const POLICY_CHANGE_NOTICE_DAYS = 30
/** Ours: time to try to settle a dispute informally before going to court. */
export const INFORMAL_RESOLUTION_DAYS = 30
/** Ours: residual copies of a deleted account are purged from backups within this many days. */
export const BACKUP_PURGE_DAYS = 30
/** Ours: billing records kept for tax and accounting law after an account is deleted. */
export const BILLING_RECORD_RETENTION_YEARS = 7
/** Ours: time to answer a privacy request. */
export const PRIVACY_REQUEST_RESPONSE_DAYS = 45
