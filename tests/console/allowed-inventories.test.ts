import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, screenshot, signedInPage } from './support/browser.ts';
import { ADMIN } from './support/console-server.ts';
import { insertProjectWithTemplate, insertTemplate } from '../support/fixtures.ts';

// Allowed inventories per template (issue 50 item 6): an editor ticks them in the template
// dialog; the launch dialog offers only those; none ticked offers every inventory again.
let server: ConsoleServer;
let browser: Browser;
let pid = 0;
let templateId = 0;
const inv = { own: 0, staging: 0, production: 0 };

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  const { db } = server.deps;
  const admin = await db.selectFrom('user').select('id').where('username', '=', ADMIN.login).executeTakeFirstOrThrow();
  const fx = await insertProjectWithTemplate(db, { ownerId: admin.id });
  pid = fx.project.id;
  inv.own = fx.inventory.id;
  for (const name of ['staging', 'production'] as const) {
    inv[name] = (await db.insertInto('inventory').values({
      project_id: pid, name: name[0]!.toUpperCase() + name.slice(1), type: 'static', inventory: 'localhost', ssh_key_id: fx.key.id, become_key_id: null, repository_id: null, holder_id: null,
    }).returning('id').executeTakeFirstOrThrow()).id;
  }
  templateId = (await insertTemplate(db, pid, {
    name: 'Site', app: 'ansible', playbook: 'site.yml', repository_id: fx.repository.id, inventory_id: fx.inventory.id, environment_id: fx.environment.id,
    task_params: '{"allow_override_inventory":true}',
  })).id;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const stored = async () => (await server.deps.db.selectFrom('template_allowed_inventory').select('inventory_id').where('template_id', '=', templateId).orderBy('inventory_id').execute())
  .map((r) => r.inventory_id);
const hydrated = (page: Page) => page.waitForFunction(() => !document.querySelector('astro-island[ssr]'));
const offered = (page: Page) => page.locator('.launch-form select[name=inventory_id] option').evaluateAll((options) => options.map((o) => o.textContent));

describe('allowed inventories in the console', { timeout: 120_000 }, () => {
  it('lets an editor tick the inventories a task may choose, and the launch dialog offers only those', async () => {
    const page = await signedInPage(browser, server.url, 1280);
    const edit = `${server.url}/project/${pid}/templates/${templateId}/edit`;
    await page.goto(edit);
    const box = page.locator('fieldset[data-field=allowed_inventories]');
    expect(await box.locator('legend').textContent()).toBe('Inventories a task may choose');
    await box.getByLabel('Staging').check();
    await follow(page, 'dialog footer button[type=submit]');
    expect(page.url()).toContain('flash=template_saved');
    expect(await stored()).toEqual([inv.staging]);

    await page.goto(`${server.url}/project/${pid}/history?new_task=${templateId}`);
    await hydrated(page);
    // the empty choice is the template's own inventory
    expect((await offered(page)).slice(1)).toEqual(['Staging']);
    await page.selectOption('.launch-form select[name=inventory_id]', String(inv.staging));
    await follow(page, '.launch-form button[type=submit]');
    const taskId = Number(new URL(page.url()).searchParams.get('t'));
    expect(taskId).toBeGreaterThan(0);
    const task = await server.deps.db.selectFrom('task').select('inventory_id').where('id', '=', taskId).executeTakeFirstOrThrow();
    expect(task.inventory_id).toBe(inv.staging);

    await page.goto(edit);
    expect(await box.getByLabel('Staging').isChecked()).toBe(true);
    await box.getByLabel('Staging').uncheck();
    await follow(page, 'dialog footer button[type=submit]');
    expect(await stored()).toEqual([]);
    await page.goto(`${server.url}/project/${pid}/history?new_task=${templateId}`);
    await hydrated(page);
    expect((await offered(page)).slice(1).sort()).toEqual(['Local', 'Production', 'Staging']);
    await page.context().close();
  });

  it('renders the template dialog\'s list and the narrowed launch dialog at phone and desktop width in both themes', async () => {
    await server.deps.db.insertInto('template_allowed_inventory').values([{ template_id: templateId, inventory_id: inv.production }]).execute();
    for (const theme of ['light', 'dark']) {
      for (const width of [375, 1280]) {
        const page = await signedInPage(browser, server.url, width);
        await page.context().addCookies([{ name: 'theme', value: theme, url: server.url }]);
        await page.goto(`${server.url}/project/${pid}/templates/${templateId}/edit`);
        const box = page.locator('fieldset[data-field=allowed_inventories]');
        await box.scrollIntoViewIfNeeded();
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${theme} ${width}`).toBeLessThanOrEqual(0);
        await screenshot(page, `allowed-inventories-template-${width}-${theme}`, { fullPage: false });
        await page.goto(`${server.url}/project/${pid}/history?new_task=${templateId}`);
        await hydrated(page);
        expect((await offered(page)).slice(1)).toEqual(['Production']);
        await screenshot(page, `allowed-inventories-launch-${width}-${theme}`, { fullPage: false });
        await page.context().close();
      }
    }
  });
});
