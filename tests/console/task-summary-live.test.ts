import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { ADMIN, startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { adminApi, waitForTask } from './support/real-tasks.ts';
import { createGitRepo } from '../support/git-repo.ts';
import { insertProjectWithTemplate } from '../support/fixtures.ts';

// "Ping Site" that waits for the test: it pings, then holds until the test writes the go file,
// so the Summary can be read while the task is surely running and again once it succeeded.
const playbook = (goFile: string) => `- hosts: all
  gather_facts: false
  tasks:
    - name: ping the site
      ping:
    - name: wait for the go file
      wait_for:
        path: ${JSON.stringify(goFile)}
        timeout: 120
`;

let server: ConsoleServer;
let browser: Browser;
let projectId = 0;
let templateId = 0;
let goFile = '';

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  const { db } = server.deps;
  const admin = await db.selectFrom('user').select('id').where('username', '=', ADMIN.login).executeTakeFirstOrThrow();
  goFile = join(server.tmp, 'go');
  const repo = createGitRepo(join(server.tmp, 'ping-repo'), { 'ping.yml': playbook(goFile) }, 'Add playbook');
  const fx = await insertProjectWithTemplate(db, {
    ownerId: admin.id, gitUrl: `file://${repo.path}`, app: 'ansible', playbook: 'ping.yml', inventory: 'localhost ansible_connection=local', templateName: 'Ping Site',
  });
  projectId = fx.project.id;
  templateId = fx.template.id;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the Summary tab follows a running task, in Chromium', () => {
  for (const width of [1280, 375]) {
    it(`shows the stages as they start and the host recap once it ends, without a reload, at ${width} px`, { timeout: 180_000 }, async () => {
      rmSync(goFile, { force: true });
      const api = await adminApi(server);
      const taskId = await api.runTask(projectId, { template_id: templateId });
      const { db } = server.deps;
      await waitForTask(db, taskId, (t) => t.status === 'running', 60_000);

      const context = await newContext(browser);
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 800 });
      const sockets: string[] = [];
      page.on('websocket', (socket) => sockets.push(socket.url()));
      await signIn(page, server.url, `/project/${projectId}/history?t=${taskId}`);
      await page.waitForSelector('dialog .log-row');
      // Any reload would lose this mark.
      await page.evaluate(() => { (window as unknown as { unreloaded: boolean }).unreloaded = true; });
      await Promise.all([page.waitForURL(/tab=summary/), page.click('dialog nav a:has-text("Summary")')]);
      const summary = page.locator('dialog .task-summary');
      // Opened while the playbook waits: preparation done, the run under way, no recap yet.
      await expect.poll(() => summary.locator('[data-stage]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-stage'))), { timeout: 30_000 })
        .toEqual(['init', 'running']);
      expect(await summary.innerText()).toContain('No host recap');
      expect(await page.locator('dialog .task-log-facts').innerText()).toContain('Running');
      await screenshot(page, `task-summary-live-running-${width}`);

      writeFileSync(goFile, 'go\n');
      expect((await waitForTask(db, taskId, undefined, 60_000)).status).toBe('success');
      await summary.locator('[data-host=localhost]').waitFor({ timeout: 30_000 });
      const cells = await summary.locator('[data-host=localhost] td').allInnerTexts();
      // columns: host, ok, changed, unreachable, failed, skipped, rescued, ignored
      expect(cells).toEqual(['localhost', '2', '0', '0', '0', '0', '0', '0']);
      await expect.poll(() => summary.locator('[data-stage]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-stage'))), { timeout: 10_000 })
        .toEqual(['init', 'running', 'print_result']);
      // every stage has ended, so none shows an open duration
      expect(await summary.locator('[data-stage] td:last-child').allInnerTexts()).not.toContain('—');
      // the header and the list behind the dialog follow the same task
      await expect.poll(() => page.locator('dialog .task-log-facts').innerText(), { timeout: 10_000 }).toContain('Success');
      await expect.poll(() => page.locator(`#live-region tr[data-task="${taskId}"]`).innerText(), { timeout: 10_000 }).toContain('Success');
      expect(await page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await screenshot(page, `task-summary-live-done-${width}`);
      // the dialog and the list share the page's one socket
      expect(sockets.filter((url) => url.endsWith('/api/ws'))).toHaveLength(1);
      await context.close();
    });
  }
});
