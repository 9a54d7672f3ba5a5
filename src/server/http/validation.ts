import type { Context } from 'hono';
import { z } from 'zod';
import { badRequest, notFound } from './errors.ts';

/** Largest value of the integer id/position columns (PostgreSQL `integer`). */
export const INT32_MAX = 2_147_483_647;

/**
 * Reads and validates a JSON body. Malformed JSON, wrong types, unknown enum values and missing
 * fields all become 400 `{"error": "<field>: <problem>"}`; so do NUL characters in any string
 * or key (PostgreSQL refuses them, which would otherwise surface as a 500). Fields the schema
 * does not know are dropped, as Semaphore's decoder does (see `dropUnknownFields`).
 * @example const input = await readJson(c, userCreateSchema);
 */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  try {
    const text = await c.req.text();
    body = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw badRequest('body: not valid JSON');
  }
  const input = parseWith(schema, dropUnknownFields(schema, body));
  const path = findNul(input, '');
  if (path !== null) throw badRequest(`${path || 'body'}: must not contain NUL characters`);
  return input;
}

function findNul(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findNul(item, `${path}[${i}]`);
      if (found !== null) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return path ? `${path}.${key}` : key;
      const found = findNul(item, path ? `${path}.${key}` : key);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * Semaphore's clients send fields we do not know: its web UI adds `project_id` to every form,
 * newer and older versions add or miss fields. Bodies are read like Semaphore's decoder reads
 * them: unknown fields are dropped at any depth, never stored or echoed. The schemas stay strict,
 * so their own unknown-key findings name exactly what to drop, for every route in this one place.
 */
function dropUnknownFields(schema: z.ZodType, body: unknown): unknown {
  let current = body;
  // each pass drops what the schema named; nested objects surface in the same pass, so one or two suffice
  for (let pass = 0; pass < 3; pass++) {
    const result = schema.safeParse(current);
    if (result.success) return current;
    const unknown = result.error.issues.filter((issue) => issue.code === 'unrecognized_keys');
    if (!unknown.length) return current;
    current = structuredClone(current);
    for (const issue of unknown) {
      const holder = valueAt(current, issue.path);
      if (holder && typeof holder === 'object') for (const key of issue.keys) delete (holder as Record<string, unknown>)[key];
    }
  }
  return current;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const step of path) at = at && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[step] : undefined;
  return at;
}

/** Validates a value already in hand (query strings, nested documents). */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(describeIssue(result.error.issues[0]!));
  return result.data;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length ? issue.path.map(String).join('.') : 'body';
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) return `${field}: required`;
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
