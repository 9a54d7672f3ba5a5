import type { APIRoute } from 'astro';
import { LANGUAGES } from '../console/languages.ts';
import { PREFERENCE_COOKIE_MAX_AGE, safeBackPath } from '../console/preferences.ts';

const COOKIE = { path: '/', maxAge: PREFERENCE_COOKIE_MAX_AGE, sameSite: 'lax' } as const;

/**
 * `/prefs?lang=de&back=/path` or `?theme=dark`: sets the preference cookie and goes back, so the
 * language and dark-mode menus work as plain links without JavaScript. `system` clears it.
 */
export const GET: APIRoute = ({ url, cookies, redirect }) => {
  const lang = url.searchParams.get('lang');
  if (lang === 'system') cookies.delete('lang', { path: '/' });
  else if (lang && LANGUAGES.some((l) => l.code === lang)) cookies.set('lang', lang, COOKIE);
  const theme = url.searchParams.get('theme');
  if (theme === 'system') cookies.delete('theme', { path: '/' });
  else if (theme === 'light' || theme === 'dark') cookies.set('theme', theme, COOKIE);
  return redirect(safeBackPath(url.searchParams.get('back')), 303);
};
