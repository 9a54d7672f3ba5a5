import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, screenshot, signedInPage } from './support/browser.ts';
import { insertScriptProject } from './support/real-tasks.ts';
import { insertKey } from '../support/project-rows.ts';

let server: ConsoleServer;
let browser: Browser;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
const keys = { fleet: 0, jump: 0 };

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh', 'Deploy');
  const { db } = server.deps;
  for (const name of ['fleet', 'jump'] as const) {
    keys[name] = (await insertKey(db, fx.project.id, `${name} key`, 'ssh')).id;
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const stored = async () => (await server.deps.db.selectFrom('template_ssh_key').select('ssh_key_id').where('template_id', '=', fx.template.id).orderBy('position').execute())
  .map((r) => r.ssh_key_id);

describe('extra SSH keys in the template dialog', { timeout: 120_000 }, () => {
  for (const width of [1280, 375]) {
    it(`chooses, keeps and clears a template's extra SSH keys (${width} px)`, async () => {
      const page = await signedInPage(browser, server.url, width);
      const edit = `${server.url}/project/${fx.project.id}/templates/${fx.template.id}/edit`;
      await page.goto(edit);
      const box = page.locator('fieldset[data-field=ssh_key_ids]');
      expect(await box.locator('legend').textContent()).toBe('Extra SSH keys');
      await box.getByLabel('fleet key').check();
      await box.getByLabel('jump key').check();
      await box.scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await screenshot(page, `template-ssh-keys-${width}`, { fullPage: false });
      await Promise.all([page.waitForURL(/flash=template_saved/), page.click('dialog footer button[type=submit]')]);
      expect(await stored()).toEqual([keys.fleet, keys.jump]);

      await page.goto(edit);
      expect(await box.getByLabel('fleet key').isChecked()).toBe(true);
      await box.getByLabel('fleet key').uncheck();
      await box.getByLabel('jump key').uncheck();
      await Promise.all([page.waitForURL(/flash=template_saved/), page.click('dialog footer button[type=submit]')]);
      expect(await stored()).toEqual([]);
      await page.context().close();
    });
  }
});
