import { INT32_MAX } from '../server/http/validation.ts';

/**
 * The numeric id in a page's path (`/project/{id}`), or null when it is none: only digits, at
 * least 1 and within the id columns' range, so `1e3`, ` 7` or a twenty-digit number get the
 * not-found page instead of an API error.
 * @example routeId('12') // 12; routeId('99999999999999999999') // null
 */
export function routeId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= INT32_MAX ? id : null;
}
