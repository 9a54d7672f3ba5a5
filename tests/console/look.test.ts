import { copyFileSync, mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, screenshot, SCREENSHOTS, signIn } from './support/browser.ts';
import { insertLookProject, startRunnersServer } from './support/look-fixture.ts';
import { insertScriptProject } from './support/real-tasks.ts';
import { measurePageCss } from './support/css-weight.ts';
import { measurePageJs } from './support/js-weight.ts';
import { LANGUAGES } from '../../src/console/languages.ts';

let server: ConsoleServer;
let browser: Browser;
let look: Awaited<ReturnType<typeof insertLookProject>>;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  look = await insertLookProject(server);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A signed-in page at a viewport size, in the light or dark theme. */
async function openPage(width: number, height: number, theme: 'light' | 'dark' = 'light', lang = 'en'): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width, height } });
  await context.addCookies([{ name: 'theme', value: theme, url: server.url }, { name: 'lang', value: lang, url: server.url }]);
  const page = await context.newPage();
  await signIn(page, server.url, '/');
  return { page, context };
}

// Browser journeys over many pages: generous limits for a loaded machine (none of them is a speed target).
const SLOW = 900_000;

const pageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const box = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!;

/** What `find` reports on each fixture page (signed in, 1280 px wide unless told), as "page: finding" lines. */
async function findOnEveryPage(find: (page: Page) => Promise<string[]>, routes = look.routes, { lang = 'en', width = 1280 } = {}): Promise<string[]> {
  const { page, context } = await openPage(width, 900, 'light', lang);
  const found: string[] = [];
  for (const [name, path] of routes) {
    await page.goto(server.url + path);
    found.push(...(await find(page)).map((finding) => `${name}: ${finding}`));
  }
  await context.close();
  return found;
}

/** `find` on every page in each language but English, as "lang page: finding" lines. */
async function findInOtherLanguages(find: (page: Page) => Promise<string[]>, routes: typeof look.routes, width = 1280): Promise<string[]> {
  const found: string[] = [];
  for (const { code } of LANGUAGES.filter(({ code }) => code !== 'en')) {
    found.push(...(await findOnEveryPage(find, routes, { lang: code, width })).map((finding) => `${code} ${finding}`));
  }
  return found;
}

/** Each screen once: a dialog's route shows the page under it, already visited. */
function screensOf(routes: typeof look.routes): typeof look.routes {
  const pathOf = (route: readonly [string, string]) => route[1].split('?')[0];
  return routes.filter((route, i) => routes.findIndex((other) => pathOf(other) === pathOf(route)) === i);
}

