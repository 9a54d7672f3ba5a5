import type { APIContext } from 'astro';
import { isForeignRequest, isStateChanging } from '../server/http/same-origin.ts';
import { html } from './html.ts';

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/**
 * Checks a console request before any page sees it: a state-changing request from another
 * origin's page is refused (403; this covers sign-in, so no login CSRF), and a body that is
 * not a readable HTML form (JSON, broken multipart) is refused (400) instead of failing inside
 * the page. Returns the refusal, or null to go on.
 * @example const refused = await refuseBadFormRequest(ctx); if (refused) return refused;
 */
export async function refuseBadFormRequest(ctx: APIContext): Promise<Response | null> {
  const { request, locals } = ctx;
  if (!isStateChanging(request.method)) return null;
  if (isForeignRequest((name) => request.headers.get(name), locals.webRoot ?? '')) {
    return errorPage(403, locals.t('error.refusedTitle'), locals.t('error.foreignFormText'), locals.lang);
  }
  if (!request.body) return null;
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  const readable = FORM_TYPES.includes(type) && await request.clone().formData().then(() => true, () => false);
  return readable ? null : errorPage(400, locals.t('error.refusedTitle'), locals.t('error.badFormText'), locals.lang);
}

function errorPage(status: number, title: string, text: string, lang: string): Response {
  const page = html`<!doctype html><html lang="${lang}"><meta charset="utf-8"><title>${title}</title>
<main><h1>${title}</h1><p>${text}</p><p><a href="/">Signalbox</a></p></main></html>`;
  return new Response(page.value, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
}
