import { describe, expect, it } from 'vitest';
import { parseAnsi } from '../../src/console/ansi.ts';
import { projectColour, projectInitials } from '../../src/console/project-badge.ts';
import { appCssColour, appIconLetter, colourToSave, pickerColour } from '../../src/console/app-look.ts';
import { resolveLanguage } from '../../src/console/languages.ts';
import { buildStatsChart } from '../../src/console/stats-chart.ts';
import { formatDuration, formatTime, relativeTimeText } from '../../src/console/format.ts';
import { paginate, withParam } from '../../src/console/paging.ts';
import { safeBackPath } from '../../src/console/preferences.ts';
import { createTranslator, messagesFor } from '../../src/console/i18n.ts';
import { projectSettingsBody, readProjectSettings } from '../../src/console/project-settings.ts';
import { projectInputSchema } from '../../src/server/api/projects.routes.ts';
import { BLOCK_LINES, LOG_ROW_PX, MAX_SCROLL_PX, scrollPosition } from '../../src/islands/task-log-model.ts';
import { LineCache } from '../../src/islands/task-log-cache.ts';
import { canStop, hasRawLog, needsConfirmation, statusLabel } from '../../src/console/task-status.ts';

describe('ANSI parsing', () => {
  it('turns SGR colour codes into classes and drops other escapes', () => {
    expect(parseAnsi('\u001b[1;31mfailed\u001b[0m ok\u001b[2K')).toEqual([
      { text: 'failed', classes: 'ansi-bold fg-red' }, { text: ' ok', classes: '' },
    ]);
    expect(parseAnsi('\u001b[92mgreen\u001b[39m')).toEqual([{ text: 'green', classes: 'fg-bright-green' }]);
  });

  it('keeps HTML in output as plain text', () => {
    expect(parseAnsi('<img src=x onerror=alert(1)>')).toEqual([{ text: '<img src=x onerror=alert(1)>', classes: '' }]);
  });
});

describe('project badge', () => {
  it('takes the first letters of two words, else the first two letters', () => {
    expect(projectInitials('Web servers')).toBe('WS');
    expect(projectInitials('backend')).toBe('BA');
    expect(projectInitials('  dev   ops  team ')).toBe('DO');
  });

  it('cycles red, blue, orange, green', () => {
    expect([0, 1, 2, 3, 4].map(projectColour)).toEqual(['red', 'blue', 'orange', 'green', 'red']);
  });
});

describe('app look', () => {
  it('lets only hex and known colour names into a style attribute', () => {
    expect(appCssColour('#7B42BC')).toBe('#7b42bc');
    expect(appCssColour('blue')).toBe('blue');
    expect(appCssColour('red;background:url(x)')).toBeUndefined();
    expect(appCssColour('')).toBeUndefined();
  });

  it('gives the colour picker #rrggbb and keeps the stored colour when the picker is untouched', () => {
    expect(pickerColour('black')).toBe('#000000');
    expect(pickerColour('#abc')).toBe('#aabbcc');
    expect(pickerColour('chartreuse-ish')).toBe('#000000');
    expect(colourToSave('#000000', 'black')).toBe('black');
    expect(colourToSave('#000000', '')).toBe('');
    expect(colourToSave('#cc3300', 'black')).toBe('#cc3300');
  });

  it('shows the first letter of the icon name after mdi- and language-', () => {
    expect(appIconLetter('mdi-language-python')).toBe('P');
    expect(appIconLetter('mdi-ansible')).toBe('A');
    expect(appIconLetter(' ')).toBe('?');
  });
});

describe('language choice', () => {
  it('prefers the cookie, then Accept-Language, then English', () => {
    expect(resolveLanguage('de', 'fr-FR')).toBe('de');
    expect(resolveLanguage(undefined, 'pt-BR,pt;q=0.9')).toBe('pt_br');
    expect(resolveLanguage(undefined, 'zh-TW')).toBe('zh_tw');
    expect(resolveLanguage('xx', 'sv-SE,fr;q=0.5')).toBe('fr');
    expect(resolveLanguage(undefined, null)).toBe('en');
  });

  it('gives each request its own translator', () => {
    const de = createTranslator('de');
    const ja = createTranslator('ja');
    expect(de('dashboard.history')).toBe('Verlauf');
    expect(ja('dashboard.history')).toBe('履歴');
    expect(de('flash.project_created', { name: 'X' })).toBe('Projekt X erstellt');
    expect(messagesFor('ru', 'task').stop).toBe('Остановить');
  });
});

