import type { Context } from 'hono';
import { z } from 'zod';
import { badRequest } from './errors.ts';

/**
 * Reads and validates a JSON body. Malformed JSON, wrong types, unknown enum values and missing
 * fields all become 400 `{"error": "<field>: <problem>"}`.
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
  return parseWith(schema, body);
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

/** A numeric path parameter; anything else is a 400, as in Semaphore. */
export function idParam(c: Context, name: string): number {
  const raw = c.req.param(name);
  if (!raw || !/^\d+$/.test(raw) || raw.length > 15) throw badRequest(`${name}: must be a positive integer`);
  return Number(raw);
}

/** Shared field shapes, so every route words its limits the same way. */
export const fields = {
  name: z.string().trim().min(1, 'required').max(255, 'at most 255 characters'),
  text: (max = 65535) => z.string().max(max, `at most ${max} characters`),
  id: z.number().int().positive(),
  optionalId: z.number().int().positive().nullable().optional(),
  count: z.number().int().min(0, 'must be 0 or greater'),
};
