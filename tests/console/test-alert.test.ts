import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, screenshot, signedInPage } from './support/browser.ts';
import { insertProject } from '../support/fixtures.ts';
import { startHttpReceiver } from '../support/http-receiver.ts';

let server: ConsoleServer;
let browser: Browser;
let chat: Awaited<ReturnType<typeof startHttpReceiver>>;
let projectId: number;

beforeAll(async () => {
  // a webhook that takes alerts and a Slack that refuses them
  chat = await startHttpReceiver((path) => (path === '/slack' ? 500 : 200));
  server = await startConsoleServer({
    SEMAPHORE_WEBHOOK_ALERT: 'true', SEMAPHORE_WEBHOOK_URL: `${chat.url}/hook`,
    SEMAPHORE_SLACK_ALERT: 'true', SEMAPHORE_SLACK_URL: `${chat.url}/slack`,
  });
  projectId = (await insertProject(server.deps.db, 'Payments')).id;
  await server.deps.db.updateTable('project').set({ alert: 1 }).where('id', '=', projectId).execute();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await chat?.close();
});

describe('test alert from the project settings', { timeout: 120_000 }, () => {
  for (const width of [1280, 375]) {
    it(`sends one through every channel and says which took it (${width} px)`, async () => {
      const page = await signedInPage(browser, server.url, width);
      await page.goto(`${server.url}/project/${projectId}/settings`);
      const before = chat.received.filter((r) => r.path === '/hook').length;
      const button = page.getByRole('button', { name: 'Send test alert' });
      expect(await button.isVisible()).toBe(true);
      // the button stays inside the screen on a phone
      const box = (await button.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      await Promise.all([page.waitForURL(/flash=test_alert_sent/), button.click()]);
      expect(await page.locator('.snackbar').textContent()).toContain('Test alert sent: webhook (✗ slack: HTTP 500)');
      await screenshot(page, `test-alert-${width}`);
      const hooks = chat.received.filter((r) => r.path === '/hook');
      expect(hooks.length).toBe(before + 1);
      expect(hooks.at(-1)!.body.project).toEqual({ id: projectId, name: 'Payments' });
      await page.context().close();
    });
  }
});
