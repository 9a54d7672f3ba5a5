import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';

// The key store lists a key read from the server's environment or a file with where it comes
// from (issue 51), at phone and desktop width in both themes; a long path wraps inside the row.
let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let pid: number;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'signalbox-console-sources-'));
  server = await startConsoleServer({ SEMAPHORE_SECRET_SOURCES_ENV: 'DEPLOY_*', SEMAPHORE_SECRET_SOURCES_DIRS: dir });
  browser = await launchBrowser();
  context = await newContext(browser);
  page = await context.newPage();
  await signIn(page, server.url, '/');
  const headers = { Origin: server.url };
  pid = (await (await page.request.post(`${server.url}/api/projects`, { data: { name: 'Sourced' }, headers })).json()).id;
  for (const data of [
    { name: 'Deploy token', type: 'login_password', login_password: { login: 'deployer' }, source_storage_type: 'env', source_storage_key: 'DEPLOY_TOKEN' },
    { name: 'Agent key', type: 'ssh', ssh: { login: 'root' }, source_storage_type: 'file', source_storage_key: join(dir, 'a-rather-long-directory-name-for-agents', 'id_ed25519_deploy_key') },
  ]) {
    const res = await page.request.post(`${server.url}/api/project/${pid}/keys`, { data: { project_id: pid, ...data }, headers });
    expect(res.status(), await res.text()).toBe(201);
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('keys from the server environment or a file in the key store', { timeout: 120_000 }, () => {
  it('shows where each value comes from, without overflow, at 375 and 1280 px in both themes', async () => {
    for (const theme of ['light', 'dark']) {
      await context.addCookies([{ name: 'theme', value: theme, url: server.url }]);
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.url}/project/${pid}/keys`);
        expect(await page.getAttribute('html', 'data-theme')).toBe(theme);
        const rows = await page.locator('tr[data-key]').allTextContents();
        expect(rows.find((r) => r.includes('Deploy token'))).toContain('from server variable DEPLOY_TOKEN');
        expect(rows.find((r) => r.includes('Agent key'))).toContain(`from server file ${join(dir, 'a-rather-long-directory-name-for-agents', 'id_ed25519_deploy_key')}`);
        expect(rows.find((r) => r.includes('Deploy token'))).not.toContain('empty');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${theme} ${width}`).toBeLessThanOrEqual(0);
        await screenshot(page, `key-sources-${width}-${theme}`);
      }
    }
  });
});
