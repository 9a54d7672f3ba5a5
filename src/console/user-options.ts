import type { AstroCookies, AstroGlobal } from 'astro';
import { apiSend, forwardedHeaders } from './runner-api.ts';
import { PREFERENCE_COOKIE_MAX_AGE } from './preferences.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request'>;
type Options = Record<string, string>;

const COOKIE = { path: '/', maxAge: PREFERENCE_COOKIE_MAX_AGE, sameSite: 'lax' } as const;

/**
 * The user options (`/api/user/options`) that mirror a preference cookie. The server copy follows
 * the user to any browser; the cookie lets signed-out pages and this request render with it.
 */
const COOKIE_OF_OPTION: [RegExp, (key: string) => string][] = [
  [/^ui\.theme$/, () => 'theme'],
  [/^ui\.language$/, () => 'lang'],
  [/^nav\.lastProject$/, () => 'last_project'],
  [/^nav\.lastView\.\d+$/, (key) => `last_view_${key.slice('nav.lastView.'.length)}`],
];

/** The signed-in user's stored options; {} when the runner API has none or does not answer. */
export async function loadUserOptions(astro: AstroLike): Promise<Options> {
  const answer = await astro.locals.runnerApi.read('/api/user/options', { headers: forwardedHeaders(astro.request) });
  if (!answer.ok) return {};
  return Object.assign(Object.create(null) as Options, answer.body);
}

/**
 * Brings the preference cookies in line with the stored options, so this request and later
 * signed-out pages show the user's theme, language and last views. `system` clears the cookie.
 * @example syncPreferenceCookies(ctx.cookies, { 'ui.theme': 'dark' }) // theme=dark
 */
export function syncPreferenceCookies(cookies: AstroCookies, options: Options): void {
  for (const [key, value] of Object.entries(options)) {
    const cookie = COOKIE_OF_OPTION.find(([pattern]) => pattern.test(key))?.[1](key);
    if (!cookie || cookies.get(cookie)?.value === (value === 'system' ? undefined : value)) continue;
    if (value === 'system') cookies.delete(cookie, { path: '/' });
    else cookies.set(cookie, value, COOKIE);
  }
}

/**
 * Stores one option for the signed-in user when it changed; a failure (signed out, an older
 * runner API) leaves the cookie as the only copy, as before options existed. True when the
 * option holds `value` afterwards.
 */
export async function storeUserOption(astro: AstroLike, key: string, value: string): Promise<boolean> {
  if (astro.locals.userOptions?.[key] === value) return true;
  const res = await apiSend(astro, 'POST', '/api/user/options', { key, value });
  if (res.ok && astro.locals.userOptions) astro.locals.userOptions[key] = value;
  return res.ok;
}

/** Marks preferences chosen while signed out: `ui.language` and/or `ui.theme`, comma-separated. */
const UNSAVED_COOKIE = 'prefs_unsaved';
/** The preference cookie of each option a signed-out choice may leave unsaved. */
const UNSAVED_KEYS: Record<string, string> = { 'ui.language': 'lang', 'ui.theme': 'theme' };

/**
 * Stores a language or theme choice (`value`, 'system' to follow the browser) for the signed-in
 * user; signed out, remembers that this browser's cookie holds a choice the next sign-in must
 * keep, so the choice made on the sign-in page is not lost to an older stored one.
 * @example await choosePreference(Astro, 'ui.language', 'de');
 */
export async function choosePreference(astro: AstroLike & { cookies: AstroCookies }, key: 'ui.language' | 'ui.theme', value: string): Promise<void> {
  if (await storeUserOption(astro, key, value)) return;
  const unsaved = new Set(astro.cookies.get(UNSAVED_COOKIE)?.value.split(',').filter((k) => Object.hasOwn(UNSAVED_KEYS, k)));
  unsaved.add(key);
  astro.cookies.set(UNSAVED_COOKIE, [...unsaved].join(','), COOKIE);
}

/**
 * Precedence of a preference, highest first: a choice made in this browser while signed out
 * (stored now, on the first signed-in page), the user's stored option (the latest choice made in
 * any browser), this browser's cookie, the browser's Accept-Language / colour scheme. Afterwards
 * the cookies mirror the options.
 * @example await applyUserOptions(ctx, ctx.locals.userOptions);
 */
export async function applyUserOptions(astro: AstroLike & { cookies: AstroCookies }, options: Options): Promise<void> {
  const unsaved = astro.cookies.get(UNSAVED_COOKIE)?.value.split(',') ?? [];
  for (const key of unsaved.filter((k) => Object.hasOwn(UNSAVED_KEYS, k))) {
    await storeUserOption(astro, key, astro.cookies.get(UNSAVED_KEYS[key]!)?.value ?? 'system');
  }
  if (unsaved.length) astro.cookies.delete(UNSAVED_COOKIE, { path: '/' });
  syncPreferenceCookies(astro.cookies, options);
}

/** The drawer entries the user unpinned (`nav.unpinnedItems`, Semaphore's key). */
export function unpinnedItems(options: Options | undefined): string[] {
  try {
    const list = JSON.parse(options?.['nav.unpinnedItems'] ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}
