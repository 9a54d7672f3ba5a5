/** Markup that is safe to insert as it is: made only by `html` below. */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

const NEEDS_ESCAPE = /[&<>"']/;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** @example escapeHtml('<b title="x">') // '&lt;b title=&quot;x&quot;&gt;' */
export function escapeHtml(text: string): string {
  return NEEDS_ESCAPE.test(text) ? text.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : text;
}

/**
 * Markup from a template literal, for pieces rendered many times a page (a table's cells),
 * where an Astro component each would cost more than the page's queries. Every interpolated
 * value is escaped unless it was itself made by `html`; arrays are joined; null, undefined and
 * false render nothing. Insert the result with `set:html={markup.value}`.
 * @example html`<span class="chip" title="${title}">${icon}${label}</span>`
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += markupOf(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}

function markupOf(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(markupOf).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}