describe('console layout', () => {
  it('fits every page at 375, 768, 1280 and 1920 px with no sideways page scroll and no server error', async () => {
    for (const width of [375, 768, 1280, 1920]) {
      const { page, context } = await openPage(width, 900);
      for (const [name, path] of look.routes) {
        const res = await page.goto(server.url + path);
        expect(res!.status(), `${name} at ${width}`).toBeLessThan(500);
        expect(await pageOverflow(page), `${name} at ${width} px`).toBeLessThanOrEqual(0);
      }
      await context.close();
    }
  }, SLOW);

  it('sizes the headings of every page and dialog by rank: none is larger than a heading of a higher rank', async () => {
    expect(await findOnEveryPage(async (page) => {
      const headings = await page.$$eval(':is(main, dialog) :is(h1, h2, h3, h4, h5, h6)', (list) => list
        .filter((h) => h.getClientRects().length > 0)
        .map((h) => ({ rank: Number(h.tagName[1]), size: parseFloat(getComputedStyle(h).fontSize), text: h.textContent!.trim(), inDialog: h.closest('dialog') !== null })));
      return headings.flatMap((lower) => headings
        .filter((h) => h.rank < lower.rank && h.inDialog === lower.inDialog && lower.size > h.size)
        .map((h) => `"${lower.text}" (h${lower.rank}, ${lower.size} px) > "${h.text}" (h${h.rank}, ${h.size} px)`));
    })).toEqual([]);
  }, SLOW);

  it('fits every list in its box at 1280 px in every language: no table scrolls sideways on a desktop screen', async () => {
    const overflowingTables = (page: Page) => page.$$eval('.table-box', (boxes) => boxes
      .filter((b) => b.getClientRects().length > 0 && b.scrollWidth > b.clientWidth)
      .map((b) => `${b.getAttribute('aria-label')}: ${b.scrollWidth} px in ${b.clientWidth} px`));
    // The components catalogue shows a table in a half-width card on purpose, scrolling in its box.
    const screens = screensOf(look.routes.filter(([name]) => !name.startsWith('components')));
    expect(await findOnEveryPage(overflowingTables, screens)).toEqual([]);
    // Other languages' words are longer: the screens that have a list, in each of them.
    const withLists = (await findOnEveryPage(async (page) => (await page.locator('.table-box').count()) ? ['list'] : [], screens))
      .map((found) => found.split(':')[0]);
    const listScreens = screens.filter(([name]) => withLists.includes(name));
    expect(listScreens.length).toBeGreaterThan(10);
    const found = await findInOtherLanguages(overflowingTables, listScreens);
    expect(found).toEqual([]);
  }, SLOW);

  it('fits every screen on a 375 px phone in every language: no sideways page or dialog scroll, no status or table cut short, a task list\'s task, status and start in view', async () => {
    const phoneFaults = (page: Page) => page.evaluate(() => {
      const faults: string[] = [];
      const overflow = document.documentElement.scrollWidth - document.documentElement.clientWidth;
      if (overflow > 0) faults.push(`page scrolls ${overflow} px sideways`);
      for (const chip of document.querySelectorAll<HTMLElement>('.chip')) {
        if (chip.scrollWidth > chip.clientWidth + 1) faults.push(`status "${chip.textContent!.trim()}" cut: ${chip.scrollWidth} px in ${chip.clientWidth} px`);
      }
      for (const dialog of document.querySelectorAll('dialog[open] article')) {
        if (dialog.scrollWidth > dialog.clientWidth) faults.push(`dialog scrolls sideways: ${dialog.scrollWidth} px in ${dialog.clientWidth} px`);
        const edge = dialog.getBoundingClientRect().right;
        // a wide table belongs in a box of its own that scrolls sideways, not in the dialog's body
        for (const table of dialog.querySelectorAll('table')) {
          if (table.getBoundingClientRect().right > edge + 1 && !table.closest('.overflow-auto, .table-box')) faults.push(`a table of the dialog is cut: ${table.className}`);
        }
      }
      for (const table of document.querySelectorAll('.table-box:has(.chip)')) {
        const right = table.getBoundingClientRect().right;
        for (const th of [...table.querySelectorAll('thead th')].slice(0, 3)) {
          const text = document.createRange();
          text.selectNodeContents(th);
          if (text.getBoundingClientRect().right > right) faults.push(`column "${th.textContent!.trim()}" out of view`);
        }
      }
      return faults;
    });
    // every screen once, and the task dialog's tabs (the words of its tab bar differ most)
    const screens = [...screensOf(look.routes), ...look.routes.filter(([name]) => name.startsWith('task-'))];
    expect(await findOnEveryPage(phoneFaults, screens, { width: 375 })).toEqual([]);
    expect(await findInOtherLanguages(phoneFaults, screens, 375)).toEqual([]);
  }, SLOW);

  it('keeps the stats chart labels readable on a phone and on a desktop screen', async () => {
    for (const width of [375, 1280]) {
      const { page, context } = await openPage(width, 800);
      await page.goto(`${server.url}/project/${look.projectId}/stats`);
      const labels = await page.$$eval('.chart svg text', (texts) => texts.map((t) => {
        const r = t.getBoundingClientRect();
        const svg = t.closest('svg')!.getBoundingClientRect();
        return { text: t.textContent, height: r.height, inside: r.left >= svg.left && r.right <= svg.right && r.top >= svg.top && r.bottom <= svg.bottom };
      }));
      expect(labels.length, `${width} px`).toBeGreaterThan(3);
      for (const label of labels) {
        expect(label.height, `"${label.text}" at ${width} px`).toBeGreaterThanOrEqual(10);
        expect(label.inside, `"${label.text}" at ${width} px`).toBe(true);
      }
      await context.close();
    }
  }, SLOW);

  it('keeps the tabs of every page apart: no two tabs touch', async () => {
    expect(await findOnEveryPage((page) => page.$$eval('nav.tabs', (navs) => navs.flatMap((nav) => {
      const tabs = [...nav.querySelectorAll('a')].map((a) => ({ text: a.textContent, box: a.getBoundingClientRect() }));
      return tabs.slice(1).flatMap((tab, i) => {
        const before = tabs[i]!;
        return Math.abs(tab.box.top - before.box.top) < 1 && tab.box.left - before.box.right < 4 ? [`${before.text} | ${tab.text}`] : [];
      });
    })))).toEqual([]);
  }, SLOW);

  it('fits the global runners screen (served with remote runners only) at 375 and 1280 px', async () => {
    const runners = await startRunnersServer();
    try {
      for (const width of [375, 1280]) {
        const context = await browser.newContext({ locale: 'en-US', viewport: { width, height: 900 } });
        const page = await context.newPage();
        await signIn(page, runners.url, '/runners');
        expect(await page.locator('main').textContent()).toContain('Shared runner in the main datacenter');
        expect(await pageOverflow(page), `runners at ${width} px`).toBeLessThanOrEqual(0);
        await context.close();
      }
    } finally {
      await runners.close();
    }
  }, SLOW);

  it('keeps task, status and start in view on a phone; the table scrolls in its own box', async () => {
    const { page, context } = await openPage(375, 800);
    await page.goto(`${server.url}/project/${look.projectId}/history`);
    const visible = await page.$$eval('.data-table thead th', (cells) => cells
      .filter((c) => getComputedStyle(c).display !== 'none' && c.getBoundingClientRect().right <= innerWidth)
      .map((c) => c.textContent));
    expect(visible.slice(0, 3)).toEqual(['Task', 'Status', 'Start']);
    await context.close();
  }, SLOW);

  it('fills a 1920×1080 wall screen with large type and every column, with a visible way out', async () => {
    const { page, context } = await openPage(1920, 1080, 'dark');
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
    await context.close();
  }, SLOW);
});

