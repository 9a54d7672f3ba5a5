import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { createClient } from './support/http-client.ts';
import { launchBrowser, newContext, signIn } from './support/browser.ts';

let server: ConsoleServer;
let browser: Browser;
let projectId: number;

beforeAll(async () => {
  server = await startConsoleServer();
  const client = createClient(server.url);
  await client.signIn();
  projectId = Number((await client.post('/project/new', { name: 'Demo One' })).location!.split('/')[2]);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('in Chromium', () => {
  it('shows a short project name in the drawer whole, and the confirm dialog buttons side by side, one height', async () => {
    const page = await (await newContext(browser)).newPage();
    await signIn(page, server.url, `/project/${projectId}/settings?confirm=delete`);
    const name = page.locator('.drawer .project-selector .project-name strong');
    expect(await name.textContent()).toBe('Demo One');
    // whole and on one line: not cut short, not wrapped
    expect(await name.evaluate((e) => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight)).toBe(true);
    expect(await name.evaluate((e) => e.getClientRects().length === 1 && e.getBoundingClientRect().height < 40)).toBe(true);
    const boxes = await page.locator('dialog.confirm footer a[role=button], dialog.confirm footer button').evaluateAll((els) =>
      els.map((e) => { const r = e.getBoundingClientRect(); return { top: Math.round(r.top), height: Math.round(r.height) }; }));
    expect(boxes).toHaveLength(2);
    expect(boxes[0]).toEqual(boxes[1]);
  });
});
