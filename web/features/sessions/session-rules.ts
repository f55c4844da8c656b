import type { SignedInSession } from '../../../contract/sessions'

/** Sign out is offered on each other device, never on the one in use. */
export function canSignOut(session: Pick<SignedInSession, 'current'>): boolean {
  return !session.current
}

/** What "Sign out all others" signs out, and whether it is offered at all: every device but the one in use. */
export function otherSessions<T extends Pick<SignedInSession, 'current'>>(list: readonly T[]): T[] {
  return list.filter((s) => !s.current)
}
