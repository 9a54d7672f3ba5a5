import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { ADMIN } from './console-server.ts';
import { CHROMIUM } from './shared-browser.ts';

export const SCREENSHOTS = new URL('../../screenshots/', import.meta.url);

/**
 * A connection to the run's Chromium (global-setup.ts), or a Chromium of the file's own when the
 * run started none (or outside vitest). `close()` ends only this file's contexts and connection.
 */
export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // outside a test run (bench/) there is nothing to inject
  const endpoint = process.env.VITEST ? inject('browserEndpoint') : '';
  return endpoint ? chromium.connect(endpoint) : chromium.launch(CHROMIUM);
}

/**
 * Whether this run takes pictures: `npm run screenshots` (or SIGNALBOX_SCREENSHOTS=1) does; a
 * plain `npm test` does not. A picture asserts nothing, and a full-page capture cost Chromium
 * about ten times a page load (tests/README.md, "Pictures on request").
 */
export const TAKING_SCREENSHOTS = process.env.SIGNALBOX_SCREENSHOTS === '1' || process.env.SIGNALBOX_DOCS_SCREENSHOTS === '1';

/**
 * Writes a picture of a page (the whole page unless told) or of one element to
 * tests/screenshots/<name>.png, when this run takes pictures. On a loaded machine Chromium now
 * and then refuses a capture ("Unable to capture screenshot": its compositor, not the page), so a
 * refused one is tried again once, a moment later. Transitions are run to their end, so a picture
 * shows where a page settles, not a colour halfway, unless `animations` is 'allow'.
 */
export async function screenshot(target: Page | Locator, name: string, { fullPage = true, animations = 'disabled' as 'disabled' | 'allow' } = {}): Promise<void> {
  if (!TAKING_SCREENSHOTS) return;
  const path = new URL(`${name}.png`, SCREENSHOTS).pathname;
  const take = () => ('goto' in target ? target.screenshot({ path, fullPage, animations }) : target.screenshot({ path, animations }));
  try {
    await take();
  } catch (err) {
    if (!String(err).includes('Unable to capture screenshot')) throw err;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await take();
  }
}

/**
 * Clicks what loads a page (a link, a form's button; at another address or the same one, as a
 * form posted back with its messages is) and waits for that page's load event: a page read
 * right after the click may still be the old one, or the new one streaming in.
 * @example await follow(page, 'nav.tabs >> text=Stats');
 */
export async function follow(page: Page, target: string | Locator): Promise<void> {
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), typeof target === 'string' ? page.click(target) : target.click()]);
}

/** Signs in through the sign-in form as the env admin and waits for the redirect. */
export async function signIn(page: Page, baseUrl: string, next = '/'): Promise<void> {
  await page.goto(`${baseUrl}/auth/login?next=${encodeURIComponent(next)}`);
  await page.fill('input[name=auth]', ADMIN.login);
  await page.fill('input[name=password]', ADMIN.password);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/auth/')), page.click('button[type=submit]')]);
}

/** A fresh context (own cookies) with English as the browser language. */
export function newContext(browser: Browser, options: { javaScriptEnabled?: boolean; viewport?: { width: number; height: number } } = {}): Promise<BrowserContext> {
  return browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 }, ...options });
}

/**
 * A page in a fresh context (English, `width` × 900), signed in as the env admin, with or
 * without JavaScript; close it with `page.context().close()`.
 * @example const page = await signedInPage(browser, server.url, 375, false);
 */
export async function signedInPage(browser: Browser, baseUrl: string, width: number, javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width, height: 900 }, javaScriptEnabled });
  const page = await context.newPage();
  await signIn(page, baseUrl, '/');
  return page;
}
