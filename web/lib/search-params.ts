// The routes' search validators. A route's `validateSearch` is part of the route tree, which sits in
// the entry chunk every page loads (TanStack's automatic code splitting moves only the components
// out), so these are plain functions rather than zod schemas: a public page must not download zod
// to read `?token=`. Each keeps the rule the schemas had: a value of the wrong kind (the router
// parses `?token=123` as a number) or out of bounds is dropped, never an error page.

type Search = Record<string, unknown>

/** A string, at most `max` characters long, or undefined. */
export function optionalString(value: unknown, max = Infinity): string | undefined {
  return typeof value === 'string' && value.length <= max ? value : undefined
}

/** One of `allowed`, or undefined. */
export function optionalOneOf<const T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : undefined
}

/** `?token=`: the e-mailed links' one credential. */
export function tokenSearch(search: Search): { token?: string } {
  return { token: optionalString(search.token) }
}

/**
 * The search of /verify-beneficiary and of /beneficiary-portal, where the Access Kit points
 * beneficiaries. `view=assets`: the release e-mail's link, showing what was released instead of
 * the verification.
 */
export function beneficiaryLinkSearch(search: Search): { token?: string; id?: string; view?: 'assets' } {
  return { token: optionalString(search.token), id: optionalString(search.id), view: optionalOneOf(search.view, ['assets']) }
}
