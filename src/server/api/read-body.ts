import type { Context } from 'hono';
import type { z } from 'zod';
import { badRequest, notFound } from '../http/errors.ts';
import { idParam, readJson } from '../http/validation.ts';
import { INT32_MAX } from '../domain/shared/project-refs.ts';


/**
 * `readJson` plus one rule every text column needs: no NUL characters (PostgreSQL refuses
 * them, which would otherwise surface as a 500).
 * @example const input = await readBody(c, viewInputSchema);
 */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const input = await readJson(c, schema);
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

/** A numeric path id; well-formed ids beyond the column range cannot exist, so they are 404s. */
export function pathId(c: Context, name: string): number {
  const id = idParam(c, name);
  if (id > INT32_MAX) throw notFound();
  return id;
}
