// Issue #34 item 3 in the console: the history pages by cursor (Newest / Newer / Older /
// Oldest, every page one index read) and filters by status, starter and days with a plain GET
// form, so a filtered page is a link to share. Checked as HTML without JavaScript and in
// Chromium at 1280 and 375 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { createClient } from './support/http-client.ts';
import { insertScriptProject } from './support/real-tasks.ts';
import { launchBrowser, screenshot, signedInPage } from './support/browser.ts';

let server: ConsoleServer;
let browser: Browser;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
let client: ReturnType<typeof createClient>;
const rows: { id: number; status: string; created: string }[] = [];
const STATUSES = ['success', 'error', 'success', 'stopped'];
const DAY = 86_400_000;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh');
  for (let i = 0; i < 45; i++) {
    const values = {
      project_id: fx.project.id, template_id: fx.template.id, status: STATUSES[i % STATUSES.length]!, user_id: fx.adminId, playbook: '',
      environment: '{}', message: `run ${i}`, commit_message: '', params: '{}',
      created: new Date(Date.UTC(2026, 5, 1) + Math.floor(i / 5) * DAY + i * 60_000).toISOString(), start: null, end: null,
    };
    const row = await server.deps.db.insertInto('task').values(values).returning('id').executeTakeFirstOrThrow();
    rows.push({ id: row.id, status: values.status, created: values.created });
  }
  client = createClient(server.url);
  await client.signIn();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const shown = (html: string) => [...html.matchAll(/data-task="(\d+)"/g)].map((m) => Number(m[1]));
const link = (html: string, rel: string) => {
  const href = new RegExp(`<a href="([^"]+)"[^>]*rel="${rel}"`).exec(html)?.[1];
  return href?.replaceAll('&amp;', '&');
};
const newestFirst = (list: typeof rows) => list.map((r) => r.id).sort((a, b) => b - a);
const history = () => `/project/${fx.project.id}/history`;

describe('history by cursor', () => {
  it('walks every task page by page with Older, back with Newer, and jumps to the oldest page', async () => {
    const seen: number[] = [];
    let page = await client.get(history());
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('rel="prev"');
    for (let guard = 0; guard < 10; guard++) {
      seen.push(...shown(page.html));
      const older = link(page.html, 'next');
      if (!older) break;
      page = await client.get(older);
    }
    expect(seen).toEqual(newestFirst(rows));
    // the oldest page is full and has no Older link
    const oldestHref = /<a href="([^"]+)">Oldest/.exec((await client.get(history())).html)?.[1]?.replaceAll('&amp;', '&');
    const oldest = await client.get(oldestHref!);
    expect(shown(oldest.html)).toEqual(newestFirst(rows).slice(-20));
    expect(oldest.html).not.toContain('rel="next"');
    const newer = await client.get(link(oldest.html, 'prev')!);
    expect(shown(newer.html)).toEqual(newestFirst(rows).slice(-40, -20));
    // an old numbered link still works
    const numbered = await client.get(`${history()}?page=2`);
    expect(shown(numbered.html)).toEqual(newestFirst(rows).slice(20, 40));
    expect(numbered.html).toContain('Page 2 of 3');
  });

  it('filters by status and by days; the pager keeps the filter; a filter that matches nothing says so', async () => {
    const errors = await client.get(`${history()}?status=error`);
    expect(shown(errors.html)).toEqual(newestFirst(rows.filter((r) => r.status === 'error')));
    expect(errors.html).toMatch(/<option value="error" selected/);

    const successes = await client.get(`${history()}?status=success`);
    const older = link(successes.html, 'next')!;
    expect(older).toContain('status=success');
    const second = await client.get(older);
    expect([...shown(successes.html), ...shown(second.html)]).toEqual(newestFirst(rows.filter((r) => r.status === 'success')));

    // 3 to 4 June, whole days
    const days = await client.get(`${history()}?from=2026-06-03&to=2026-06-04`);
    expect(shown(days.html)).toEqual(newestFirst(rows.filter((r) => r.created >= '2026-06-03' && r.created < '2026-06-05')));
    expect(days.html).toContain('Clear filter');

    const none = await client.get(`${history()}?from=2030-01-01`);
    expect(shown(none.html)).toEqual([]);
    expect(none.html).toContain('No task matches this filter.');
    // a hand-edited value the form cannot send reads as "any"
    expect(shown((await client.get(`${history()}?status=%3Cscript%3E&from=yesterday`)).html)).toEqual(newestFirst(rows).slice(0, 20));
  });

  it('fits 1280 and 375 px screens with the filter form, without JavaScript', async () => {
    for (const width of [1280, 375]) {
      const page = await signedInPage(browser, server.url, width, false);
      await page.goto(`${server.url}${history()}?status=success`);
      await page.selectOption('select[name=status]', 'error');
      await page.fill('input[name=from]', '2026-06-02');
      await Promise.all([page.waitForNavigation(), page.locator('.task-filter button').click()]);
      expect(new URL(page.url()).searchParams.get('status')).toBe('error');
      expect(await page.locator('[data-task]').count()).toBe(rows.filter((r) => r.status === 'error' && r.created >= '2026-06-02').length);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
      await screenshot(page, `history-filter-${width}`);
      await page.context().close();
    }
  }, 120_000);
});
