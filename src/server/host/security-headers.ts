import type { ServerResponse } from 'node:http';

/**
 * Headers every answer carries, API, pages and files alike. The page's Content-Security-Policy
 * (with `frame-ancestors 'none'`) comes from Astro, which hashes the scripts each page uses
 * (astro.config.mjs); X-Frame-Options says the same to browsers that predate CSP.
 * @example setSecurityHeaders(res) // before anything writes the head
 */
export function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Frame-Options', 'DENY');
}
