// The rules of the beneficiary dialogs (add, edit, replace a key), apart from their React.

/**
 * While work is under way, or an Access Kit is shown that has been neither downloaded nor
 * confirmed as saved, the dialog cannot be left: the kit's private key exists nowhere else.
 */
export function kitDialogMustStay(state: { busy: boolean; kitShown: boolean; downloaded: boolean; confirmed: boolean }): boolean {
  return state.busy || (state.kitShown && !(state.downloaded || state.confirmed))
}

/** What Edit Details sends: only the fields whose value differs from the one stored. */
export function changedFields<T extends object>(values: T, stored: { [K in keyof T]?: unknown }): Partial<T> {
  return Object.fromEntries((Object.keys(values) as Array<keyof T>).filter((key) => values[key] !== stored[key]).map((key) => [key, values[key]])) as Partial<T>
}

/** What the vault's statement covers: changing any of them needs the unlocked vault, a trust check and a new signature. */
const STATED = ['fullName', 'relationship', 'email'] as const

/** The first changed field the vault's statement covers (the one the "unlock" message is shown under), or undefined. */
export function statedChange(changes: { [K in (typeof STATED)[number]]?: unknown }): (typeof STATED)[number] | undefined {
  return STATED.find((key) => changes[key] !== undefined)
}