describe('task log dialog layout', () => {
  it('is 1000 px wide, fills the viewport in full screen, and its toggle label follows the state across reloads', async () => {
    const { page, context } = await openPage(1280, 800);
    const url = `${server.url}/project/${look.projectId}/history?t=${look.taskId}`;
    await page.goto(url);
    await page.waitForSelector('dialog .log-row');
    const normal = await box(page, 'dialog.task-log > article');
    expect(normal.width).toBe(1000);
    const normalLog = await box(page, 'dialog .log');
    const toggle = page.locator('dialog .task-log-header button');
    expect(await toggle.getAttribute('aria-label')).toBe('Full screen');

    await toggle.click();
    await page.waitForFunction(() => document.querySelector('dialog.task-log')?.classList.contains('fullscreen'));
    const full = await box(page, 'dialog.task-log > article');
    expect(full).toEqual({ x: 0, y: 0, width: 1280, height: 800 });
    expect((await box(page, 'dialog .log')).height).toBeGreaterThan(normalLog.height);
    expect(await toggle.getAttribute('aria-label')).toBe('Exit full screen');

    await page.reload();
    await page.waitForFunction(() => document.querySelector('dialog.task-log')?.classList.contains('fullscreen'));
    expect(await page.locator('dialog .task-log-header button').getAttribute('aria-label')).toBe('Exit full screen');
    await page.locator('dialog .task-log-header button').click();
    await page.waitForFunction(() => !document.querySelector('dialog.task-log')?.classList.contains('fullscreen'));
    expect((await box(page, 'dialog.task-log > article')).width).toBe(1000);
    expect(await page.locator('dialog .task-log-header button').getAttribute('aria-label')).toBe('Full screen');
    await context.close();
  }, SLOW);

  it('shows template › task number, status chip, starter, time and duration in one header, and the Details and Summary tabs', async () => {
    const { page, context } = await openPage(1280, 800);
    await page.goto(`${server.url}/project/${look.projectId}/history?t=${look.taskId}`);
    await page.waitForSelector('dialog .log-row');
    expect(await page.textContent('dialog h2')).toMatch(/^Build web\s*Task #\d+$/);
    expect(await page.getAttribute('dialog .task-log-facts .chip', 'data-status')).toBe('success');
    const facts = await page.textContent('dialog .task-log-facts');
    expect(facts).toContain('Success');
    expect(facts).toContain('Started by Admin');
    expect(facts).toMatch(/\d+ s/);
    await page.click('dialog .task-log-tabs >> text=Details');
    expect(new URL(page.url()).searchParams.get('tab')).toBe('details');
    expect(await page.textContent('dialog .task-details')).toContain('Nightly build');
    expect(await page.locator('dialog .log').isVisible()).toBe(false);
    await page.click('dialog .task-log-tabs >> text=Summary');
    expect(new URL(page.url()).searchParams.get('tab')).toBe('summary');
    expect(await page.locator('dialog .task-summary').isVisible()).toBe(true);
    expect(await page.textContent('dialog .task-summary [data-stage=running]')).toContain('Run');
    expect(await page.locator('dialog .log').isVisible()).toBe(false);
    await page.click('dialog .task-log-tabs >> text=Log');
    expect(await page.locator('dialog .log').isVisible()).toBe(true);
    await context.close();
  }, SLOW);
});

describe('console weight', () => {
  it('keeps CSS ≤ 25 KB gzip on every page and the history script ≤ 2 KB', async () => {
    const cookie = (await look.api.cookie);
    for (const [name, path] of look.routes) {
      const { bytes } = await measurePageCss(server.url + path, cookie);
      expect(bytes, name).toBeGreaterThan(5 * 1024);
      expect(bytes, name).toBeLessThanOrEqual(25 * 1024);
    }
    const history = await measurePageJs(`${server.url}/project/${look.projectId}/history`, cookie);
    expect(history.bytes).toBeGreaterThan(0);
    expect(history.bytes).toBeLessThanOrEqual(2 * 1024);
  }, SLOW);
});

describe('screenshots', () => {
  it('writes every screen at 1280 and 375 px, light and dark, under tests/screenshots/', async () => {
    const screens = look.routes.filter(([name]) => !name.endsWith('-dialog') && name !== 'settings-confirm');
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [1280, 375]) {
        const { page, context } = await openPage(width, 800, theme);
        for (const [name, path] of screens) {
          await page.goto(server.url + path);
          if (name.startsWith('task-')) await page.waitForSelector('dialog astro-island:not([ssr])');
          await screenshot(page, `look-${name}-${width}-${theme}`, { fullPage: !name.startsWith('task-') });
        }
        await context.close();
      }
    }
    // The README shows the history in both themes; they are refreshed on request, so that a test run
    // leaves the checkout as it found it.
    if (process.env.SIGNALBOX_DOCS_SCREENSHOTS !== '1') return;
    mkdirSync(new URL('../../docs/', import.meta.url), { recursive: true });
    for (const theme of ['light', 'dark']) {
      copyFileSync(new URL(`look-history-1280-${theme}.png`, SCREENSHOTS), new URL(`../../docs/history-${theme}.png`, import.meta.url));
    }
  }, SLOW);
});

describe('wall screen', () => {
  it('shows a full page of twenty tasks on a 1920×1080 screen without scrolling, one line a task, and a chart across the screen', async () => {
    const fx = await insertScriptProject(server, { 'backup.sh': 'true\n' }, 'backup.sh', 'Nightly backup of the production database cluster');
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    await server.deps.db.insertInto('task').values(Array.from({ length: 21 }, (_, i) => ({
      project_id: fx.project.id, template_id: fx.template.id, status: i % 5 ? 'success' : 'error', user_id: fx.adminId, playbook: '', environment: '{}',
      message: '', commit_message: 'Rotate the certificates of every edge proxy before they expire next week', git_branch: 'release/2026-11', params: '{}',
      created: iso(now - i * 3_600_000), start: iso(now - i * 3_600_000), end: iso(now - i * 3_600_000 + 95_000),
    }))).execute();
    const { page, context } = await openPage(1920, 1080, 'dark');
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
    await context.close();
  }, SLOW);
});
