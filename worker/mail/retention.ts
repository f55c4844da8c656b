import { DAY_MS } from '../../contract/constants'

/**
 * How long the outbox keeps a message once it is done with it. A delivered one (whose text is
 * already gone outside a local run) for an hour: the owner's object hands its mail over by id and
 * retries within a minute until D1 answers, so a retried hand-over still finds the row and never
 * sends twice. One that could not be delivered for a week, to see why. Pending messages are kept
 * until they are delivered or given up.
 */
export const OUTBOX_RETENTION_MS = { sent: 60 * 60_000, failed: 7 * DAY_MS } as const
