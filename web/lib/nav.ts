export const APP_NAV = [
  { to: '/vault', label: 'Vault' },
  { to: '/beneficiaries', label: 'Beneficiaries' },
  { to: '/protocols', label: 'Policies' },
  { to: '/identity-verification', label: 'Identity' },
  { to: '/triggers', label: 'Triggers' },
  { to: '/audit', label: 'Audit' },
] as const

/** An item is highlighted when the path equals it or starts with it (seeds 000 §2). */
export function isNavActive(pathname: string, to: string): boolean {
  return pathname.startsWith(to)
}
