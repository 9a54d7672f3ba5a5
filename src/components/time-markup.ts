// The time and duration cells of a table as markup: re-exported by cell-markup.ts; islands
// (src/islands/ScrollList.tsx) import them from here, without the icon sprite's server-side parts.
import { html, type SafeHtml } from '../console/html.ts';
import { formatDuration, formatTime, relativeTimeParts, type DurationUnits } from '../console/format.ts';

/** "5 minutes ago (13:43)", the full date in the tooltip; '—' without a time. */
export function relativeTimeMarkup(value: string | null | undefined, lang: string): SafeHtml {
  const parts = relativeTimeParts(value, lang);
  if (!parts) return html`—`;
  return html`<time datetime="${value}" title="${formatTime(value, lang)} UTC" data-relative><span>${parts[0]}</span> <span class="time-abs">(${parts[1]})</span></time>`;
}

/** The words of a duration in the user's language; a table takes them once for all its rows. */
export function durationUnits(t: (key: string) => string): DurationUnits {
  return { h: t('duration.h'), min: t('duration.min'), s: t('duration.s') };
}

/** How long a task ran (or has been running); '—' before it starts. */
export function durationMarkup(start: string | null | undefined, end: string | null | undefined, units: DurationUnits): SafeHtml {
  return html`<span class="duration">${formatDuration(start, end, units) || '—'}</span>`;
}
