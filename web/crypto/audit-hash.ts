// The audit chain's digest (contract/audit-hash.ts): synchronous, so a whole chain verifies at
// hashing speed in the browser.
export { auditSha256Hex as sha256Hex } from '../../contract/audit-hash'
