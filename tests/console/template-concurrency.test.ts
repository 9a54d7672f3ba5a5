import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { adminApi, insertScriptProject } from './support/real-tasks.ts';

/** The template dialog's Concurrency box (issue 48): limit, policy, the project's locks, the triggers' rate limit. */
let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let api: Awaited<ReturnType<typeof adminApi>>;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  context = await newContext(browser);
  api = await adminApi(server);
  fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh');
  for (const [name, capacity] of [['prod', 1], ['staging', 3]] as const) await api.send('POST', `/api/project/${fx.project.id}/locks`, { name, capacity });
  const first = await context.newPage();
  await signIn(first, server.url, `/project/${fx.project.id}/history`);
  await first.close();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const save = (page: Page) => follow(page, 'dialog footer button[type=submit]');

describe('concurrency in the template dialog', () => {
  it("edits a template's limit, policy, locks and rate limit: the API's own messages under the fields, then every setting kept", { timeout: 300_000 }, async () => {
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${server.url}/project/${fx.project.id}/templates/${fx.template.id}/edit`);
    const box = page.locator('fieldset[data-field=concurrency]');
    expect(await box.locator('legend').first().textContent()).toBe('Concurrency');
    expect(await box.locator('input[name=locks]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(['prod', 'staging']);
    await box.locator('input[name=concurrency_limit]').fill('0');
    await box.locator('input[name=rate_limit_starts]').fill('5');
    await box.locator('input[name=rate_limit_window]').fill('soon');
    await save(page);
    await page.waitForSelector('[data-field=concurrency_limit] .field-error');
    expect(await page.locator('[data-field=concurrency_limit] .field-error').textContent()).toBe('must be at least 1');
    expect(await page.locator('[data-field=rate_limit_window] .field-error').textContent()).toBe('must be a duration such as 30s, 10m or 1h');
    expect(await page.inputValue('input[name=rate_limit_window]')).toBe('soon');

    await page.fill('input[name=concurrency_limit]', '2');
    await page.selectOption('select[name=concurrency_policy]', 'cancel_previous');
    await page.check('input[name=locks][value=prod]');
    await page.fill('input[name=rate_limit_window]', '10m');
    // the form check takes each message away once its value is right (issue 46)
    await page.waitForSelector('[data-field=rate_limit_window] .field-error', { state: 'detached' });
    await page.waitForSelector('[data-field=concurrency_limit] .field-error', { state: 'detached' });
    expect(await page.locator('.sb-field-invalid, [aria-invalid=true]').count()).toBe(0);
    await screenshot(page, 'template-concurrency-dialog');
    await save(page);
    expect(new URL(page.url()).pathname).toBe(`/project/${fx.project.id}/templates/${fx.template.id}/tasks`);
    expect(await api.get(`/api/project/${fx.project.id}/templates/${fx.template.id}`)).toMatchObject({
      concurrency_limit: 2, concurrency_policy: 'cancel_previous', locks: ['prod'], rate_limit_starts: 5, rate_limit_window: '10m',
    });

    await page.goto(`${server.url}/project/${fx.project.id}/templates/${fx.template.id}/edit`);
    expect(await page.inputValue('input[name=concurrency_limit]')).toBe('2');
    expect(await page.inputValue('select[name=concurrency_policy]')).toBe('cancel_previous');
    expect(await page.isChecked('input[name=locks][value=prod]')).toBe(true);
    expect(await page.isChecked('input[name=locks][value=staging]')).toBe(false);
    await page.close();
  });

  it('fits the Concurrency box on a 375 px phone in the dark theme: no sideways scroll in the page or the dialog', { timeout: 120_000 }, async () => {
    const phone = await browser.newContext({ locale: 'en-US', viewport: { width: 375, height: 800 } });
    await phone.addCookies([{ name: 'theme', value: 'dark', url: server.url }]);
    const page = await phone.newPage();
    await signIn(page, server.url, `/project/${fx.project.id}/templates/${fx.template.id}/edit`);
    const box = page.locator('fieldset[data-field=concurrency]');
    await box.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await page.locator('dialog[open] article').evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
    expect(await box.evaluate((e) => e.getBoundingClientRect().right)).toBeLessThanOrEqual(375);
    await screenshot(page, 'template-concurrency-dialog-375-dark', { fullPage: false });
    await phone.close();
  });
});
