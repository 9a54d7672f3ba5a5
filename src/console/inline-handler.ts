import { createHash } from 'node:crypto';
import type { AstroGlobal } from 'astro';

/**
 * Lets one inline event handler (`oninput="…"`) run under the page's Content-Security-Policy:
 * its SHA-256 joins `script-src-attr` with 'unsafe-hashes', so only this exact code is allowed.
 * Returns the code to put in the attribute.
 * @example <input oninput={inlineHandler(Astro, 'this.form.requestSubmit()')} />
 */
export function inlineHandler(astro: Pick<AstroGlobal, 'csp'>, code: string): string {
  const hash = `sha256-${createHash('sha256').update(code).digest('base64')}` as const;
  astro.csp?.insertScriptResource({ resource: "'unsafe-hashes'", kind: 'attribute' });
  astro.csp?.insertScriptHash({ hash, kind: 'attribute' });
  return code;
}

/**
 * Lets one small inline `<script>` run under the page's Content-Security-Policy (its SHA-256
 * joins `script-src`), for a line a page needs only now and then, not a bundle on every page.
 * Returns the code to put in the element.
 * @example <script is:inline set:html={inlineScript(Astro, 'history.replaceState(null, "", "/")')} />
 */
export function inlineScript(astro: Pick<AstroGlobal, 'csp'>, code: string): string {
  astro.csp?.insertScriptHash({ hash: `sha256-${createHash('sha256').update(code).digest('base64')}`, kind: 'element' });
  return code;
}
