// Issue #46 item 5: the project history and the audit trail as one continuous list. "Scroll through all" (a plain
// link to ?view=all) keeps the server's first rows and mounts an island that fetches older cursor
// pages while scrolling, with only the rows near the screen in the DOM; the filter applies; the
// paged history without the mode ships no more JavaScript than before, and without JavaScript
// the mode's URL still pages. 2,000 tasks inserted as fixtures; Chromium at 375 and 1280 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { createClient } from './support/http-client.ts';
import { insertScriptProject } from './support/real-tasks.ts';
import { follow, launchBrowser, screenshot, signIn } from './support/browser.ts';
import { seriousViolations } from './support/axe.ts';
import { hydrated, inEachLook, islandWeight, openContinuous, signedInBoth } from './support/scroll-list.ts';
import { writeAudit } from '../../src/server/domain/audit/audit.writer.ts';
import { moveAuditInbox } from '../../src/server/domain/audit/audit-inbox.ts';

const TASKS = 2_000;
const AUDIT_ROWS = 600;
/** every seventh task failed: the filter's share */
const failed = (i: number) => i % 7 === 3;

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
let client: ReturnType<typeof createClient>;
const ids: number[] = [];

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh');
  const base = Date.UTC(2026, 5, 1);
  const values = Array.from({ length: TASKS }, (_, i) => {
    const at = new Date(base + i * 60_000).toISOString();
    return {
      project_id: fx.project.id, template_id: fx.template.id, status: failed(i) ? 'error' : 'success', user_id: fx.adminId, playbook: '',
      environment: '{}', message: `run ${i}`, commit_message: '', params: '{}', created: at, start: at, end: new Date(base + i * 60_000 + 5_000).toISOString(),
    };
  });
  for (let i = 0; i < TASKS; i += 200) {
    const rows = await server.deps.db.insertInto('task').values(values.slice(i, i + 200)).returning('id').execute();
    ids.push(...rows.map((r) => r.id));
  }
  for (let i = 0; i < AUDIT_ROWS; i++) {
    await writeAudit(server.deps.db, { action: i % 2 ? 'delete' : 'update', projectId: fx.project.id, description: `entry ${i}.` });
  }
  while (await moveAuditInbox(server.deps.db) > 0) { /* moved in batches */ }
  ({ context, client } = await signedInBoth(browser, server.url));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const history = () => `/project/${fx.project.id}/history`;
const newest = () => Math.max(...ids);
const oldest = () => Math.min(...ids);


/** Scrolls the list's box to its end until the oldest task's row is there (each end fetches the next page). */
async function scrollToOldest(page: Page, id: number): Promise<void> {
  await expect.poll(async () => page.evaluate((want) => {
    const box = document.querySelector<HTMLElement>('.scroll-list-box')!;
    box.scrollTop = box.scrollHeight;
    return Boolean(document.querySelector(`.scroll-list tr[data-task="${want}"]`));
  }, id), { timeout: 120_000, interval: 100 }).toBe(true);
}

const rowCount = (page: Page) => page.$$eval('.scroll-list tbody tr[data-task]', (rows) => rows.length);

