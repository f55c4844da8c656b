import { DAY_MS } from '../../contract/constants'

/**
 * How long the outbox keeps a message once it is done with it: a delivered one (whose text is
 * already gone outside a local run) for a day, for support; one that could not be delivered for
 * a week, to see why. Pending messages are kept until they are delivered or given up.
 */
export const OUTBOX_RETENTION_MS = { sent: DAY_MS, failed: 7 * DAY_MS } as const
