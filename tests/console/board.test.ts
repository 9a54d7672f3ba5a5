import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { createClient } from './support/http-client.ts';
import { insertProject, insertTemplate } from '../support/fixtures.ts';
import { insertTask } from '../support/project-rows.ts';
import { setTaskStatus } from '../../src/server/domain/tasks/task-status.ts';
import { createBoardToken } from '../../src/server/domain/board/board-token.repository.ts';
import { now } from '../../src/server/lib/time.ts';

let server: ConsoleServer;
let browser: Browser;
let wall: number;
let small: number;
let runningTask: number;
let token: string;

/** A task that ran `ms` long and ended a minute ago. */
async function ranTask(projectId: number, templateId: number, status: string, ms = 90_000) {
  const task = await insertTask(server.deps.db, { projectId, templateId, status });
  const start = new Date(Date.now() - 60_000 - ms);
  await server.deps.db.updateTable('task').set({ start: start.toISOString(), end: new Date(start.getTime() + ms).toISOString() }).where('id', '=', task.id).execute();
  return task;
}

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  const db = server.deps.db;
  wall = (await insertProject(db, 'Wall of 200')).id;
  for (let i = 0; i < 200; i++) {
    const template = await insertTemplate(db, wall, { name: `Job ${String(i + 1).padStart(3, '0')}` });
    if (i % 7 === 0) await ranTask(wall, template.id, 'error');
    else if (i % 3 === 0) await ranTask(wall, template.id, 'success');
  }
  small = (await insertProject(db, 'Operations')).id;
  const names = ['Deploy web', 'Deploy API', 'Nightly backup', 'Rotate certificates', 'Patch hosts', 'Database vacuum', 'Terraform plan',
    'Smoke tests', 'Log shipping', 'DNS sync', 'Cost report', 'Restart workers'];
  const ids: number[] = [];
  for (const name of names) ids.push((await insertTemplate(db, small, { name })).id);
  await ranTask(small, ids[0]!, 'success', 120_000);
  // two starts queue behind the running one: written with it at once, so none of them is claimed before it runs
  const running = await db.transaction().execute(async (tx) => {
    for (let i = 0; i < 2; i++) await insertTask(tx, { projectId: small, templateId: ids[0]!, status: 'waiting' });
    return insertTask(tx, { projectId: small, templateId: ids[0]!, status: 'running' });
  });
  await db.updateTable('task').set({ start: new Date(Date.now() - 45_000).toISOString() }).where('id', '=', running.id).execute();
  runningTask = running.id;
  for (let i = 0; i < 3; i++) await ranTask(small, ids[2]!, 'error');
  await ranTask(small, ids[1]!, 'success');
  await ranTask(small, ids[3]!, 'stopped');
  await ranTask(small, ids[4]!, 'error');
  await ranTask(small, ids[5]!, 'success');
  const waiting = await insertTask(db, { projectId: small, templateId: ids[6]!, status: 'waiting_confirmation' });
  await db.updateTable('task').set({ start: now() }).where('id', '=', waiting.id).execute();
  const adminId = (await db.selectFrom('user').select('id').where('admin', '=', 1).executeTakeFirstOrThrow()).id;
  token = (await createBoardToken(db, adminId, { name: 'Ops wall', project_ids: [small], by: 'template', view_id: null })).token!;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function boardPage(width: number, height: number, path: string, signedIn = true, javaScriptEnabled = true): Promise<Page> {
  const context = await newContext(browser, { viewport: { width, height }, javaScriptEnabled });
  const page = await context.newPage();
  if (signedIn) await signIn(page, server.url, '/');
  await page.goto(server.url + path);
  return page;
}

const noScrollbars = (page: Page) => page.evaluate(() => {
  const root = document.scrollingElement!;
  return { height: root.scrollHeight <= innerHeight, width: root.scrollWidth <= innerWidth, h: root.scrollHeight, w: root.scrollWidth };
});

