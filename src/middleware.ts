import type { APIContext } from 'astro';
import { defineMiddleware } from 'astro:middleware';
import { createTranslator } from './console/i18n.ts';
import { resolveLanguage } from './console/languages.ts';
import { readTheme } from './console/preferences.ts';
import { answerErrorText, forwardedHeaders } from './console/runner-api.ts';
import type { User } from './console/types.ts';
import { refuseBadFormRequest } from './console/form-request.ts';
import { compressResponse } from './server/http/compression.ts';
import { handleLaunchPost } from './console/launch-form.ts';
import { withReasonPhrase } from './console/reason-phrase.ts';
import { applyUserOptions, loadUserOptions } from './console/user-options.ts';

/** Paths served without a session: sign-in, sign-out, preference switches. */
const PUBLIC_PATHS = [/^\/auth\//, /^\/prefs$/];

/**
 * Routes shown signed in or not: the error pages and every unknown path (the 404 page comes
 * with the shell for a signed-in user and plain otherwise, never a detour through sign-in).
 */
const OPTIONAL_SESSION_ROUTES = new Set(['/404', '/500', '/[...unknown]']);

/** Pages are compressed for browsers that accept it (brotli, else gzip), with a status line that tells the truth. */
export const onRequest = defineMiddleware(async (ctx, next) => {
  // preparePage answers next()'s response or a redirect: always a Response.
  const page = (await preparePage(ctx, next)) as Response;
  return compressResponse(ctx.request, withReasonPhrase(page));
});

/**
 * Per request: language (cookie `lang`, else Accept-Language) with its own translator, theme
 * (cookie `theme`), cross-origin and unreadable form posts refused, and the signed-in user; pages requested without a session go to the
 * sign-in page and come back after it.
 */
const preparePage = defineMiddleware(async (ctx, next) => {
  applyPreferenceCookies(ctx);
  const refused = await refuseBadFormRequest(ctx);
  if (refused) return refused;
  if (PUBLIC_PATHS.some((p) => p.test(ctx.url.pathname))) return shortenPageErrors(ctx.request.method, ctx.url.pathname, next);
  // a wall board opened with a board token: the token alone decides what it shows, no session is read
  if (isBoardTokenRequest(ctx)) return shortenPageErrors(ctx.request.method, ctx.url.pathname, next);
  // Astro renders the 404 page for a path no route matches without the host's locals
  if (!ctx.locals.runnerApi) return next();

  const optional = OPTIONAL_SESSION_ROUTES.has(ctx.routePattern);
  const res = await ctx.locals.runnerApi.read('/api/user', { headers: forwardedHeaders(ctx.request) });
  if (res.status === 401) {
    if (optional) return next();
    return ctx.redirect(`/auth/login?next=${encodeURIComponent(ctx.url.pathname + ctx.url.search)}`, 303);
  }
  if (!res.ok) {
    if (optional) return next();
    throw new Error(answerErrorText(res));
  }
  ctx.locals.user = res.body as User;
  // the user's stored theme, language and last views win over this browser's cookies, except a
  // choice made here while signed out (see applyUserOptions)
  ctx.locals.userOptions = await loadUserOptions(ctx);
  await applyUserOptions(ctx, ctx.locals.userOptions);
  applyPreferenceCookies(ctx);
  // the task launch dialog (`?new_task=`) posts to whichever project page shows it
  const launched = await handleLaunchPost(ctx, next);
  if (launched) return launched;
  return shortenPageErrors(ctx.request.method, ctx.url.pathname, next);
});

/** `GET /board?token=…`: the one page a board token opens. */
function isBoardTokenRequest(ctx: APIContext): boolean {
  return ctx.request.method === 'GET' && ctx.url.pathname.replace(/\/$/, '') === '/board' && ctx.url.searchParams.has('token');
}

/** Language (cookie `lang`, else Accept-Language) with its translator, and theme (cookie `theme`). */
function applyPreferenceCookies(ctx: APIContext): void {
  ctx.locals.theme = readTheme(ctx.cookies.get('theme')?.value);
  const lang = resolveLanguage(ctx.cookies.get('lang')?.value, ctx.request.headers.get('accept-language'));
  if (ctx.locals.lang === lang) return;
  ctx.locals.lang = lang;
  ctx.locals.t = createTranslator(lang);
}

/**
 * A page that fails still gets the error screen, but Astro logs whatever `stack` says: the
 * runner API has already logged the cause, so one line naming the page is enough.
 */
async function shortenPageErrors(method: string, path: string, next: () => Promise<Response>): Promise<Response> {
  try {
    return await next();
  } catch (err) {
    if (err instanceof Error) err.stack = `${method} ${path}: ${err.message}`;
    throw err;
  }
}