describe('stats chart', () => {
  it('draws one polyline per status over every day of the period, missing days as 0', () => {
    const today = new Date('2026-11-22T12:00:00Z');
    const chart = buildStatsChart([{ date: '2026-11-21', count_by_status: { success: 4, error: 2 } }], 'week', today);
    expect(chart.days).toHaveLength(7);
    expect(chart.days[0]).toBe('2026-11-16');
    expect(chart.max).toBe(4);
    const success = chart.lines.find((l) => l.status === 'success')!;
    expect(success.total).toBe(4);
    expect(success.points.split(' ')[5]).toMatch(/,0$/);
  });
});

describe('small helpers', () => {
  it('formats durations', () => {
    const units = { h: 'h', min: 'min', s: 's' };
    expect(formatDuration('2026-01-01T00:00:00Z', '2026-01-01T00:00:01Z', units)).toBe('1 s');
    expect(formatDuration('2026-01-01T00:00:00Z', '2026-01-01T00:02:05Z', units)).toBe('2 min 5 s');
    expect(formatDuration('2026-01-01T00:00:00Z', '2026-01-01T01:02:09Z', units)).toBe('1 h 2 min');
    expect(formatDuration('2026-01-01T00:00:00Z', '2026-01-01T03:00:00Z', units)).toBe('3 h');
    expect(formatDuration('2026-01-01T00:00:00Z', '2026-01-01T00:04:00Z', { h: 'ч', min: 'мин', s: 'с' })).toBe('4 мин');
    expect(formatDuration('2026-01-01T00:00:00Z', null, units, Date.parse('2026-01-01T00:00:42Z'))).toBe('42 s');
    expect(formatDuration(null, null, units)).toBe('');
  });

  it('says how long ago in the user\'s language, with the clock time today and the date before', () => {
    const now = Date.parse('2026-11-23T13:48:20Z');
    expect(relativeTimeText('2026-11-23T13:43:00Z', 'en', now)).toBe('5 minutes ago (1:43 PM)');
    expect(relativeTimeText('2026-11-23T13:48:00Z', 'en', now)).toBe('now (1:48 PM)');
    expect(relativeTimeText('2026-11-21T09:00:00Z', 'en', now)).toBe('2 days ago (Nov 21, 2026, 9:00 AM)');
    expect(relativeTimeText('2026-11-23T13:43:00Z', 'de', now)).toBe('vor 5 Minuten (13:43)');
    expect(relativeTimeText(null, 'en', now)).toBe('—');
  });

  it('pages 20 at a time and clamps the page', () => {
    const all = Array.from({ length: 45 }, (_, i) => i);
    expect(paginate(all, '3')).toEqual({ items: [40, 41, 42, 43, 44], page: 3, pages: 3 });
    expect(paginate(all, '99').page).toBe(3);
    expect(paginate([], null)).toEqual({ items: [], page: 1, pages: 1 });
  });

  it('makes links from the current address without carrying its one-time flash on', () => {
    const here = new URL('http://console.test/project/1/environment?flash=environment_saved&page=2');
    expect(withParam(here, 'edit', '5')).toBe('/project/1/environment?page=2&edit=5');
    expect(withParam(here, 'page', null)).toBe('/project/1/environment');
  });

  it('accepts only same-site back paths', () => {
    expect(safeBackPath('/project/1/history?t=2')).toBe('/project/1/history?t=2');
    expect(safeBackPath('//evil.example/')).toBe('/');
    expect(safeBackPath('https://evil.example/')).toBe('/');
  });

  it('reads project settings as typed and builds the API body: max parallel tasks empty as 0, anything else passed on for the schema to refuse', () => {
    const form = (fields: Record<string, string>) => { const f = new FormData(); for (const [k, v] of Object.entries(fields)) f.set(k, v); return f; };
    const typed = readProjectSettings(form({ name: ' A ', max_parallel_tasks: '', alert: 'on', executor_image: '  localhost/tools:1  ' }));
    expect(typed).toEqual({ name: 'A', alert: true, alert_chat: '', max_parallel_tasks: '', executor_image: 'localhost/tools:1' });
    expect(projectSettingsBody(typed, { id: 4 })).toEqual({ id: 4, type: '', name: 'A', alert: true, alert_chat: null, max_parallel_tasks: 0, executor_image: 'localhost/tools:1' });
    const accepted = (max: string) => projectInputSchema.safeParse(projectSettingsBody({ ...typed, max_parallel_tasks: max }, { id: 4 })).success;
    expect(accepted('3')).toBe(true);
    for (const max of ['-1', '1.5', '1e3', 'many']) expect(accepted(max), max).toBe(false);
    expect(projectInputSchema.safeParse(projectSettingsBody({ ...typed, name: '' }, { id: 4 })).success).toBe(false);
  });

  it('maps a scroll position to the line at the top of the screen, the last line touching the bottom at the end of any log', () => {
    const screen = 20 * LOG_ROW_PX;
    expect(scrollPosition(0, screen, 50)).toEqual({ top: 0, topLine: 0 });
    expect(scrollPosition(10 * LOG_ROW_PX, screen, 50).topLine).toBe(10);
    for (const total of [50, 200_000, 1_000_000, 5_000_000]) {
      const end = scrollPosition(Number.MAX_SAFE_INTEGER, screen, total);
      expect(end.top).toBe(Math.min(total * LOG_ROW_PX, MAX_SCROLL_PX) - screen);
      // the last line's bottom edge is the screen's bottom edge
      expect(end.topLine + 20).toBeCloseTo(total, 6);
    }
    const middle = scrollPosition((MAX_SCROLL_PX - screen) / 2, screen, 1_000_000);
    expect(Math.floor(middle.topLine)).toBe(Math.floor((1_000_000 - 20) / 2));
    expect(scrollPosition(0, screen, 0)).toEqual({ top: 0, topLine: 0 });
  });

  it('caches log lines in blocks, asks only for blocks it lacks, and drops the least recently used', () => {
    const block = (n: number, length = BLOCK_LINES) => Array.from({ length }, (_, i) => ({ time: '', output: `line ${n * BLOCK_LINES + i}` }));
    const cache = new LineCache(3);
    cache.put(0, block(0, 100));
    expect(cache.missing(0, 99)).toEqual([]);
    expect(cache.missing(50, 150)).toEqual([0]);
    expect(cache.missing(999_980, 1_000_020)).toEqual([999, 1000]);
    cache.put(999, block(999));
    cache.put(1000, block(1000));
    expect(cache.line(999_990)?.output).toBe('line 999990');
    cache.put(0, block(0, 10));
    expect(cache.line(99)?.output).toBe('line 99');
    expect(cache.missing(999_000, 999_001)).toEqual([]);
    cache.put(5, block(5));
    // Block 1000 was used longest ago (0 was written to, 999 asked for since).
    expect(cache.size).toBe(3);
    expect(cache.line(1_000_000)).toBeUndefined();
    expect(cache.line(0)?.output).toBe('line 0');
    expect(cache.line(999_000)?.output).toBe('line 999000');
  });

  it('offers task actions by status', () => {
    expect(canStop('running') && canStop('stopping') && !canStop('success')).toBe(true);
    expect(needsConfirmation('waiting_confirmation') && !needsConfirmation('running')).toBe(true);
    expect(hasRawLog('error') && !hasRawLog('running')).toBe(true);
  });
});

