import type { Context } from 'hono';
import { z } from 'zod';
import { ApiError, badRequest, notFound } from './errors.ts';
import { apiBodyBudget } from './body-limits.ts';
import { parseBoundedJson } from './json-budget.ts';

/** Largest value of the integer id/position columns (PostgreSQL `integer`). */
export const INT32_MAX = 2_147_483_647;

/** Deepest nesting of arrays and objects a JSON body may have; real bodies stay under ten. */
export const MAX_JSON_DEPTH = 64;
/** Bodies longer than this are checked in steps (see readJson). */
const LARGE_BODY_CHARS = 64 * 1024;

/** Told of every body readJson accepts: the audit trail keeps its field names (see api/audit-request.ts). */
let acceptedBodyWatcher: (input: unknown) => void = () => {};

/**
 * Sets who is told of every body readJson accepts. The HTTP layer knows nothing of the audit
 * trail; the API's audit middleware hands it the domain's `setAuditFields` here.
 * @example watchAcceptedBodies(setAuditFields);
 */
export function watchAcceptedBodies(watcher: (input: unknown) => void): void {
  acceptedBodyWatcher = watcher;
}

/**
 * Reads and validates a JSON body. A body with more keys and elements than its route's budget
 * (see apiBodyBudget) is refused with 413 before it is parsed. Malformed JSON, nesting deeper than MAX_JSON_DEPTH, wrong
 * types, unknown enum values and missing fields all become 400 `{"error": "<field>: <problem>"}`;
 * so do NUL characters in any string or key (PostgreSQL refuses them, which would otherwise
 * surface as a 500). Fields the schema does not know are dropped and a `null` string or id is
 * "not given", as Semaphore's decoder reads them (see `readAsSemaphoreDecodes`).
 * @example const input = await readJson(c, userCreateSchema);
 */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  let text: string;
  try {
    text = await c.req.text();
    // `null` is read as no fields, as Semaphore's Go binding reads it (its API test suite sends it)
    body = text.trim() === '' ? {} : parseBoundedJson(text, apiBodyBudget(c.req.method, c.req.path).values) ?? {};
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw badRequest('body: not valid JSON');
  }
  // a big body (a backup to restore) is checked in steps, letting other requests in between
  const breathe = text.length > LARGE_BODY_CHARS ? () => new Promise<void>((resolve) => setImmediate(resolve)) : async () => {};
  await breathe();
  if (jsonDepth(body) > MAX_JSON_DEPTH) throw badRequest(`body: nested deeper than ${MAX_JSON_DEPTH} levels`);
  await breathe();
  const input = parseWith(schema, readAsSemaphoreDecodes(schema, body));
  await breathe();
  const path = findNul(input);
  if (path !== null) throw badRequest(`${path || 'body'}: must not contain NUL characters`);
  acceptedBodyWatcher(input);
  return input;
}

