import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn } from './support/browser.ts';
import { startRunnersServer } from './support/look-fixture.ts';
import { browser, look, lookAtEveryPage, openPage, pageOverflow, resize, server, setUpLook, SLOW } from './support/look-world.ts';
import { languageLooks, languageTests, type LanguageFindings } from './support/look-languages.ts';

// The console's layout at the widths people use, in English, with the checks every language gets
// (the others: look-languages-*.test.ts; what the look files share: support/look-world.ts).
setUpLook();

const sideways = async (page: Page) => {
  const overflow = await pageOverflow(page);
  return overflow > 0 ? [`scrolls ${overflow} px sideways at ${page.viewportSize()!.width} px`] : [];
};

const headingsOutOfRank = async (page: Page) => {
  const headings = await page.$$eval(':is(main, dialog) :is(h1, h2, h3, h4, h5, h6)', (list) => list
    .filter((h) => h.getClientRects().length > 0)
    .map((h) => ({ rank: Number(h.tagName[1]), size: parseFloat(getComputedStyle(h).fontSize), text: h.textContent!.trim(), inDialog: h.closest('dialog') !== null })));
  return headings.flatMap((lower) => headings
    .filter((h) => h.rank < lower.rank && h.inDialog === lower.inDialog && lower.size > h.size)
    .map((h) => `"${lower.text}" (h${lower.rank}, ${lower.size} px) > "${h.text}" (h${h.rank}, ${h.size} px)`));
};

const touchingTabs = (page: Page) => page.$$eval('nav.tabs', (navs) => navs.flatMap((nav) => {
  const tabs = [...nav.querySelectorAll('a')].map((a) => ({ text: a.textContent, box: a.getBoundingClientRect() }));
  return tabs.slice(1).flatMap((tab, i) => {
    const before = tabs[i]!;
    return Math.abs(tab.box.top - before.box.top) < 1 && tab.box.left - before.box.right < 4 ? [`${before.text} | ${tab.text}`] : [];
  });
}));

describe('console layout', () => {
  // Every page loaded once for the checks below, then resized to each width they look at.
  let found: { fits: string[]; headings: string[]; tabs: string[] };
  let inEnglish: LanguageFindings;
  beforeAll(async () => {
    const [phone, tables, lists, served, headings, tabs, ...widths] = await lookAtEveryPage([
      ...languageLooks(),
      { width: 1280, find: async (_page, status) => (status >= 500 ? [`served with ${status}`] : []) },
      { width: 1280, find: headingsOutOfRank },
      { width: 1280, find: touchingTabs },
      ...[1280, 768, 375, 1920].map((width) => ({ width, find: sideways })),
    ], look.routes);
    found = { fits: [served!, ...widths].flat(), headings: headings!, tabs: tabs! };
    const en = (lines: string[]) => lines.map((line) => `en ${line}`);
    inEnglish = { phone: en(phone!), tables: en(tables!), lists: en(lists!) };
  }, SLOW);

  describe('in English', () => languageTests(['en'], () => inEnglish));

  it('fits every page at 375, 768, 1280 and 1920 px with no sideways page scroll and no server error', () => {
    expect(found.fits).toEqual([]);
  });

  it('sizes the headings of every page and dialog by rank: none is larger than a heading of a higher rank', () => {
    expect(found.headings).toEqual([]);
  });

  it('keeps the tabs of every page apart: no two tabs touch', () => {
    expect(found.tabs).toEqual([]);
  });

  it('keeps the stats chart labels readable on a phone and on a desktop screen', async () => {
    const page = await openPage({ width: 375, height: 800 });
    await page.goto(`${server.url}/project/${look.projectId}/stats`);
    for (const width of [375, 1280]) {
      await resize(page, width);
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
    }
    await page.context().close();
  }, SLOW);

  it('fits the global runners screen (served with remote runners only) at 375 and 1280 px', async () => {
    const runners = await startRunnersServer();
    try {
      const context = await browser.newContext({ locale: 'en-US', viewport: { width: 375, height: 900 } });
      const page = await context.newPage();
      await signIn(page, runners.url, '/runners');
      expect(await page.locator('main').textContent()).toContain('Shared runner in the main datacenter');
      for (const width of [375, 1280]) {
        await resize(page, width);
        expect(await pageOverflow(page), `runners at ${width} px`).toBeLessThanOrEqual(0);
      }
      await context.close();
    } finally {
      await runners.close();
    }
  }, SLOW);

  it('keeps task, status and start in view on a phone; the table scrolls in its own box', async () => {
    const page = await openPage({ width: 375, height: 800 });
    await page.goto(`${server.url}/project/${look.projectId}/history`);
    const visible = await page.$$eval('.data-table thead th', (cells) => cells
      .filter((c) => getComputedStyle(c).display !== 'none' && c.getBoundingClientRect().right <= innerWidth)
      .map((c) => c.textContent));
    expect(visible.slice(0, 3)).toEqual(['Task', 'Status', 'Start']);
    await page.context().close();
  }, SLOW);
});
