import type { Context } from 'hono';

export interface ListOrder<C extends string> {
  column: C;
  direction: 'asc' | 'desc';
}

/**
 * Reads `?sort=&order=` for a list route. Only whitelisted columns are honoured (anything else
 * falls back to the default, as Semaphore does); `order=desc` inverts, anything else is ascending.
 * @example const { column, direction } = readListOrder(c, ['name', 'type'], 'name');
 */
export function readListOrder<C extends string>(c: Context, allowed: readonly C[], fallback: C): ListOrder<C> {
  const sort = c.req.query('sort');
  const column = allowed.includes(sort as C) ? (sort as C) : fallback;
  const direction = c.req.query('order')?.toLowerCase() === 'desc' ? 'desc' : 'asc';
  return { column, direction };
}
