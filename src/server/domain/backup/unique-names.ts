/**
 * Gives duplicate names a deterministic ` (2)`, ` (3)` suffix, in the rows' order, so name
 * references inside a backup stay unambiguous.
 * @example uniqueNames([{ id: 1, name: 'a' }, { id: 2, name: 'a' }], (r) => r.name) // Map { 1 => 'a', 2 => 'a (2)' }
 */
export function uniqueNames<T extends { id: number }>(rows: T[], nameOf: (row: T) => string): Map<number, string> {
  const names = new Map<number, string>();
  const used = new Set<string>();
  for (const row of rows) {
    let candidate = nameOf(row);
    for (let n = 2; used.has(candidate); n++) candidate = `${nameOf(row)} (${n})`;
    used.add(candidate);
    names.set(row.id, candidate);
  }
  return names;
}
