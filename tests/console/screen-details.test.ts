// Issue 46 item 4, small things seen on screen, each measured in Chromium at 375 and 1280 px in
// both themes: a row's action buttons keep room between them, Create and Cancel are one height,
// a long name stays inside the snackbar, the board's Choose button is whole, and the admin menu
// leaves out the developers' Components page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, screenshot, signIn } from './support/browser.ts';
import { adminApi, insertScriptProject } from './support/real-tasks.ts';
import { longName } from './support/look-fixture.ts';

let server: ConsoleServer;
let browser: Browser;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
const LONG = longName('Project');
const SIZES = [['light', 375], ['light', 1280], ['dark', 375], ['dark', 1280]] as const;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh', 'Nightly');
  const api = await adminApi(server);
  const p = `/api/project/${fx.project.id}`;
  await api.send('PUT', p, { ...(await api.get<object>(p)), name: LONG });
  await api.send('POST', `${p}/runners`, { name: 'Edge runner', tag: 'edge' });
  await api.send('POST', `${p}/runners`, { name: longName('Runner'), tag: 'long' });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function page(theme: 'light' | 'dark', width: number): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width, height: 900 } });
  await context.addCookies([{ name: 'theme', value: theme, url: server.url }]);
  const p = await context.newPage();
  await signIn(p, server.url, '/');
  return p;
}

describe('screen details', () => {
  it('keeps room between the action buttons of a row, side by side or one under the other', async () => {
    for (const [theme, width] of SIZES) {
      const p = await page(theme, width);
      await p.goto(`${server.url}/project/${fx.project.id}/runners`);
      const touching = await p.$$eval('td.res-actions', (cells) => cells.flatMap((cell) => {
        const boxes = [...cell.children].map((c) => c.getBoundingClientRect()).filter((b) => b.width > 0);
        const found: string[] = [];
        boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
          const apartX = Math.max(b.left - a.right, a.left - b.right);
          const apartY = Math.max(b.top - a.bottom, a.top - b.bottom);
          if (apartX < 6 && apartY < 4) found.push(`${Math.round(apartX)} px apart across, ${Math.round(apartY)} px down`);
        }));
        return found;
      }));
      expect(touching, `${theme} ${width}`).toEqual([]);
      await screenshot(p, `row-actions-${width}-${theme}`);
      await p.context().close();
    }
  }, 120_000);

  it('gives Create and Cancel of a new user one height, and wraps a long name inside the snackbar', async () => {
    for (const [theme, width] of SIZES) {
      const p = await page(theme, width);
      await p.goto(`${server.url}/users/new`);
      const heights = await p.$$eval('main form :is(button[type=submit], a[role=button])', (els) => els.map((e) => Math.round(e.getBoundingClientRect().height)));
      expect(heights, `${theme} ${width}`).toHaveLength(2);
      expect(heights[0], `${theme} ${width}`).toBe(heights[1]);
      await screenshot(p, `user-new-${width}-${theme}`);

      await p.goto(`${server.url}/project/${fx.project.id}/settings?flash=project_saved&name=${encodeURIComponent(LONG)}`);
      const bar = await p.$eval('.snackbar', (el) => {
        const box = el.getBoundingClientRect();
        return { left: box.left, right: box.right, fits: el.scrollWidth <= el.clientWidth + 1, text: el.textContent };
      });
      expect(bar.text).toContain('release_candidate_build_');
      expect(bar.left, `${theme} ${width}`).toBeGreaterThanOrEqual(0);
      expect(bar.right, `${theme} ${width}`).toBeLessThanOrEqual(width);
      expect(bar.fits, `${theme} ${width}`).toBe(true);
      await screenshot(p, `snackbar-long-name-${width}-${theme}`, { fullPage: false });
      await p.context().close();
    }
  }, 120_000);

  it('shows the board\'s Choose button whole, and its form with a real button and the long project name inside it', async () => {
    for (const [theme, width] of SIZES) {
      const p = await page(theme, width);
      await p.goto(`${server.url}/board?projects=${fx.project.id}`);
      const summary = await p.$eval('.board-choose > summary', (el) => {
        const box = el.getBoundingClientRect();
        return { top: box.top, bottom: box.bottom, whole: el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1 };
      });
      expect(summary.whole, `${theme} ${width}`).toBe(true);
      expect(summary.top, `${theme} ${width}`).toBeGreaterThanOrEqual(0);
      await p.click('.board-choose > summary');
      const form = await p.$eval('.board-form', (el) => {
        const box = el.getBoundingClientRect();
        const labels = [...el.querySelectorAll('fieldset label')].filter((l) => l.getBoundingClientRect().right > box.right + 1 || l.scrollWidth > l.clientWidth + 1).length;
        const show = el.querySelector('button[type=submit]')!;
        const background = getComputedStyle(show).backgroundColor;
        // as wide as it is made (26rem), or as the header on a phone: never the button's width
        const wide = box.width >= Math.min(416, document.querySelector('.board-head')!.getBoundingClientRect().width) - 2;
        return { labels, inView: box.left >= 0 && box.right <= innerWidth && wide, showHeight: show.getBoundingClientRect().height, showFilled: background !== 'rgba(0, 0, 0, 0)' };
      });
      expect(form, `${theme} ${width}`).toMatchObject({ labels: 0, inView: true, showFilled: true });
      expect(form.showHeight).toBeGreaterThan(30);
      await screenshot(p, `board-choose-${width}-${theme}`, { fullPage: false });
      await p.context().close();
    }
  }, 120_000);

  it('leaves the Components page out of the admin menu; admins still reach it by its address', async () => {
    const p = await page('light', 1280);
    await p.goto(`${server.url}/project/${fx.project.id}/history`);
    await p.click('.user-menu > summary');
    const links = await p.$$eval('.user-menu a', (as) => as.map((a) => a.getAttribute('href')));
    expect(links).toContain('/users');
    expect(links).not.toContain('/components');
    expect((await p.goto(`${server.url}/components`))!.status()).toBe(200);
    await p.context().close();
  });
});
