import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, screenshot, signedInPage } from './support/browser.ts';
import { adminApi } from './support/real-tasks.ts';
import { seriousViolations } from './support/axe.ts';

let server: ConsoleServer;
let browser: Browser;
let projectId: number;

beforeAll(async () => {
  server = await startConsoleServer();
  const api = await adminApi(server);
  projectId = (await api.send<{ id: number }>('POST', '/api/projects', { name: 'Audited' })).id;
  for (let i = 0; i < 60; i++) await api.send('POST', `/api/project/${projectId}/keys`, { name: `key-${i}`, type: 'none' });
  await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: 'admin', password: 'wrong-password' }) });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** axe needs scripts: the same URL in a page with JavaScript on (the audit screens ship none anyway). */
async function seriousViolationsScripted(p: Page): Promise<string[]> {
  const width = p.viewportSize()!.width;
  const scripted = await signedInPage(browser, server.url, width, true);
  await scripted.goto(p.url());
  const found = await seriousViolations(scripted);
  await scripted.context().close();
  return found;
}

describe('audit screens without JavaScript', { timeout: 120_000 }, () => {
  for (const width of [375, 1280]) {
    it(`filters, pages with the cursor and links exports at ${width} px, axe clean`, async () => {
      const page = await signedInPage(browser, server.url, width, false);
      page.setDefaultTimeout(15_000);
      await page.goto(`${server.url}/audit`);
      expect(await page.locator('table.data-table tbody tr').count()).toBe(50);
      expect(await page.locator('text=Audit trail').count()).toBeGreaterThan(0);
      expect(await seriousViolationsScripted(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await screenshot(page, `audit-${width}`);
      // the filter form is a GET form: choose an action and submit without scripts
      await page.selectOption('select[name=action]', 'login_fail');
      await follow(page, 'button[type=submit]:has-text("Apply")');
      expect(new URL(page.url()).searchParams.get('action')).toBe('login_fail');
      expect(await page.locator('table.data-table tbody tr').count()).toBe(1);
      expect(await page.locator('table.data-table tbody tr').first().textContent()).toContain('login_fail');
      const csv = await page.locator('a:has-text("CSV")').getAttribute('href');
      expect(csv).toBe('/api/audit/export?action=login_fail&format=csv');
      // words and the cursor: 60 keys are more than a page
      await page.goto(`${server.url}/audit?q=key-&object_type=key`);
      expect(await page.locator('table.data-table tbody tr').count()).toBe(50);
      await follow(page, 'a[rel=next]');
      expect(await page.locator('table.data-table tbody tr').count()).toBe(10);
      expect(await page.locator('a:has-text("Newest")').count()).toBe(1);
      await page.context().close();
    });
  }

  it('the project page shows only that project, with a link to each live object', async () => {
    const page = await signedInPage(browser, server.url, 1280, false);
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/project/${projectId}/audit?q=key-59`);
    const row = page.locator('table.data-table tbody tr').first();
    expect(await row.textContent()).toContain('key-59');
    expect(await row.locator('a').getAttribute('href')).toBe(`/project/${projectId}/keys`);
    expect(await page.locator('nav.tabs a[aria-current=page]').textContent()).toBe('Audit');
    expect(await seriousViolationsScripted(page)).toEqual([]);
    const href = (await page.locator('a:has-text("JSON lines")').getAttribute('href'))!;
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const exported = await (await fetch(`${server.url}${href}`, { headers: { cookie } })).text();
    expect(exported.trim().split('\n').map((l) => JSON.parse(l).object_name)).toEqual(['key-59']);
    await page.context().close();
  });

  it('says what is wrong with a bad filter', async () => {
    const page = await signedInPage(browser, server.url, 1280, false);
    await page.goto(`${server.url}/audit?project_id=abc`);
    expect(await page.locator('[role=alert]').textContent()).toContain('project_id');
    await page.context().close();
  });
});
