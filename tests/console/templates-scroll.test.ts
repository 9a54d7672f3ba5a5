// Issue #46 item 5: the template list at scale as one continuous list. "Scroll through all" (a plain
// link to ?scroll=all) keeps the server's first page and mounts an island (the history's
// ScrollList) that fetches the next cursor pages while scrolling, with only the rows near the
// screen in the DOM; templates chosen for the bulk bar stay chosen when their rows scroll away
// and the bar acts on exactly those; rows expand to their latest tasks; the column sheet's choice
// holds. The paged list carries no island; without JavaScript the mode's URL still pages.
// 2,000 templates inserted as fixtures; Chromium at 375 and 1280 px in both themes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { createClient } from './support/http-client.ts';
import { insertScriptProject } from './support/real-tasks.ts';
import { follow, launchBrowser, screenshot, signIn } from './support/browser.ts';
import { hydrated, inEachLook, islandWeight, openContinuous, signedInBoth } from './support/scroll-list.ts';

const COUNT = 2_000;
const nameOf = (i: number) => `Template ${String(i).padStart(4, '0')}`;

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
let client: ReturnType<typeof createClient>;
/** template id by name */
const ids = new Map<string, number>();
let taskId = 0;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh', 'Aardvark');
  ids.set('Aardvark', fx.template.id);
  const { id: _id, ...base } = await server.deps.db.selectFrom('template').selectAll().where('id', '=', fx.template.id).executeTakeFirstOrThrow();
  for (let i = 0; i < COUNT; i += 250) {
    const rows = await server.deps.db.insertInto('template')
      .values(Array.from({ length: Math.min(250, COUNT - i) }, (_, k) => ({ ...base, name: nameOf(i + k) }))).returning(['id', 'name']).execute();
    for (const row of rows) ids.set(row.name, row.id);
  }
  // a task of a template far down the list, for its expanded row
  const at = new Date(Date.UTC(2026, 5, 1)).toISOString();
  const task = await server.deps.db.insertInto('task').values({
    project_id: fx.project.id, template_id: ids.get(nameOf(1500))!, status: 'success', user_id: fx.adminId, playbook: '',
    environment: '{}', message: 'nightly sync', commit_message: '', params: '{}', created: at, start: at, end: at,
  }).returning('id').executeTakeFirstOrThrow();
  taskId = task.id;
  ({ context, client } = await signedInBoth(browser, server.url));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const list = () => `/project/${fx.project.id}/templates?view=all`;
const mode = () => `${list()}&scroll=all`;
const rowOf = (name: string) => `.scroll-list tr[data-template="${ids.get(name)}"]`;
const rowCount = (page: Page) => page.$$eval('.scroll-list tbody tr[data-template]', (rows) => rows.length);

/** Where the list's box stands against a template name: its row drawn, or the name before, after or among the drawn rows. */
type Place = 'drawn' | 'before' | 'after' | 'between';

/**
 * Sets the list's box to `top` (unless null), lets the virtual list draw the rows there (two
 * animation frames: its scroll handler, then React's render), and says where `name` stands
 * against the rows in view. The list is sorted by name, so those names tell which way to go.
 */
function placeOf(page: Page, name: string, top: number | null): Promise<{ place: Place; top: number; seen: string }> {
  return page.evaluate(async ([want, wantName, to]) => {
    const box = document.querySelector<HTMLElement>('.scroll-list-box')!;
    if (to !== null) box.scrollTop = to;
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    // the rows in the box's view: a chosen row out of view may be kept drawn elsewhere
    const view = box.getBoundingClientRect();
    const names = [...document.querySelectorAll('.scroll-list tbody tr[data-template] a.clamp')]
      .filter((a) => { const r = a.getBoundingClientRect(); return r.bottom > view.top && r.top < view.bottom; })
      .map((a) => a.textContent ?? '');
    const place = document.querySelector(`.scroll-list tr[data-template="${want}"]`) ? 'drawn'
      : names.length === 0 || wantName > names.at(-1)! ? 'after' : wantName < names[0]! ? 'before' : 'between';
    return { place: place as Place, top: box.scrollTop, seen: `${box.scrollTop} of ${box.scrollHeight} px: ${names[0]} to ${names.at(-1)}` };
  }, [ids.get(name)!, name, top] as const);
}

/**
 * Scrolls the list's box until the named template's row is drawn, as someone dragging the scroll
 * bar would: to the end of what is loaded until the list has loaded past the name (each end
 * fetches the next page), then halving the distance back to it.
 */