describe('labels and dates per language', () => {
  it('labels statuses as seed 000 §4 and shows an unknown status as it is', () => {
    const en = createTranslator('en');
    expect(['waiting', 'starting', 'running', 'success', 'error', 'stopping', 'stopped', 'confirmed', 'waiting_confirmation'].map((s) => statusLabel(en, s)))
      .toEqual(['Waiting', 'Starting...', 'Running', 'Success', 'Failed', 'Stopping...', 'Stopped', 'Confirmed', 'Waiting confirmation']);
    expect(statusLabel(en, 'exploded')).toBe('exploded');
  });

  it('keeps each language apart when translators are reused, with and without interpolation', () => {
    const [de, en] = [createTranslator('de'), createTranslator('en')];
    expect(createTranslator('de')).toBe(de);
    expect(de('dashboard.history')).toBe('Verlauf');
    expect(en('dashboard.history')).toBe('History');
    expect(de('dashboard.history')).toBe('Verlauf');
    expect(en('common.pageOf', { page: 2, pages: 3 })).toBe('Page 2 of 3');
  });

  it('formats dates in UTC in each language from a reused formatter', () => {
    expect(formatTime('2026-11-22T13:05:00Z', 'en')).toBe(formatTime('2026-11-22T13:05:00.000Z', 'en'));
    expect(formatTime('2026-11-22T13:05:00Z', 'de')).toMatch(/22\.11\.2026, 13:05/);
    expect(formatTime('2026-11-22T13:05:00Z', 'en')).toMatch(/Nov 22, 2026/);
    expect(formatTime(null, 'en')).toBe('—');
  });
});
