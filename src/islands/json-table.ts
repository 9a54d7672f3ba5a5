/**
 * The model of the JSON ⇄ table editor (seed 001 §4): a JSON object shows as key/value rows
 * that keep each value's JSON type (in Ansible the string "false" is true, so a table edit must
 * never turn a boolean into text); a nested object or array stays a read-only JSON cell; text
 * that does not parse keeps its parse error; anything but an object is "too complex".
 * Pure functions, shared by the island and its tests.
 */

/** A cell's JSON type; `json` is a nested object or array, edited in JSON mode only. */
export type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'json';

/** The types a table cell can be switched to (a nested value cannot be made in the table). */
export const EDITABLE_TYPES: readonly JsonType[] = ['string', 'number', 'boolean', 'null'];

/** `value` is the cell's text: the string itself, a number's literal, 'true'/'false', '' for null, or the nested JSON. */
export interface JsonRow { key: string; type: JsonType; value: string }

export type TableResult =
  | { kind: 'rows'; rows: JsonRow[] }
  | { kind: 'invalid'; error: string }
  | { kind: 'complex' };

/** Editor tab size (seed 001 §9). */
export const TAB_SIZE = 2;

/** A JSON number literal (RFC 8259 §6). */
const NUMBER_LITERAL = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** An empty string row, the table's first row when there is none. */
export const emptyRow = (): JsonRow => ({ key: '', type: 'string', value: '' });

/**
 * The rows of a JSON object text; an empty text is an empty table.
 * @example toRows('{"a": 1}') // { kind: 'rows', rows: [{ key: 'a', type: 'number', value: '1' }] }
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
  return { kind: 'rows', rows: Object.entries(value).map(([key, item]) => toRow(key, item)) };
}

function toRow(key: string, item: unknown): JsonRow {
  if (item === null) return { key, type: 'null', value: '' };
  if (typeof item === 'object') return { key, type: 'json', value: JSON.stringify(item) };
  if (typeof item === 'number' || typeof item === 'boolean') return { key, type: typeof item as JsonType, value: String(item) };
  return { key, type: 'string', value: String(item) };
}

/** Whether a cell's text is a value of its type (a number cell must hold a JSON number). */
export function isValidCell(row: JsonRow): boolean {
  return row.type !== 'number' || NUMBER_LITERAL.test(row.value.trim());
}

/** The JSON value of a valid cell. */
function cellValue(row: JsonRow): unknown {
  switch (row.type) {
    case 'number': return Number(row.value.trim());
    case 'boolean': return row.value === 'true';
    case 'null': return null;
    case 'json': return JSON.parse(row.value) as unknown;
    default: return row.value;
  }
}

/**
 * The JSON text of table rows (rows without a key are dropped; a later row wins a repeated key),
 * indented by the tab size; null while a cell is not a value of its type.
 * @example fromRows([{ key: 'a', type: 'number', value: '1' }]) // '{\n  "a": 1\n}'
 */
export function fromRows(rows: JsonRow[]): string | null {
  if (!rows.every(isValidCell)) return null;
  // No prototype: a key such as "__proto__" is an ordinary entry, never the object's prototype.
  const object = Object.create(null) as Record<string, unknown>;
  for (const row of rows) if (row.key.trim()) object[row.key.trim()] = cellValue(row);
  return JSON.stringify(object, null, TAB_SIZE);
}

/**
 * A row switched to another type, its text carried over: a switch or null takes what it can, a
 * number keeps the text as typed (a cell that is no number says so beside it, never becomes 0).
 * @example retype({ key: 'a', type: 'string', value: 'true' }, 'boolean') // { key: 'a', type: 'boolean', value: 'true' }
 */
export function retype(row: JsonRow, type: JsonType): JsonRow {
  const text = row.value.trim();
  switch (type) {
    case 'boolean': return { ...row, type, value: text === 'true' ? 'true' : 'false' };
    case 'number': return { ...row, type, value: row.type === 'null' ? '' : row.value };
    case 'null': return { ...row, type, value: '' };
    default: return { ...row, type, value: row.type === 'null' ? '' : row.value };
  }
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
