import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';

let server: ConsoleServer;
let browser: Browser;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('console journeys with JavaScript', () => {
  it('signs in, lands on /project/new without projects, creates a project and sees its dashboard', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.url}/project/1/history`);
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await screenshot(page, 'login');
    await signIn(page, server.url, '/');
    expect(new URL(page.url()).pathname).toBe('/project/new');
    await screenshot(page, 'project-new');

    await page.fill('input[name=name]', 'Web servers');
    await Promise.all([page.waitForURL(/\/project\/\d+\/history/), page.click('main form button[type=submit]:not([name])')]);
    expect(await page.textContent('.snackbar')).toContain('Project Web servers created');
    expect(await page.textContent('.project-selector summary')).toContain('Web servers');
    expect(await page.textContent('.project-selector .badge')).toBe('WS');
    await screenshot(page, 'history');

    await page.click('nav.tabs >> text=Stats');
    await page.waitForURL(/\/stats$/);
    expect(await page.locator('figure.chart svg polyline').count()).toBe(3);
    await screenshot(page, 'stats');

    await page.click('nav.tabs >> text=Activity');
    await page.waitForURL(/\/activity$/);
    await screenshot(page, 'activity');

    await page.click('nav.tabs >> text=Settings');
    await page.waitForURL(/\/settings$/);
    await page.fill('input[name=max_parallel_tasks]', '-2');
    await page.click('main form button:has-text("Save")');
    expect(await page.textContent('[data-field=max_parallel_tasks] .field-error')).toContain('Max parallel tasks must be a whole number');
    await screenshot(page, 'settings');
    await context.close();
  });

  it('switches to German and dark mode and keeps both across reloads and in localStorage', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    // the history (its live script mirrors the choices into localStorage); '/' opens the last
    // view the user had, which since per-user options follows them into this new browser
    await signIn(page, server.url, '/project/1/history');
    await page.click('.language-menu summary');
    await page.click('.language-menu a[lang=de]');
    await page.click('.theme-menu summary');
    await Promise.all([page.waitForEvent('framenavigated'), page.click('.theme-menu a[href*="theme=dark"]')]);
    await page.waitForLoadState('load');
    await page.reload();
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    expect(await page.textContent('nav.tabs')).toContain('Verlauf');
    await page.waitForFunction(() => localStorage.getItem('lang') === 'de' && localStorage.getItem('theme') === 'dark');
    await screenshot(page, 'history-de-dark');
    await context.close();
  });

  it('shows the new-project dialog over a page with ?new_project and a wall screen with ?kiosk=1', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, server.url, '/project/1/history?new_project');
    expect(await page.isVisible('dialog[open] input[name=name]')).toBe(true);
    await page.goto(`${server.url}/project/1/history?kiosk=1`);
    expect(await page.locator('.drawer').count()).toBe(0);
    expect(await page.getAttribute('body', 'class')).toContain('kiosk');
    await screenshot(page, 'history-kiosk');
    await context.close();
  });

  it('collapses the drawer under 960 px and opens it from the menu button (CSS only)', async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 700 }, locale: 'en-US' });
    const page = await context.newPage();
    await signIn(page, server.url, '/project/1/activity');
    expect(await page.locator('.drawer').boundingBox().then((b) => b!.x + b!.width)).toBeLessThanOrEqual(0);
    await page.click('label.drawer-button');
    await page.waitForFunction(() => document.querySelector('.drawer')!.getBoundingClientRect().x >= 0);
    expect(await page.evaluate(() => document.querySelectorAll('script').length)).toBe(0);
    expect(await page.locator('.drawer').boundingBox().then((b) => Math.round(b!.width))).toBe(260);
    await screenshot(page, 'mobile-drawer');
    await page.mouse.click(700, 400);
    await page.waitForFunction(() => document.querySelector('.drawer')!.getBoundingClientRect().right <= 0);
    await context.close();
  });
});
