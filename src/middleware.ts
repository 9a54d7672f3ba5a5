import { defineMiddleware } from 'astro:middleware';
import { createTranslator } from './console/i18n.ts';
import { resolveLanguage } from './console/languages.ts';
import { readTheme } from './console/preferences.ts';
import { forwardedHeaders, readErrorText } from './console/runner-api.ts';
import type { User } from './console/types.ts';
import { refuseBadFormRequest } from './console/form-request.ts';

/** Paths served without a session: sign-in, sign-out, preference switches, error pages. */
const PUBLIC_PATHS = [/^\/auth\//, /^\/prefs$/, /^\/404$/, /^\/500$/];

/**
 * Per request: language (cookie `lang`, else Accept-Language) with its own translator, theme
 * (cookie `theme`), cross-origin and unreadable form posts refused, and the signed-in user; pages requested without a session go to the
 * sign-in page and come back after it.
 */
export const onRequest = defineMiddleware(async (ctx, next) => {
  const lang = resolveLanguage(ctx.cookies.get('lang')?.value, ctx.request.headers.get('accept-language'));
  ctx.locals.lang = lang;
  ctx.locals.t = createTranslator(lang);
  ctx.locals.theme = readTheme(ctx.cookies.get('theme')?.value);
  const refused = await refuseBadFormRequest(ctx);
  if (refused) return refused;
  if (PUBLIC_PATHS.some((p) => p.test(ctx.url.pathname))) return next();
  // Astro renders the 404 page for a path no route matches without the host's locals
  if (!ctx.locals.runnerApi) return next();

  const res = await ctx.locals.runnerApi('/api/user', { headers: forwardedHeaders(ctx.request) });
  if (res.status === 401) {
    return ctx.redirect(`/auth/login?next=${encodeURIComponent(ctx.url.pathname + ctx.url.search)}`, 303);
  }
  if (!res.ok) throw new Error(await readErrorText(res));
  ctx.locals.user = (await res.json()) as User;
  return next();
});
