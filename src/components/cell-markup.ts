// The markup of the small pieces a table repeats on every row (icon, status chip, time,
// duration), made as strings: their Astro components (Icon, StatusChip, RelativeTime, Duration)
// render through these, and the task and audit rows (task-row.ts, audit-row.ts) insert them
// directly, one component fewer per cell. The time and duration cells live in time-markup.ts,
// which islands import without the icon sprite.
import { html, type SafeHtml } from '../console/html.ts';
import { statusLabel, statusLook } from '../console/task-status.ts';
import { ICON_SPRITE_URL } from './icon-sprite.ts';
import type { IconName } from './icons.ts';
import { appCssColour, appIconLetter } from '../console/app-look.ts';
import { appLogo } from './app-logos.ts';

export { durationMarkup, durationUnits, relativeTimeMarkup } from './time-markup.ts';

/** A message look-up (i18next's `t`). */
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


/** An app's icon as a badge in its colour: the tool's own logo for built-in apps, else the icon name's first letter. */
export function appBadgeMarkup(icon: string, color: string, app = ''): SafeHtml {
  const colour = appCssColour(color);
  const logo = appLogo(app);
  return html`<span class="badge app-icon" data-icon="${icon}"${app ? html` data-app="${app}"` : ''}${icon ? html` title="${icon}"` : ''} aria-hidden="true"${
    colour ? html` style="background:${colour}"` : ''}>${logo ? html`<svg class="app-logo" viewBox="0 0 24 24" fill="currentColor" focusable="false"><path d="${logo}"></path></svg>` : appIconLetter(icon)}</span>`;
}
