/**
 * The model of the JSON ⇄ table editor (seed 001 §4): a JSON object of plain values shows as
 * key/value rows; anything nested stays JSON ("too complex"); text that does not parse keeps
 * its parse error. Pure functions, shared by the island and its tests.
 */
export interface JsonRow { key: string; value: string }

export type TableResult =
  | { kind: 'rows'; rows: JsonRow[] }
  | { kind: 'invalid'; error: string }
  | { kind: 'complex' };

/** Editor tab size (seed 001 §9). */
export const TAB_SIZE = 2;

/**
 * The rows of a JSON object text; an empty text is an empty table.
 * @example toRows('{"a": 1}') // { kind: 'rows', rows: [{ key: 'a', value: '1' }] }
 */
export function toRows(text: string): TableResult {
  if (!text.trim()) return { kind: 'rows', rows: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { kind: 'invalid', error: (err as Error).message };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { kind: 'complex' };
  const rows: JsonRow[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (item !== null && typeof item === 'object') return { kind: 'complex' };
    rows.push({ key, value: item === null ? '' : String(item) });
  }
  return { kind: 'rows', rows };
}

/**
 * The JSON text of table rows (rows without a key are dropped), indented by the tab size.
 * @example fromRows([{ key: 'a', value: '1' }]) // '{\n  "a": "1"\n}'
 */
export function fromRows(rows: JsonRow[]): string {
  const object: Record<string, string> = {};
  for (const row of rows) if (row.key.trim()) object[row.key.trim()] = row.value;
  return JSON.stringify(object, null, TAB_SIZE);
}

/** The parse error of a JSON object text, or '' when it is one (an empty text counts as {}). */
export function jsonObjectError(text: string, notObject: string): string {
  if (!text.trim()) return '';
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? '' : notObject;
  } catch (err) {
    return (err as Error).message;
  }
}
