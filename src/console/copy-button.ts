import type { AstroGlobal } from 'astro';
import { inlineHandler } from './inline-handler.ts';

/**
 * The `onclick` of a Copy button placed right after the element holding the secret to copy: it
 * writes that text to the clipboard and then shows the button's `data-copied` label (or
 * `data-failed`, when given, if the browser refuses). Allowed by the page's CSP via its hash.
 * @example <code>{secret}</code><button type="button" data-copied={t('tokens.copied')} onclick={copyPreviousText(Astro)}>Copy</button>
 */
export function copyPreviousText(astro: Pick<AstroGlobal, 'csp'>): string {
  return inlineHandler(astro, 'navigator.clipboard.writeText(this.previousElementSibling.textContent).then('
    + '() => { this.textContent = this.dataset.copied; }, () => { if (this.dataset.failed) this.textContent = this.dataset.failed; })');
}
