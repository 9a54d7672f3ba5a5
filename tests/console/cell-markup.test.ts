import { describe, expect, it } from 'vitest';
import { escapeHtml, html } from '../../src/console/html.ts';
import { createTranslator } from '../../src/console/i18n.ts';
import { durationMarkup, durationUnits, iconMarkup, relativeTimeMarkup, statusChipMarkup } from '../../src/components/cell-markup.ts';
import { ICON_SPRITE_URL } from '../../src/components/icon-sprite.ts';

describe('html template', () => {
  it('escapes every interpolated text, in text and in attributes', () => {
    const evil = `"><img src=x onerror=alert(1)>&'`;
    expect(html`<span title="${evil}">${evil}</span>`.value)
      .toBe('<span title="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&amp;&#39;">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&amp;&#39;</span>');
    expect(escapeHtml('a<b')).toBe('a&lt;b');
  });

  it('inserts markup made by html as it is, joins arrays and drops null, undefined and false', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p>${inner}${[inner, 'x&y']}${null}${undefined}${false}${0}</p>`.value)
      .toBe('<p><b>&lt;i&gt;</b><b>&lt;i&gt;</b>x&amp;y0</p>');
  });
});

describe('table cell markup', () => {
  const t = createTranslator('en');

  it('draws an icon from the sprite, hidden from screen readers unless labelled', () => {
    expect(iconMarkup('history').value).toBe(`<svg class="icon" viewBox="0 0 24 24" width="1.25em" height="1.25em" fill="currentColor" aria-hidden="true" focusable="false"><use href="${ICON_SPRITE_URL}#history"></use></svg>`);
    expect(iconMarkup('menu', { label: 'Menu "main"', size: '2em', class: 'big' }).value)
      .toContain('class="icon big" viewBox="0 0 24 24" width="2em" height="2em" fill="currentColor" role="img" aria-label="Menu &quot;main&quot;" focusable');
  });

  it('shows a status chip with its tone and label, and an unknown status escaped as it is', () => {
    expect(statusChipMarkup(t, 'error').value).toMatch(/^<span class="chip chip-danger" data-status="error"><svg [^>]*><use href="[^"]*#error"><\/use><\/svg>Failed<\/span>$/);
    expect(statusChipMarkup(t, '<x>').value).toContain('data-status="&lt;x&gt;"><svg');
  });

  it('writes times and durations, a dash when there is none', () => {
    const time = relativeTimeMarkup('2026-01-01T10:00:00Z', 'en').value;
    expect(time).toMatch(/^<time datetime="2026-01-01T10:00:00Z" title="Jan 1, 2026, 10:00\sAM UTC" data-relative><span>[^<]+<\/span> <span class="time-abs">\(Jan 1, 2026, 10:00\sAM\)<\/span><\/time>$/);
    expect(relativeTimeMarkup(null, 'en').value).toBe('—');
    const units = durationUnits(t);
    expect(durationMarkup('2026-01-01T00:00:00Z', '2026-01-01T00:01:05Z', units).value).toBe('<span class="duration">1 min 5 s</span>');
    expect(durationMarkup(null, null, units).value).toBe('<span class="duration">—</span>');
  });
});
