/** How many recovery codes are left, in words. */
export function recoveryCodesLeftText(left: number): string {
  return left === 1 ? '1 recovery code left.' : `${left} recovery codes left.`
}

/** From 3 recovery codes left down to none, the owner is warned to make new ones (null above 3). */
export function recoveryCodesWarning(left: number): string | null {
  if (left > 3) return null
  return left === 0 ? 'You have no recovery codes left.' : 'You are running out of recovery codes.'
}
