import type { APIRoute } from 'astro';
import { LANGUAGES } from '../console/languages.ts';
import { PREFERENCE_COOKIE_MAX_AGE, safeBackPath } from '../console/preferences.ts';
import { choosePreference } from '../console/user-options.ts';

const COOKIE = { path: '/', maxAge: PREFERENCE_COOKIE_MAX_AGE, sameSite: 'lax' } as const;

/**
 * `/prefs?lang=de&back=/path` or `?theme=dark`: sets the preference cookie and goes back, so the
 * language and dark-mode menus work as plain links without JavaScript. `system` clears it. A
 * signed-in user's choice is also stored as a user option, so it follows them to other browsers;
 * a choice made signed out (on the sign-in page) is stored at the next sign-in.
 */
export const GET: APIRoute = async (astro) => {
  const { url, cookies, redirect } = astro;
  const lang = url.searchParams.get('lang');
  if (lang === 'system') cookies.delete('lang', { path: '/' });
  else if (lang && LANGUAGES.some((l) => l.code === lang)) cookies.set('lang', lang, COOKIE);
  if (lang === 'system' || LANGUAGES.some((l) => l.code === lang)) await choosePreference(astro, 'ui.language', lang!);
  const theme = url.searchParams.get('theme');
  if (theme === 'system') cookies.delete('theme', { path: '/' });
  else if (theme === 'light' || theme === 'dark') cookies.set('theme', theme, COOKIE);
  if (theme === 'system' || theme === 'light' || theme === 'dark') await choosePreference(astro, 'ui.theme', theme);
  return redirect(safeBackPath(url.searchParams.get('back')), 303);
};
