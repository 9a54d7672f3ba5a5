import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext } from './support/browser.ts';
import { insertProject, insertTemplate } from '../support/fixtures.ts';
import { insertTask } from '../support/project-rows.ts';
import { setTaskStatus } from '../../src/server/domain/tasks/task-status.ts';
import { createBoardToken } from '../../src/server/domain/board/board-token.repository.ts';

// A wall screen stays on for days. Chromium's clock is faked: the first half hour runs as it is
// (the board's timer re-reads and redraws it every 30 s, 60 times), then the rest of the week in
// half hours: a real task ends on the server (336 websocket updates, each followed by a re-read
// and a redraw) and the half hour's 60 timer ticks fire at once. The page's JavaScript objects
// after the week, garbage collected, must be within 10 % of after the first hour.

const HALF_HOUR = 30 * 60_000;
const WEEK_STEPS = 7 * 48;

let server: ConsoleServer;
let browser: Browser;
let projectId: number;
let templateIds: number[] = [];
let token: string;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  const db = server.deps.db;
  projectId = (await insertProject(db, 'Night shift')).id;
  for (const name of ['Deploy web', 'Deploy API', 'Nightly backup', 'Rotate certificates', 'Patch hosts', 'Database vacuum']) {
    templateIds.push((await insertTemplate(db, projectId, { name })).id);
  }
  const adminId = (await db.selectFrom('user').select('id').where('admin', '=', 1).executeTakeFirstOrThrow()).id;
  token = (await createBoardToken(db, adminId, { name: 'Night wall', project_ids: [projectId], by: 'template', view_id: null })).token!;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Runs a task of the step's template to its end on the server, which announces it on the socket. */
async function finishTask(step: number): Promise<{ templateId: number; status: 'success' | 'error' }> {
  const templateId = templateIds[step % templateIds.length]!;
  const status = step % 5 === 0 ? 'error' : 'success';
  const task = await insertTask(server.deps.db, { projectId, templateId, status: 'running' });
  await setTaskStatus(server.deps, task.id, status);
  return { templateId, status };
}

/** Heap snapshot node types that are the page's own JavaScript objects. */
const JS_OBJECT_TYPES = new Set(['object', 'array', 'string', 'concatenated string', 'sliced string', 'closure', 'object shape', 'number', 'symbol', 'bigint', 'regexp']);

/**
 * The bytes of the page's JavaScript objects, garbage collected, from a heap snapshot. Left out:
 * compiled code (it grows while V8 optimises the page's functions, up to a bound) and native
 * objects, among them DevTools' record of every response, which only an automated browser keeps.
 */
async function jsObjectBytes(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
  const chunks: string[] = [];
  cdp.on('HeapProfiler.addHeapSnapshotChunk', (e) => chunks.push(e.chunk));
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  await cdp.detach();
  const snapshot = JSON.parse(chunks.join('')) as { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[] };
  const { node_fields: fields, node_types: [types] } = snapshot.snapshot.meta;
  const type = fields.indexOf('type');
  const size = fields.indexOf('self_size');
  let bytes = 0;
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    if (JS_OBJECT_TYPES.has(types[snapshot.nodes[i + type]!]!)) bytes += snapshot.nodes[i + size]!;
  }
  return bytes;
}

const draws = (page: Page) => page.evaluate(() => (window as unknown as { draws: number }).draws);

/** A task ends on the server; the page takes the socket update and redraws that tile. */
async function halfHourUpdate(page: Page, step: number): Promise<void> {
  const { templateId, status } = await finishTask(step);
  const tile = page.locator(`#board-grid > li.tile[data-tile="template-${templateId}"]`);
  // the update schedules a re-read on the page's (fake) clock: advance it until the tile shows it
  await expect.poll(async () => {
    await page.clock.runFor(100);
    return tile.getAttribute('data-status');
  }, { timeout: 10_000 }).toBe(status);
}

/** 30 simulated seconds: the board's timer fires, re-reads the board and draws it again. */
async function timerTick(page: Page): Promise<void> {
  const before = await draws(page);
  await page.clock.runFor(30_000);
  await expect.poll(() => draws(page), { timeout: 10_000 }).toBeGreaterThan(before);
}

/** A compressed half hour: a task update, then 60 timer ticks at once (a re-read still in flight absorbs the ones after it). */
async function halfHour(page: Page, step: number): Promise<void> {
  await halfHourUpdate(page, step);
  await page.clock.runFor(HALF_HOUR - 100);
}

describe('wall board left on for a week', () => {
  it('keeps its heap flat over 7 simulated days of timers and task updates', async () => {
    const context = await newContext(browser, { viewport: { width: 1920, height: 1080 } });
    const page = await context.newPage();
    await page.clock.install({ time: new Date('2026-11-02T08:00:00Z') });
    await page.addInitScript(() => {
      // counts the redraws, to show the week really drew the board again and again
      (window as unknown as { draws: number }).draws = 0;
      addEventListener('DOMContentLoaded', () => {
        const grid = document.getElementById('board-grid');
        if (grid) new MutationObserver(() => { (window as unknown as { draws: number }).draws++; }).observe(grid, { childList: true });
      });
    });
    await page.goto(`${server.url}/board?token=${token}`);
    await page.waitForSelector('#board-grid[data-measured]');
    // the first half hour as it is: every 30 s the timer re-reads the board and draws it
    await halfHourUpdate(page, 0);
    for (let tick = 0; tick < 60; tick++) await timerTick(page);
    await halfHour(page, 1);
    const firstHour = await jsObjectBytes(page);
    for (let step = 2; step < WEEK_STEPS; step++) await halfHour(page, step);
    const week = await jsObjectBytes(page);
    expect(await draws(page)).toBeGreaterThanOrEqual(60 + WEEK_STEPS);
    expect(await page.locator('#board-grid > li.tile').count()).toBe(templateIds.length);
    expect(week / firstHour, `JS objects: ${firstHour} bytes after an hour, ${week} after a week`).toBeLessThanOrEqual(1.1);
    await context.close();
  }, 600_000);
});
