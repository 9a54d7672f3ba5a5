import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.ts';
import { insertScriptProject } from './support/real-tasks.ts';
import { box, look, openPage, server, setUpLook, SLOW } from './support/look-world.ts';

// A read-only dashboard left on a 1920×1080 wall screen (what the look files share: support/look-world.ts).
setUpLook();

describe('wall screen', () => {
  it('fills a 1920×1080 wall screen with large type and every column, with a visible way out', async () => {
    const page = await openPage({ width: 1920, height: 1080, theme: 'dark' });
    await page.goto(`${server.url}/project/${look.projectId}/history`);
    const normalSize = await page.$eval('.data-table td', (td) => parseFloat(getComputedStyle(td).fontSize));
    await page.goto(`${server.url}/project/${look.projectId}/history?kiosk=1`);
    expect(await page.locator('.drawer').count()).toBe(0);
    const kioskSize = await page.$eval('.data-table td', (td) => parseFloat(getComputedStyle(td).fontSize));
    expect(kioskSize).toBeGreaterThanOrEqual(normalSize * 1.4);
    const headers = await page.$$eval('.data-table thead th', (cells) => cells.map((c) => {
      const r = c.getBoundingClientRect();
      return { text: c.textContent, shown: getComputedStyle(c).display !== 'none' && r.left >= 0 && r.right <= innerWidth };
    }));
    expect(headers.map((h) => h.text)).toEqual(['Task', 'Status', 'Start', 'Duration', 'User', 'Version']);
    expect(headers.every((h) => h.shown)).toBe(true);
    const table = await box(page, '.table-box');
    expect(table.width).toBeGreaterThan(1800);
    expect(await page.$eval('.table-box', (el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const exit = page.getByRole('button', { name: 'Exit wall-screen mode' });
    expect(await exit.isVisible()).toBe(true);
    await Promise.all([page.waitForURL((u) => !u.searchParams.has('kiosk')), exit.click()]);
    expect(await page.locator('.drawer').isVisible()).toBe(true);
    await page.context().close();
  }, SLOW);

  it('shows a full page of twenty tasks on a 1920×1080 screen without scrolling, one line a task, and a chart across the screen', async () => {
    const fx = await insertScriptProject(server, { 'backup.sh': 'true\n' }, 'backup.sh', 'Nightly backup of the production database cluster');
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    await server.deps.db.insertInto('task').values(Array.from({ length: 21 }, (_, i) => ({
      project_id: fx.project.id, template_id: fx.template.id, status: i % 5 ? 'success' : 'error', user_id: fx.adminId, playbook: '', environment: '{}',
      message: '', commit_message: 'Rotate the certificates of every edge proxy before they expire next week', git_branch: 'release/2026-11', params: '{}',
      created: iso(now - i * 3_600_000), start: iso(now - i * 3_600_000), end: iso(now - i * 3_600_000 + 95_000),
    }))).execute();
    const page = await openPage({ width: 1920, height: 1080, theme: 'dark' });
    await page.goto(`${server.url}/project/${fx.project.id}/history?kiosk=1`);
    expect(await page.locator('.data-table tbody tr').count()).toBe(20);
    const size = await page.evaluate(() => {
      const root = document.documentElement;
      return { height: root.scrollHeight, width: root.scrollWidth, screenHeight: innerHeight, screenWidth: innerWidth };
    });
    expect(size.height).toBeLessThanOrEqual(size.screenHeight);
    expect(size.width).toBeLessThanOrEqual(size.screenWidth);
    expect(await page.getByRole('button', { name: 'Exit wall-screen mode' }).isVisible()).toBe(true);
    await screenshot(page, 'look-wall-screen-1920-dark', { fullPage: false });

    await page.goto(`${server.url}/project/${fx.project.id}/stats?kiosk=1`);
    expect((await box(page, '.chart svg')).width).toBeGreaterThan(1800);
    expect(await page.evaluate(() => document.documentElement.scrollHeight <= innerHeight)).toBe(true);
    await page.context().close();
  }, SLOW);
});