describe('wall board in Chromium', () => {
  it('fits 200 tiles on a 1920×1080 screen without a scrollbar, failures first', async () => {
    const page = await boardPage(1920, 1080, `/board?projects=${wall}`);
    await page.waitForSelector('#board-grid[data-measured]');
    expect(await page.locator('#board-grid > li.tile').count()).toBe(200);
    await screenshot(page, 'board-200-1920', { fullPage: false });
    expect(await noScrollbars(page)).toMatchObject({ height: true, width: true });
    expect(await page.locator('#board-grid > li.tile').first().getAttribute('data-status')).toBe('error');
    // every tile lies inside the window
    const outside = await page.evaluate(() => [...document.querySelectorAll('#board-grid > li')].filter((li) => {
      const r = li.getBoundingClientRect();
      return r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5;
    }).length);
    expect(outside).toBe(0);
    await page.context().close();
  });

  it('shows a dozen tiles in big type, and updates a tile live when its task ends, with no reload', async () => {
    const page = await boardPage(1920, 1080, `/board?projects=${small}`);
    await page.waitForSelector('#board-grid[data-measured]');
    expect(await noScrollbars(page)).toMatchObject({ height: true, width: true });
    const first = page.locator('#board-grid > li.tile').first();
    expect(await first.locator('.tile-name').textContent()).toBe('Nightly backup');
    expect(await first.locator('.tile-streak').textContent()).toContain('3 failures in a row');
    const fontSize = await page.locator('li[data-status=running] .tile-name').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(fontSize).toBeGreaterThan(40);
    await expect.poll(() => page.locator('li[data-status=running] .tile-progress').count()).toBe(1);
    expect(await page.locator('li[data-status=running] .tile-queued').textContent()).toBe('2 queued');
    // a long status ("waiting confirmation") is said whole, not cut with an ellipsis
    const cut = await page.locator('.tile-status').evaluateAll((lines) => lines.filter((p) => p.scrollWidth > p.clientWidth + 1).map((p) => p.textContent));
    expect(cut).toEqual([]);
    await screenshot(page, 'board-12-1920', { fullPage: false });
    // the task ends (its status is stored and announced): the tile changes in the open page
    // (how fast is a benchmark's business, not this test's: it must not fail on a busy machine)
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => { if (frame === page.mainFrame()) navigations.push(frame.url()); });
    await setTaskStatus(server.deps, runningTask, 'error');
    await page.waitForSelector('li[data-status=running]', { state: 'detached', timeout: 30_000 });
    expect(navigations).toEqual([]);
    const tile = page.locator('#board-grid > li.tile', { hasText: 'Deploy web' });
    expect(await tile.getAttribute('data-status')).toBe('error');
    await page.context().close();
  });

  it('lays the tiles out in one column on a 375 px phone', async () => {
    const page = await boardPage(375, 812, `/board?projects=${small}`);
    await page.waitForSelector('#board-grid[data-measured]');
    // the narrowest tile, read again while the live script may be drawing the tiles anew
    const narrowest = () => page.locator('#board-grid > li.tile').evaluateAll((els) => Math.min(...els.map((el) => el.getBoundingClientRect().width)));
    expect(await page.locator('#board-grid > li.tile').count()).toBe(12);
    await expect.poll(narrowest).toBeGreaterThan(300);
    expect((await noScrollbars(page)).width).toBe(true);
    await screenshot(page, 'board-12-375');
    await page.context().close();
    // without JavaScript the phone gets the same one column (the portrait grid is for wall screens)
    const still = await boardPage(375, 812, `/board?projects=${small}`, true, false);
    const widths = await still.locator('#board-grid > li.tile').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().width));
    expect(widths).toHaveLength(12);
    expect(Math.min(...widths)).toBeGreaterThan(300);
    await still.context().close();
  });

  it('opens the board with a board token and nothing else', async () => {
    const page = await boardPage(1280, 800, `/board?token=${token}`, false);
    await page.waitForSelector('#board-grid[data-measured]');
    expect(await page.locator('#board-grid > li.tile').count()).toBe(12);
    expect(await page.content()).not.toContain('Wall of 200');
    expect(await page.locator('a[href="/board/tokens"]').count()).toBe(0);
    for (const path of ['/', `/project/${small}/history`, '/board/tokens', '/tokens', '/components']) {
      const res = await page.goto(`${server.url}${path}${path.includes('?') ? '&' : '?'}token=${token}`);
      expect(new URL(page.url()).pathname, path).toBe('/auth/login');
      expect(res?.status()).toBe(200);
    }
    const api = await page.evaluate(async (t) => {
      const answers: number[] = [];
      for (const path of ['/api/user', '/api/projects', '/api/board/tokens']) {
        answers.push((await fetch(`${path}?token=${t}`, { headers: { authorization: `Bearer ${t}` } })).status);
      }
      return answers;
    }, token);
    expect(api).toEqual([401, 401, 401]);
    await page.context().close();
  });

  it('refuses a revoked or malformed board link, and bad query values, with an error page', async () => {
    const client = createClient(server.url);
    expect((await client.get('/board?token=sbb_nope')).status).toBe(401);
    const signed = createClient(server.url);
    await signed.signIn();
    for (const query of ['?projects=abc', '?by=task', '?view=-3', '?projects=1,,', `?projects=${small}&view=999999`]) {
      const res = await signed.get(`/board${query}`);
      expect(res.status, query).toBe(400);
      expect(res.html, query).toContain('role="alert"');
    }
  });

  it('reloads itself every 30 s without JavaScript', async () => {
    const page = await boardPage(1920, 1080, `/board?projects=${small}`, true, false);
    const refresh = await page.evaluate(() => document.querySelector('noscript')?.innerHTML ?? '');
    expect(refresh).toMatch(/http-equiv="refresh" content="30"/);
    expect(await page.locator('#board-grid > li.tile').count()).toBe(12);
    expect(await noScrollbars(page)).toMatchObject({ height: true, width: true });
    await page.context().close();
  });
});
