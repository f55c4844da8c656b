/** Values per `IN (…)` list: D1 binds at most 100 parameters a statement; the rest is for the others. */
export const IN_LIST_MAX = 80

/**
 * Runs `query` over slices of `values` small enough for D1 and joins the rows. For lists a request
 * supplies (ids it names); lists the database already holds are better joined in SQL.
 */
export async function inSlices<V, T>(values: readonly V[], query: (slice: V[]) => Promise<T[]>): Promise<T[]> {
  const rows: T[] = []
  for (let i = 0; i < values.length; i += IN_LIST_MAX) rows.push(...(await query(values.slice(i, i + IN_LIST_MAX))))
  return rows
}
