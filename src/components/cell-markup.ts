// The markup of the small pieces a table repeats on every row (icon, status chip, time,
// duration), made as strings: their Astro components (Icon, StatusChip, RelativeTime, Duration)
// render through these, and the task rows (task-row.ts) insert them directly, one component fewer
// per cell. Browser-safe: the continuous-list island renders the same cells.
import { html, type SafeHtml } from '../console/html.ts';
import { formatDuration, formatTime, relativeTimeParts, type DurationUnits } from '../console/format.ts';
import { statusLabel, statusLook } from '../console/task-status.ts';
import { ICON_SPRITE_URL } from './icon-sprite.ts';
import type { IconName } from './icons.ts';

/** A message look-up: i18next's `t` on the server, the island's own over the messages it was given. */
export type Translate = (key: string) => string;

export interface IconOptions { label?: string; size?: string; class?: string }

/** An icon from the sprite; `label` only when it stands alone and carries meaning. */
export function iconMarkup(name: IconName, { label, size = '1.25em', class: className }: IconOptions = {}): SafeHtml {
  const classes = className ? `icon ${className}` : 'icon';
  const a11y = label ? html` role="img" aria-label="${label}"` : html` aria-hidden="true"`;
  return html`<svg class="${classes}" viewBox="0 0 24 24" width="${size}" height="${size}" fill="currentColor"${a11y} focusable="false"><use href="${ICON_SPRITE_URL}#${name}"></use></svg>`;
}

/** A task status as a chip: icon, colour and label together. */
export function statusChipMarkup(t: Translate, status: string): SafeHtml {
  const [tone, icon] = statusLook(status);
  return html`<span class="chip chip-${tone}" data-status="${status}">${iconMarkup(icon, { size: '1.05em' })}${statusLabel(t, status)}</span>`;
}

/** "5 minutes ago (13:43)", the full date in the tooltip; '—' without a time. */
export function relativeTimeMarkup(value: string | null | undefined, lang: string): SafeHtml {
  const parts = relativeTimeParts(value, lang);
  if (!parts) return html`—`;
  return html`<time datetime="${value}" title="${formatTime(value, lang)} UTC" data-relative><span>${parts[0]}</span> <span class="time-abs">(${parts[1]})</span></time>`;
}

/** The words of a duration in the user's language; a table takes them once for all its rows. */
export function durationUnits(t: Translate): DurationUnits {
  return { h: t('duration.h'), min: t('duration.min'), s: t('duration.s') };
}

/** How long a task ran (or has been running); '—' before it starts. */
export function durationMarkup(start: string | null | undefined, end: string | null | undefined, units: DurationUnits): SafeHtml {
  return html`<span class="duration">${formatDuration(start, end, units) || '—'}</span>`;
}
