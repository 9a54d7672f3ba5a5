import type { AstroGlobal } from 'astro';

/**
 * The browser's address for the runner API's sign-in throttle: in-process calls have no socket,
 * so without it every console sign-in would count against one shared address.
 * @example apiSend(Astro, 'POST', '/api/auth/login', body, browserAddress(Astro))
 */
export function browserAddress(astro: Pick<AstroGlobal, 'request' | 'clientAddress'>): Record<string, string> {
  const forwarded = astro.request.headers.get('x-real-ip');
  if (forwarded) return { 'x-real-ip': forwarded };
  try {
    return astro.clientAddress ? { 'x-real-ip': astro.clientAddress } : {};
  } catch {
    return {};
  }
}
