import { defineMiddleware } from 'astro:middleware';
import { createTranslator } from './console/i18n.ts';
import { resolveLanguage } from './console/languages.ts';
import { readTheme } from './console/preferences.ts';
import { forwardedHeaders, readErrorText } from './console/runner-api.ts';
import type { User } from './console/types.ts';
import { compressResponse } from './server/http/compression.ts';

/** Paths served without a session: sign-in, sign-out, preference switches, error pages. */
const PUBLIC_PATHS = [/^\/auth\//, /^\/prefs$/, /^\/404$/, /^\/500$/];

/** Pages are compressed for browsers that accept it (brotli, else gzip). */
export const onRequest = defineMiddleware(async (ctx, next) => {
  // preparePage answers next()'s response or a redirect: always a Response.
  const page = (await preparePage(ctx, next)) as Response;
  return compressResponse(ctx.request, page);
});

/**
 * Per request: language (cookie `lang`, else Accept-Language) with its own translator, theme
 * (cookie `theme`), and the signed-in user; pages requested without a session go to the
 * sign-in page and come back after it.
 */
const preparePage = defineMiddleware(async (ctx, next) => {
  const lang = resolveLanguage(ctx.cookies.get('lang')?.value, ctx.request.headers.get('accept-language'));
  ctx.locals.lang = lang;
  ctx.locals.t = createTranslator(lang);
  ctx.locals.theme = readTheme(ctx.cookies.get('theme')?.value);
  if (PUBLIC_PATHS.some((p) => p.test(ctx.url.pathname))) return next();

  const res = await ctx.locals.runnerApi('/api/user', { headers: forwardedHeaders(ctx.request) });
  if (res.status === 401) {
    return ctx.redirect(`/auth/login?next=${encodeURIComponent(ctx.url.pathname + ctx.url.search)}`, 303);
  }
  if (!res.ok) throw new Error(await readErrorText(res));
  ctx.locals.user = (await res.json()) as User;
  return next();
});
