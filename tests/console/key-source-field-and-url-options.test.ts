import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsoleServer, ADMIN, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { insertProjectWithTemplate, insertTemplate } from '../support/fixtures.ts';

// Issue 51: the key dialog offers a server environment variable or file as the value's source
// (item 3), and the launch dialog offers an enum's choices read from a URL, or says why it
// cannot (item 5); at 375 and 1280 px in both themes.
let server: ConsoleServer;
/** the service the survey's choices come from, and where it listens */
let options: Server;
let optionsUrl = '';
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** the project and its template with URL-sourced choices */
const ids = { pid: 0, template: 0 };

beforeAll(async () => {
  options = createServer((req, res) => {
    if (req.url === '/regions') return void res.writeHead(200, { 'content-type': 'application/json' }).end('["eu-west", {"name": "US East", "value": "us-east"}]');
    res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => options.listen(0, '127.0.0.1', resolve));
  optionsUrl = `http://127.0.0.1:${(options.address() as AddressInfo).port}`;
  server = await startConsoleServer({ SEMAPHORE_SECRET_SOURCES_ENV: 'DEPLOY_*' });
  const { db } = server.deps;
  const admin = await db.selectFrom('user').select('id').where('username', '=', ADMIN.login).executeTakeFirstOrThrow();
  const fx = await insertProjectWithTemplate(db, { ownerId: admin.id });
  ids.pid = fx.project.id;
  ids.template = (await insertTemplate(db, ids.pid, {
    name: 'Regional', app: 'bash', playbook: 'deploy.sh', repository_id: fx.repository.id, inventory_id: fx.inventory.id, environment_id: fx.environment.id,
    survey_vars: JSON.stringify([
      { name: 'region', title: 'Region', type: 'enum', required: true, values: [], values_url: `${optionsUrl}/regions` },
      { name: 'zone', title: 'Zone', type: 'enum', values: [], values_url: `${optionsUrl}/down` },
    ]),
  })).id;
  browser = await launchBrowser();
  context = await newContext(browser);
  page = await context.newPage();
  await signIn(page, server.url, '/');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((resolve) => { options?.closeAllConnections(); options?.close(resolve); });
});

async function eachLook(name: string, open: () => Promise<void>): Promise<void> {
  for (const theme of ['light', 'dark']) {
    await context.addCookies([{ name: 'theme', value: theme, url: server.url }]);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await open();
      expect(await page.getAttribute('html', 'data-theme')).toBe(theme);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${theme} ${width}`).toBeLessThanOrEqual(0);
      await screenshot(page, `${name}-${width}-${theme}`);
    }
  }
}

describe('key sources and URL options in the console', { timeout: 120_000 }, () => {
  it('creates a key read from a server variable; a name the server does not allow is refused under the field', async () => {
    await eachLook('key-source-field', async () => {
      await page.goto(`${server.url}/project/${ids.pid}/keys?edit=new`);
      await page.locator('input[name=type][value=login_password]').check();
      await page.selectOption('select[name=source_storage_id]', 'env');
      await page.fill('input[name=source_storage_key]', 'DEPLOY_TOKEN');
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/project/${ids.pid}/keys?edit=new`);
    await page.fill('input[name=name]', 'Refused');
    await page.locator('input[name=type][value=login_password]').check();
    await page.selectOption('select[name=source_storage_id]', 'env');
    await page.fill('input[name=source_storage_key]', 'HOME');
    await follow(page, 'dialog button[type=submit]');
    expect(await page.locator('[data-field=source_storage_key] .field-error').textContent()).toMatch(/HOME|allow/i);
    await page.fill('input[name=name]', 'Deploy token');
    await page.fill('input[name=source_storage_key]', 'DEPLOY_TOKEN');
    await follow(page, 'dialog button[type=submit]');
    expect(page.url()).toContain('flash=key_saved');
    expect(await page.locator('tr[data-key]', { hasText: 'Deploy token' }).textContent()).toContain('from server variable DEPLOY_TOKEN');
    const key = await server.deps.db.selectFrom('access_key').selectAll().where('name', '=', 'Deploy token').executeTakeFirstOrThrow();
    expect([key.source_storage_type, key.source_storage_key]).toEqual(['env', 'DEPLOY_TOKEN']);
    // editing it shows the source chosen
    await page.goto(`${server.url}/project/${ids.pid}/keys?edit=${key.id}`);
    expect(await page.locator('select[name=source_storage_id]').inputValue()).toBe('env');
    expect(await page.locator('[data-field=source_storage_key] .sb-field-label').textContent()).toBe('Variable name');
  });

  it("offers the URL's choices in the launch dialog, and says why another variable has none", async () => {
    await eachLook('launch-url-options', async () => {
      await page.goto(`${server.url}/project/${ids.pid}/history?new_task=${ids.template}`);
      await page.waitForSelector('.launch-form select[name=var_region]');
    });
    const region = await page.locator('select[name=var_region] option').evaluateAll((o) => o.map((x) => [x.getAttribute('value'), x.textContent]));
    expect(region.slice(1)).toEqual([['eu-west', 'eu-west'], ['us-east', 'US East']]);
    expect(await page.locator('[data-field=var_zone] .field-error').textContent()).toBe('The choices could not be loaded from their URL: the options URL answered 503');
  });

  it('the template dialog keeps an enum\'s choices URL and sets the key sent to it', async () => {
    const box = () => page.locator('fieldset[data-field=survey_vars]');
    await eachLook('template-values-url', async () => {
      await page.goto(`${server.url}/project/${ids.pid}/templates/${ids.template}/edit`);
      await box().scrollIntoViewIfNeeded();
      await page.waitForSelector('[data-editor=survey]');
      await page.locator('tr[data-survey-var=region] button').first().click();
      await page.locator('[data-sv=values_url]').scrollIntoViewIfNeeded();
    });
    expect(await page.inputValue('[data-sv=values_url]')).toBe(`${optionsUrl}/regions`);
    await page.selectOption('[data-sv=values_url_key_id]', { label: 'Deploy token' });
    await page.click('[data-sv=save]');
    await follow(page, 'dialog footer button[type=submit]');
    expect(page.url()).toContain('flash=template_saved');
    const row = await server.deps.db.selectFrom('template').select('survey_vars').where('id', '=', ids.template).executeTakeFirstOrThrow();
    const key = await server.deps.db.selectFrom('access_key').select('id').where('name', '=', 'Deploy token').executeTakeFirstOrThrow();
    expect(JSON.parse(row.survey_vars)[0]).toMatchObject({ name: 'region', type: 'enum', values: [], values_url: `${optionsUrl}/regions`, values_url_key_id: key.id });
  });
});
