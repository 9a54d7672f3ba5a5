import { afterAll, beforeAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './console-server.ts';
import { launchBrowser, signedInPage } from './browser.ts';
import { adminApi, insertScriptProject } from './real-tasks.ts';

// What first-hour-details*.test.ts share: a console server with a script project, a browser.
// The smaller things a new user trips on in the first hour (issue 29, item 10), at 1280 and
// 375 px, are two files so that their halves run side by side.

export let server: ConsoleServer;
export let browser: Browser;
export let api: Awaited<ReturnType<typeof adminApi>>;
export let fx: Awaited<ReturnType<typeof insertScriptProject>>;
export let base: string;

/** Registers the file's setup and teardown. */
export function setUpFirstHourDetails(): void {
  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launchBrowser();
    api = await adminApi(server);
    fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh', 'Nightly backup');
    base = `${server.url}/project/${fx.project.id}`;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
}

export const SLOW = 180_000;
export const WIDTHS = [1280, 375] as const;

export const openPage = (width: number, javaScriptEnabled = true) => signedInPage(browser, server.url, width, javaScriptEnabled);

type Check = (page: Page, width: number) => Promise<void>;

/** Runs `check` on a fresh signed-in page at `width`, closing it after. */
async function atWidth(width: number, check: Check, javaScriptEnabled: boolean): Promise<void> {
  const page = await openPage(width, javaScriptEnabled);
  try {
    await check(page, width);
  } finally {
    await page.context().close();
  }
}

/** Runs `check` on a fresh signed-in page at each width, closing it after. */
export async function atEachWidth(check: Check, javaScriptEnabled = true): Promise<void> {
  for (const width of WIDTHS) await atWidth(width, check, javaScriptEnabled);
}

/** `atEachWidth` with the widths' pages side by side: for a check that mostly waits on the page's own timers. */
export async function atEachWidthAtOnce(check: Check, javaScriptEnabled = true): Promise<void> {
  await Promise.all(WIDTHS.map((width) => atWidth(width, check, javaScriptEnabled)));
}