describe('history: the continuous list', () => {
  it('opens from "Scroll through all", shows the newest rows, scrolls to the oldest of 2,000 tasks with fewer than 100 rows in the DOM', async () => {
    // the paged page carries no island
    const { page, errors } = await openContinuous(context, `${server.url}${history()}`);
    expect(new URL(page.url()).searchParams.get('view')).toBe('all');
    expect(await page.$eval('.scroll-list tbody tr[data-task]', (tr) => Number(tr.getAttribute('data-task')))).toBe(newest());
    // the page links are for pages without JavaScript
    expect(await page.isHidden('#scroll-list-pager')).toBe(true);
    const table = page.locator('.scroll-list table');
    expect(await table.getAttribute('aria-rowcount')).toBe('-1');
    expect(await page.getAttribute('.scroll-list tbody tr[data-task]', 'aria-rowindex')).toBe('2');

    await scrollToOldest(page, oldest());
    expect(await rowCount(page)).toBeLessThan(100);
    await expect.poll(() => table.getAttribute('aria-rowcount')).toBe(String(TASKS + 1));
    expect(await page.getAttribute(`tr[data-task="${oldest()}"]`, 'aria-rowindex')).toBe(String(TASKS + 1));
    await expect.poll(() => page.textContent('.scroll-list-state')).toContain('The oldest task is shown.');
    // the same cells as the paged table: number, template, status chip, message
    const cells = await page.$eval(`tr[data-task="${oldest()}"]`, (tr) => tr.textContent);
    expect(cells).toContain(`#${oldest()} Deploy web`);
    expect(cells).toContain('run 0');
    expect(cells).toContain('5 s');
    // a row's link opens the task's log on this page
    expect(await page.getAttribute(`tr[data-task="${oldest()}"] a`, 'href')).toBe(`${history()}?view=all&t=${oldest()}`);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it('is usable from the keyboard: the box takes focus and End scrolls it on', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}${history()}?view=all`);
    await hydrated(page);
    await page.focus('.scroll-list-box');
    await page.keyboard.press('End');
    await expect.poll(() => page.$eval('.scroll-list-box', (box) => box.scrollTop)).toBeGreaterThan(0);
    await expect.poll(async () => Math.max(...await page.$$eval('.scroll-list tbody tr[data-task]', (rows) => rows.map((r) => Number(r.getAttribute('aria-rowindex')))))).toBeGreaterThan(20);
    await page.close();
  }, 60_000);

  it('keeps the filter: only failed tasks, down to the oldest failed one', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}${history()}`);
    await page.selectOption('select[name=status]', 'error');
    await follow(page, 'form.task-filter button[type=submit]');
    await follow(page, 'a:has-text("Scroll through all")');
    expect(new URL(page.url()).searchParams.get('status')).toBe('error');
    await hydrated(page);
    const failedIds = ids.filter((_, i) => failed(i));
    await scrollToOldest(page, Math.min(...failedIds));
    expect(await page.$$eval('.scroll-list tbody tr[data-task] .chip', (chips) => [...new Set(chips.map((c) => c.getAttribute('data-status')))])).toEqual(['error']);
    await expect.poll(() => page.getAttribute('.scroll-list table', 'aria-rowcount')).toBe(String(failedIds.length + 1));
    expect(await rowCount(page)).toBeLessThan(100);
    await page.close();
  }, 180_000);

  it('without JavaScript: the paged page is as before and the mode URL pages by the same links', async () => {
    const paged = await client.get(history());
    const shown = (html: string) => [...html.matchAll(/data-task="(\d+)"/g)].map((m) => Number(m[1]));
    const newestFirst = [...ids].sort((a, b) => b - a);
    expect(shown(paged.html)).toEqual(newestFirst.slice(0, 20));
    expect(paged.html).not.toContain('<astro-island');
    expect(paged.html).toContain('rel="next"');
    const mode = await client.get(`${history()}?view=all`);
    expect(shown(mode.html)).toEqual(newestFirst.slice(0, 20));
    const older = /<a href="([^"]+)" rel="next"/.exec(mode.html)?.[1]?.replaceAll('&amp;', '&');
    expect(older).toContain('view=all');
    expect(shown((await client.get(older!)).html)).toEqual(newestFirst.slice(20, 40));

    const noJs = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 }, javaScriptEnabled: false });
    const page = await noJs.newPage();
    await signIn(page, server.url, `${history()}?view=all`);
    expect(await page.isVisible('#scroll-list-pager a[rel=next]')).toBe(true);
    await follow(page, '#scroll-list-pager a[rel=next]');
    expect(await page.$eval('tbody tr[data-task]', (tr) => Number(tr.getAttribute('data-task')))).toBe(newestFirst[20]);
    await noJs.close();
  }, 60_000);

  it('ships no JavaScript to the paged history beyond its live-update script; the mode loads its chunk', async () => {
    await islandWeight(client, `${server.url}${history()}`, `${server.url}${history()}?view=all`, 'history');
  }, 60_000);

  it('renders at phone and desktop width in both themes', async () => {
    await inEachLook(context, server.url, `${server.url}${history()}?view=all`, 'history-scroll', async (page) => {
      await page.$eval('.scroll-list-box', (box) => { box.scrollTop = 30_000; });
      await page.waitForFunction(() => document.querySelector('.scroll-list-box')!.scrollTop > 0);
      await page.waitForSelector('.scroll-list tbody tr[data-task]');
    });
  }, 120_000);

  it('the audit trail scrolls the same way: from its first rows to the oldest entry, filtered by action', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${server.url}/project/${fx.project.id}/audit`);
    expect(await page.$('astro-island')).toBeNull();
    await follow(page, 'a:has-text("Scroll through all")');
    await hydrated(page);
    expect(await page.textContent('.scroll-list tbody tr[data-row]')).toContain(`entry ${AUDIT_ROWS - 1}.`);
    const reach = (text: string) => expect.poll(async () => page.evaluate((want) => {
      const box = document.querySelector<HTMLElement>('.scroll-list-box')!;
      box.scrollTop = box.scrollHeight;
      return [...document.querySelectorAll('.scroll-list tbody tr[data-row]')].some((tr) => tr.textContent?.includes(want));
    }, text), { timeout: 120_000, interval: 100 }).toBe(true);
    await reach('entry 0.');
    expect(await page.$$eval('.scroll-list tbody tr[data-row]', (rows) => rows.length)).toBeLessThan(100);
    await expect.poll(() => page.textContent('.scroll-list-state')).toContain('The oldest entry is shown.');

    await page.selectOption('select[name=action]', 'delete');
    await follow(page, 'form.audit-filters button[type=submit]');
    expect(new URL(page.url()).searchParams.get('view')).toBe('all');
    await hydrated(page);
    await reach('entry 1.');
    expect(await page.$$eval('.scroll-list tbody tr[data-row] code', (codes) => [...new Set(codes.map((c) => c.textContent))])).toEqual(['delete']);
    await screenshot(page, 'audit-scroll-1280', { fullPage: false });
    await page.close();
  }, 180_000);

  it('the trail of every project (admins) has the mode too, with its project column, axe clean', async () => {
    const page = await context.newPage();
    await context.addCookies([{ name: 'theme', value: 'light', url: server.url }]);
    await page.goto(`${server.url}/audit?view=all&action=update`);
    await hydrated(page);
    const heads = await page.$$eval('.scroll-list thead th', (ths) => ths.map((th) => th.textContent));
    expect(heads).toContain('Project');
    expect(await page.textContent('.scroll-list tbody tr[data-row]')).toContain(`entry ${AUDIT_ROWS - 2}.`);
    expect(await seriousViolations(page)).toEqual([]);
    await follow(page, 'a:has-text("Back to pages")');
    expect(new URL(page.url()).searchParams.get('view')).toBeNull();
    expect(new URL(page.url()).searchParams.get('action')).toBe('update');
    expect(await page.$('astro-island')).toBeNull();
    await page.close();
  }, 60_000);
});
