// The continuous lists (history, audit, templates: src/islands/ScrollList.tsx) in Chromium.
import { expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { follow, newContext, screenshot, signIn } from './browser.ts';
import { seriousViolations } from './axe.ts';
import { createClient } from './http-client.ts';
import { measurePageJs } from './js-weight.ts';

/** The island has hydrated (no server-rendered island waits any more). */
export const hydrated = (page: Page) => page.waitForFunction(() => document.querySelector('astro-island') && !document.querySelector('astro-island[ssr]'));

/**
 * Opens the paged list at `url` (1280×800), checks it carries no island, follows its "Scroll
 * through all" link and waits for the island; `errors` collects the page's uncaught errors.
 */
export async function openContinuous(context: BrowserContext, url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  expect(await page.$('astro-island')).toBeNull();
  await follow(page, 'a:has-text("Scroll through all")');
  await hydrated(page);
  // the island hides the server's pager in an effect, which may run a moment after hydration
  await page.waitForSelector('#scroll-list-pager', { state: 'hidden' });
  return { page, errors };
}

/** A browser context and an HTTP client, both signed in as the admin. */
export async function signedInBoth(browser: Browser, baseUrl: string): Promise<{ context: BrowserContext; client: ReturnType<typeof createClient> }> {
  const context = await newContext(browser);
  const page = await context.newPage();
  await signIn(page, baseUrl, '/');
  await page.close();
  const client = createClient(baseUrl);
  await client.signIn();
  return { context, client };
}

/** The gzip JavaScript of the paged list and its continuous mode: only the mode loads the island. */
export async function islandWeight(client: ReturnType<typeof createClient>, paged: string, mode: string, name: string): Promise<number> {
  const cookie = [...client.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const [without, withIsland] = [await measurePageJs(paged, cookie), await measurePageJs(mode, cookie)];
  expect(without.modules.some((m) => m.includes('ScrollList'))).toBe(false);
  expect(withIsland.modules.some((m) => m.includes('ScrollList'))).toBe(true);
  console.info(`${name} JS gzip: paged ${(without.bytes / 1024).toFixed(1)} KB, continuous list ${(withIsland.bytes / 1024).toFixed(1)} KB`);
  return withIsland.bytes;
}

/**
 * Opens the continuous list at `url` in each theme at 375 and 1280 px, hydrated, lets `prepare`
 * scroll it, then checks the page never scrolls sideways, takes the screenshot `<name>-<width>-<theme>`
 * and asks axe.
 */
export async function inEachLook(context: BrowserContext, baseUrl: string, url: string, name: string, prepare: (page: Page) => Promise<void>): Promise<void> {
  const page = await context.newPage();
  for (const theme of ['light', 'dark']) {
    await context.addCookies([{ name: 'theme', value: theme, url: baseUrl }]);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(url);
      await hydrated(page);
      expect(await page.getAttribute('html', 'data-theme')).toBe(theme);
      await prepare(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${theme} ${width}`).toBeLessThanOrEqual(0);
      await screenshot(page, `${name}-${width}-${theme}`, { fullPage: false });
      expect(await seriousViolations(page), `${theme} ${width}`).toEqual([]);
    }
  }
  await page.close();
}
