// What look-*.test.ts and accessibility-*.test.ts share: a console server with the look project
// (look-fixture.ts), a browser, signed-in pages at a size, theme and language, and walks over the
// fixture's pages. The checks are files by concern so that they run side by side.
import { afterAll, beforeAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './console-server.ts';
import { launchBrowser, signIn } from './browser.ts';
import { insertLookProject } from './look-fixture.ts';
import { LANGUAGES } from '../../../src/console/languages.ts';

export let server: ConsoleServer;
export let browser: Browser;
export let look: Awaited<ReturnType<typeof insertLookProject>>;

/** Console routes by name, as the fixture gives them. */
export type Routes = [string, string][];

// Browser journeys over many pages: generous limits for a loaded machine (none of them is a speed target).
export const SLOW = 900_000;

/** Registers the file's set-up (a console server with the look project, a browser) and teardown. */
export function setUpLook(): void {
  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launchBrowser();
    look = await insertLookProject(server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
}

export interface PageOptions {
  width?: number;
  height?: number;
  theme?: 'light' | 'dark';
  lang?: string;
  signedIn?: boolean;
}

/** A page in a context of its own at a viewport size, theme and language, signed in unless told; close it with `page.context().close()`. */
export async function openPage({ width = 1280, height = 800, theme = 'light', lang = 'en', signedIn = true }: PageOptions = {}): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width, height } });
  await context.addCookies([{ name: 'theme', value: theme, url: server.url }, { name: 'lang', value: lang, url: server.url }]);
  const page = await context.newPage();
  if (signedIn) await signIn(page, server.url, '/');
  return page;
}

/**
 * Gives the loaded page another width, and returns once the page has handled it: one animation
 * frame, whose rendering step has run the resize listeners (the board's grid) before it and runs
 * the resize observers (the task log) right after, before anything else reads the page. (Reading
 * a size lays the page out at once; waiting for a second frame, to see it painted, cost more
 * than loading the page again.)
 */
export async function resize(page: Page, width: number): Promise<void> {
  const size = page.viewportSize()!;
  if (size.width === width) return;
  await page.setViewportSize({ width, height: size.height });
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => done())));
}

export const pageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
export const box = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!;

/** A look at a page at one width: what `find` reports (given the status the page was served with), on `routes` only if given. */
export interface Look {
  width: number;
  find: (page: Page, status: number) => Promise<string[]>;
  routes?: Routes;
}

/**
 * Each route loaded once (signed in, in `lang`, `height` px tall), then each look that wants it
 * in turn, the page resized to the look's width rather than loaded again: each look's findings,
 * as "page: finding" lines. A page is loaded at the width the one before was left at, and looked
 * at that width first: one resize fewer a page.
 */
export async function lookAtEveryPage(looks: Look[], routes: Routes, { lang = 'en', height = 900 } = {}): Promise<string[][]> {
  const page = await openPage({ width: looks[0]!.width, height, lang });
  const found = looks.map((): string[] => []);
  for (const [name, path] of routes) {
    const wanted = looks.filter((l) => !l.routes || l.routes.some(([other]) => other === name));
    if (wanted.length === 0) continue;
    const res = await page.goto(server.url + path);
    const width = page.viewportSize()!.width;
    for (const l of [...wanted.filter((w) => w.width === width), ...wanted.filter((w) => w.width !== width)]) {
      await resize(page, l.width);
      found[looks.indexOf(l)]!.push(...(await l.find(page, res!.status())).map((finding) => `${name}: ${finding}`));
    }
  }
  await page.context().close();
  return found;
}

/** What `find` reports on each page (signed in, 1280 px wide unless told), as "page: finding" lines. */
export async function findOnEveryPage(find: (page: Page) => Promise<string[]>, routes = look.routes, { lang = 'en', width = 1280 } = {}): Promise<string[]> {
  return (await lookAtEveryPage([{ width, find }], routes, { lang }))[0]!;
}

/** The languages by code, English first. */
export const LANGUAGE_CODES = LANGUAGES.map(({ code }) => code);

/** `lookAtEveryPage` in each of `langs`: each look's findings as "lang page: finding" lines. */
export async function findInLanguages(langs: string[], looks: Look[], routes: Routes): Promise<string[][]> {
  const found = looks.map((): string[] => []);
  for (const lang of langs) {
    const inLang = await lookAtEveryPage(looks, routes, { lang });
    inLang.forEach((lines, i) => found[i]!.push(...lines.map((finding) => `${lang} ${finding}`)));
  }
  return found;
}

/** Each screen once: a dialog's route shows the page under it, already visited. */
export function screensOf(routes: Routes): Routes {
  const pathOf = (route: readonly [string, string]) => route[1].split('?')[0];
  return routes.filter((route, i) => routes.findIndex((other) => pathOf(other) === pathOf(route)) === i);
}