async function scrollTo(page: Page, name: string): Promise<void> {
  let { place, top } = await placeOf(page, name, null);
  await expect.poll(async () => {
    if (place !== 'after') return true;
    ({ place, top } = await placeOf(page, name, Number.MAX_SAFE_INTEGER));
    return place !== 'after';
  }, { timeout: 120_000, interval: 50 }).toBe(true);
  let [low, high] = place === 'before' ? [0, top] : [top, top];
  const steps: string[] = [];
  while (place !== 'drawn') {
    if (steps.length > 40 || place === 'between') throw new Error(`${name} is not drawn: ${steps.join('; ')}`);
    let seen: string;
    ({ place, top, seen } = await placeOf(page, name, Math.floor((low + high) / 2)));
    steps.push(seen);
    // the box may stand elsewhere than asked (the list keeps its place when a page lands): go by where it is
    if (place === 'before') high = top;
    if (place === 'after') low = top;
  }
  await page.$eval(rowOf(name), (tr) => tr.scrollIntoView({ block: 'center' }));
}

async function scrollToTop(page: Page): Promise<void> {
  await page.$eval('.scroll-list-box', (box) => { box.scrollTop = 0; });
  await page.waitForSelector(rowOf('Aardvark'));
}

describe('templates: the continuous list', () => {
  it('opens from "Scroll through all" and scrolls to the last of 2,001 templates with fewer than 150 rows in the DOM', async () => {
    // the paged list carries no island
    const { page, errors } = await openContinuous(context, `${server.url}${list()}`);
    expect(new URL(page.url()).searchParams.get('scroll')).toBe('all');
    expect(await page.isHidden('#scroll-list-pager')).toBe(true);
    expect(await page.getAttribute('.scroll-list tbody tr[data-template]', 'data-template')).toBe(String(ids.get('Aardvark')));
    expect(await page.getAttribute('.scroll-list table', 'aria-rowcount')).toBe('-1');
    await scrollTo(page, nameOf(COUNT - 1));
    expect(await rowCount(page)).toBeLessThan(150);
    await expect.poll(() => page.getAttribute('.scroll-list table', 'aria-rowcount')).toBe(String(COUNT + 2));
    await expect.poll(() => page.textContent('.scroll-list-state')).toContain('The last template is shown.');
    // the same cells as the paged list: name link, never run, Run opens the launch dialog on this page
    const last = ids.get(nameOf(COUNT - 1))!;
    expect(await page.textContent(rowOf(nameOf(COUNT - 1)))).toContain('Never run');
    expect(await page.getAttribute(`${rowOf(nameOf(COUNT - 1))} a.clamp`, 'href')).toBe(`/project/${fx.project.id}/templates/${last}/tasks`);
    expect(await page.getAttribute(`${rowOf(nameOf(COUNT - 1))} a.run-button`, 'href')).toBe(`${list()}&scroll=all&new_task=${last}`);
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);

  it('keeps templates chosen across the list while their rows scroll away; the bulk bar disables exactly those', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${server.url}${mode()}`);
    await hydrated(page);
    const picks = [nameOf(3), nameOf(900), nameOf(1990)];
    const count = page.locator('[data-bulk-count]');
    for (const [n, name] of picks.entries()) {
      await scrollTo(page, name);
      await page.locator(`${rowOf(name)} input[data-bulk-row]`).check();
      await expect.poll(() => count.textContent()).toBe(`${n + 1} chosen`);
    }
    // back at the top, the first choice is still ticked; its row was drawn anew
    await scrollToTop(page);
    await page.$eval(rowOf(nameOf(3)), (tr) => tr.scrollIntoView({ block: 'center' }));
    expect(await page.isChecked(`${rowOf(nameOf(3))} input[data-bulk-row]`)).toBe(true);
    expect(await page.isChecked(`${rowOf(nameOf(4))} input[data-bulk-row]`)).toBe(false);
    // one more, then taken back: the bar counts what is chosen
    await page.locator(`${rowOf(nameOf(4))} input[data-bulk-row]`).check();
    await expect.poll(() => count.textContent()).toBe('4 chosen');
    await page.locator(`${rowOf(nameOf(4))} input[data-bulk-row]`).uncheck();
    await expect.poll(() => count.textContent()).toBe('3 chosen');
    await page.selectOption('select[name=action]', 'disable');
    await screenshot(page, 'templates-scroll-chosen-1280', { fullPage: false });
    await follow(page, '#tpl-bulk button[type=submit]');
    expect(await page.locator('.snackbar span').textContent()).toBe('3 disabled');
    // still the continuous list
    expect(new URL(page.url()).searchParams.get('scroll')).toBe('all');
    const disabled = await server.deps.db.selectFrom('template').select('name').where('project_id', '=', fx.project.id).where('disabled', '=', 1 as never).execute();
    expect(disabled.map((r) => r.name).sort()).toEqual(picks);
    await hydrated(page);
    expect(await page.textContent('[data-bulk-count]')).toBe('0 chosen');
    await page.close();
  }, 240_000);

  it('chooses every template loaded so far from the header box, and none again', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}${mode()}`);
    await hydrated(page);
    await page.locator('input[data-choose-all]').check();
    await expect.poll(() => page.textContent('[data-bulk-count]')).toBe('100 chosen');
    expect(await page.locator('.scroll-list input[data-bulk-row]:not(:checked)').count()).toBe(0);
    await page.locator('input[data-choose-all]').uncheck();
    await expect.poll(() => page.textContent('[data-bulk-count]')).toBe('0 chosen');
    await page.close();
  }, 60_000);

  it('expands a row far down the list to its latest tasks in place, and the expanded row stays open while scrolled away', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${server.url}${mode()}`);
    await hydrated(page);
    const name = nameOf(1500);
    await scrollTo(page, name);
    const url = page.url();
    await page.click(`${rowOf(name)} a.row-expand`);
    // no page load: the island opened it
    expect(page.url()).toBe(url);
    const detail = page.locator(`${rowOf(name)} + tr.expanded-row`);
    await expect.poll(() => detail.textContent()).toContain('nightly sync');
    expect(await detail.locator(`a[href$="t=${taskId}"]`).count()).toBe(1);
    expect(await page.getAttribute(`${rowOf(name)} a.row-expand`, 'aria-expanded')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('row-expand'))).toBe(true);
    // a template without tasks says so
    await page.click(`${rowOf(nameOf(1501))} a.row-expand`);
    await expect.poll(() => page.locator(`${rowOf(nameOf(1501))} + tr.expanded-row`).textContent()).toContain('No tasks yet.');
    await screenshot(page, 'templates-scroll-expanded-1280', { fullPage: false });
    await scrollToTop(page);
    expect(await page.$(rowOf(name))).toBeNull();
    await scrollTo(page, name);
    expect(await detail.textContent()).toContain('nightly sync');
    await page.click(`${rowOf(name)} a.row-expand`);
    await expect.poll(() => detail.count()).toBe(0);
    await page.close();
  }, 240_000);

  it('keeps the search: only matching templates, down to the last one', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${server.url}${mode()}&q=${encodeURIComponent('template 19')}`);
    await hydrated(page);
    const matching = Array.from({ length: COUNT }, (_, i) => nameOf(i)).filter((n) => n.includes('19'));
    await scrollTo(page, matching.at(-1)!);
    await expect.poll(() => page.getAttribute('.scroll-list table', 'aria-rowcount')).toBe(String(matching.length + 1));
    const shown = await page.$$eval('.scroll-list tbody tr[data-template] a.clamp', (links) => links.map((a) => a.textContent ?? ''));
    expect(shown.every((name) => name.includes('19'))).toBe(true);
    await page.close();
  }, 120_000);

  it('keeps the columns chosen in the column sheet', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${server.url}${mode()}`);
    await hydrated(page);
    await page.click('.column-sheet summary');
    await page.locator('.column-sheet input[data-col=app]').uncheck();
    expect(await page.locator('.scroll-list th', { hasText: 'App' }).isVisible()).toBe(false);
    await scrollTo(page, nameOf(800));
    expect(await page.locator(`${rowOf(nameOf(800))} td:nth-child(3)`).isVisible()).toBe(false);
    expect(await page.locator(`${rowOf(nameOf(800))} td.last-task`).isVisible()).toBe(true);
    await page.locator('.column-sheet input[data-col=app]').check();
    expect(await page.locator(`${rowOf(nameOf(800))} td:nth-child(3)`).isVisible()).toBe(true);
    await page.close();
  }, 120_000);

  it('without JavaScript: the mode URL shows the first page and pages by the same links; only the mode loads the island', async () => {
    const names = (html: string) => [...html.matchAll(/<a class="clamp" href="\/project\/\d+\/templates\/\d+\/tasks" title="([^"]+)"/g)].map((m) => m[1]!);
    const first = await client.get(mode());
    expect(names(first.html)).toEqual(['Aardvark', ...Array.from({ length: 99 }, (_, i) => nameOf(i))]);
    const next = /<a href="([^"]+)" rel="next"/.exec(first.html)?.[1]?.replaceAll('&amp;', '&');
    expect(next).toContain('scroll=all');
    expect(names((await client.get(next!)).html)[0]).toBe(nameOf(99));

    const noJs = await browser.newContext({ locale: 'en-US', viewport: { width: 375, height: 800 }, javaScriptEnabled: false });
    const page = await noJs.newPage();
    await signIn(page, server.url, mode());
    expect(await page.isVisible('#scroll-list-pager a[rel=next]')).toBe(true);
    await follow(page, '#scroll-list-pager a[rel=next]');
    expect(await page.getAttribute('tbody tr[data-template]', 'data-template')).toBe(String(ids.get(nameOf(99))));
    await noJs.close();

    expect(await islandWeight(client, `${server.url}${list()}`, `${server.url}${mode()}`, 'templates')).toBeLessThan(95 * 1024);
  }, 120_000);

  it('renders at phone and desktop width in both themes', async () => {
    await inEachLook(context, server.url, `${server.url}${mode()}`, 'templates-scroll', async (page) => {
      await scrollTo(page, nameOf(1500));
      await page.click(`${rowOf(nameOf(1500))} a.row-expand`);
      await page.locator(`${rowOf(nameOf(1500))} + tr.expanded-row a`).waitFor();
      await page.locator(`${rowOf(nameOf(1502))} input[data-bulk-row]`).check();
    });
  }, 240_000);
});
