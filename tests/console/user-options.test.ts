import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { insertProject } from '../support/fixtures.ts';

let server: ConsoleServer;
let browser: Browser;
let projectId: number;

beforeAll(async () => {
  server = await startConsoleServer();
  await insertProject(server.deps.db, 'Alpha');
  projectId = (await insertProject(server.deps.db, 'Beta')).id;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A new browser profile (no cookies of its own) signed in as the admin, landing on `next`. */
async function freshBrowserAt(next: string, width = 1280): Promise<Page> {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 800 });
  await signIn(page, server.url, next);
  return page;
}

async function storedOptions(): Promise<Record<string, string>> {
  const rows = await server.deps.db.selectFrom('option').select(['key', 'value']).where('key', 'like', 'user1.%').execute();
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

const drawerEntry = (page: Page, name: string) => page.locator('.drawer nav > ul > li.nav-entry > a', { hasText: name });
const moreEntry = (page: Page, name: string) => page.locator('.drawer details.nav-more li.nav-entry > a', { hasText: name });

describe('user options in the console', { timeout: 120_000 }, () => {
  it('keeps the theme, the language, the last view and the unpinned drawer entries for the next browser', async () => {
    const first = await freshBrowserAt(`/project/${projectId}/history`);
    await first.locator('.theme-menu summary').click();
    await Promise.all([first.waitForURL(`**/project/${projectId}/history`), first.locator('.theme-menu a[href*="theme=dark"]').click()]);
    await first.locator('.language-menu summary').click();
    await Promise.all([first.waitForURL(`**/project/${projectId}/history`), first.locator('.language-menu a[href*="lang=de"]').click()]);
    // unpin "Zeitplan" (Schedule): it moves under "Mehr"
    await drawerEntry(first, 'Zeitplan').hover();
    await Promise.all([first.waitForURL(`**/project/${projectId}/history`), first.getByRole('button', { name: 'Nach „Mehr“ verschieben: Zeitplan' }).click()]);
    expect(await drawerEntry(first, 'Zeitplan').count()).toBe(0);
    expect(await moreEntry(first, 'Zeitplan').count()).toBe(1);
    await first.goto(`${server.url}/project/${projectId}/stats`);
    await screenshot(first, 'user-options-1280');
    expect(await storedOptions()).toEqual({
      'user1.ui.theme': 'dark', 'user1.ui.language': 'de', 'user1.nav.unpinnedItems': '["schedule"]',
      'user1.nav.lastProject': String(projectId), [`user1.nav.lastView.${projectId}`]: 'stats',
    });
    await first.context().close();

    // another browser: `/` returns to Beta's stats, dark and in German, Schedule still under More
    const second = await freshBrowserAt('/');
    expect(new URL(second.url()).pathname).toBe(`/project/${projectId}/stats`);
    expect(await second.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await second.locator('html').getAttribute('lang')).toBe('de');
    expect(await moreEntry(second, 'Zeitplan').count()).toBe(1);
    await second.context().close();
  });

  it('pins an entry back from the More group on a phone-sized screen', async () => {
    const page = await freshBrowserAt(`/project/${projectId}/history`, 375);
    await page.locator('label.drawer-button').click();
    await page.locator('.drawer details.nav-more summary').click();
    await Promise.all([page.waitForURL(`**/project/${projectId}/history`), page.getByRole('button', { name: 'Im Menü anheften: Zeitplan' }).click()]);
    await page.locator('label.drawer-button').click();
    expect(await drawerEntry(page, 'Zeitplan').isVisible()).toBe(true);
    expect(await page.locator('.drawer details.nav-more').count()).toBe(0);
    await screenshot(page, 'user-options-375');
    expect((await storedOptions())['user1.nav.unpinnedItems']).toBe('[]');
    // choosing "system" again clears the stored choice for every browser
    await page.goto(`${server.url}/prefs?theme=system&back=/`);
    expect((await storedOptions())['user1.ui.theme']).toBe('system');
    expect(await page.locator('html').getAttribute('data-theme')).toBeNull();
    await page.context().close();
  });
});