/**
 * How deeply arrays and objects nest in a parsed JSON value (a scalar is 0), counted with a
 * list instead of recursion so a hostile 100,000-deep body cannot overflow the stack.
 * @example jsonDepth({ a: [1] }) // 2
 */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length) {
    const [item, depth] = pending.pop()!;
    if (!item || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * The path of the first string or key holding a NUL character, or null; without recursion.
 * Paths are spelled only for the one found: spelling one for every value of a big body (a
 * backup restore) held the event loop for over 100 ms.
 */
function findNul(value: unknown): string | null {
  const pending: Visit[] = [{ value, key: '', inArray: false, parent: -1 }];
  for (let next = 0; next < pending.length; next++) {
    const item = pending[next]!.value;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return pathOf(pending, next);
      continue;
    }
    if (!item || typeof item !== 'object') continue;
    const inArray = Array.isArray(item);
    for (const [key, child] of Object.entries(item)) {
      pending.push({ value: child, key, inArray, parent: next });
      if (key.includes('\u0000')) return pathOf(pending, pending.length - 1);
    }
  }
  return null;
}

/** A value met by findNul: its key and where it sits. */
interface Visit { value: unknown; key: string; inArray: boolean; parent: number }

/** `templates[3].name`: the path of a visit, from the root down. */
function pathOf(visits: Visit[], index: number): string {
  const chain: Visit[] = [];
  for (let at = index; at > 0; at = visits[at]!.parent) chain.unshift(visits[at]!);
  let path = '';
  for (const { key, inArray } of chain) path = inArray ? `${path}[${key}]` : path ? `${path}.${key}` : key;
  return path;
}

/**
 * Semaphore's clients send fields we do not know: its web UI adds `project_id` to every form,
 * newer and older versions add or miss fields. Bodies are read like Semaphore's decoder reads
 * them: unknown fields are dropped at any depth, never stored or echoed, and a `null` where a
 * string, number, list or object goes means "not given" (Go decodes it as the empty value; the
 * web UI sends `"project_id": null` for a global runner). A `null` that stands for a boolean,
 * a list item or the whole body is still refused. The schemas stay strict, so one parse names
 * every key to drop at every depth, for every route in this one place; each object holding
 * one is then copied once without them (the body is ours: JSON.parse just made it).
 */
function readAsSemaphoreDecodes(schema: z.ZodType, body: unknown): unknown {
  const result = schema.safeParse(body);
  if (result.success) return body;
  const dropped = new Map<string, { at: readonly PropertyKey[]; keys: Set<string> }>();
  for (const { at, key } of result.error.issues.flatMap((issue) => droppableKeys(issue, body))) {
    const holder = JSON.stringify(at.map(String));
    if (!dropped.has(holder)) dropped.set(holder, { at, keys: new Set() });
    dropped.get(holder)!.keys.add(String(key));
  }
  let current = body;
  // outer holders first, so an inner one is looked up in its parent's copy
  for (const { at, keys } of [...dropped.values()].sort((a, b) => a.at.length - b.at.length)) {
    const holder = valueAt(current, at);
    if (!isPlainObject(holder)) continue;
    const copy = Object.fromEntries(Object.entries(holder).filter(([key]) => !keys.has(key)));
    if (!at.length) current = copy;
    else (valueAt(current, at.slice(0, -1)) as Record<PropertyKey, unknown>)[at.at(-1)!] = copy;
  }
  return current;
}

/** Expected types whose `null` Go's decoder reads as the empty value (booleans are left strict). */
const NULL_MEANS_ABSENT = new Set(['string', 'number', 'int', 'array', 'object', 'record']);

/** The keys an issue says to drop: unknown ones, and ones holding a `null` that means "not given". */
function droppableKeys(issue: z.core.$ZodIssue, body: unknown): { at: readonly PropertyKey[]; key: PropertyKey }[] {
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ at: issue.path, key }));
  const at = issue.path.slice(0, -1);
  const key = issue.path.at(-1);
  if (key === undefined || valueAt(body, issue.path) !== null || !isPlainObject(valueAt(body, at))) return [];
  return expectsNullableKind(issue) ? [{ at, key }] : [];
}

function expectsNullableKind(issue: z.core.$ZodIssue): boolean {
  if (issue.code === 'invalid_type') return NULL_MEANS_ABSENT.has(issue.expected);
  // an enum of strings (a key's type): a string field to Go's decoder
  if (issue.code === 'invalid_value') return issue.values.every((value) => typeof value === 'string');
  if (issue.code === 'invalid_union') return issue.errors.every((branch) => branch.every((inner) => inner.path.length === 0 && expectsNullableKind(inner)));
  return false;
}

function isPlainObject(value: unknown): value is Record<PropertyKey, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const step of path) at = at && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[step] : undefined;
  return at;
}

/** Validates a value already in hand (query strings, nested documents). */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(describeIssue(result.error.issues[0]!, value));
  return result.data;
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  const field = issue.path.length ? issue.path.map(String).join('.') : 'body';
  // a field left out (or null, read as left out) is missing, whatever kind of value it wants
  const missing = issue.path.length > 0 && valueAt(value, issue.path) === undefined && isPlainObject(valueAt(value, issue.path.slice(0, -1)));
  if (missing || (issue.code === 'invalid_type' && issue.message.endsWith('received undefined'))) return `${field}: required`;
  return `${field}: ${issue.message}`;
}

/**
 * A numeric path parameter; anything else is a 400, as in Semaphore. Well-formed ids beyond the
 * id columns' range cannot exist, so they are empty 404s.
 */
export function idParam(c: Context, name: string): number {
  const raw = c.req.param(name);
  if (!raw || !/^\d+$/.test(raw) || raw.length > 15) throw badRequest(`${name}: must be a positive integer`);
  const id = Number(raw);
  if (id > INT32_MAX) throw notFound();
  return id;
}

/** Shared field shapes, so every route words its limits the same way. */
export const fields = {
  name: z.string().trim().min(1, 'required').max(255, 'at most 255 characters'),
  text: (max = 65535) => z.string().max(max, `at most ${max} characters`),
  id: z.number().int().positive().max(INT32_MAX, 'no such id'),
  optionalId: z.number().int().positive().max(INT32_MAX, 'no such id').nullable().optional(),
  count: z.number().int().min(0, 'must be 0 or greater').max(INT32_MAX, 'too large'),
};
