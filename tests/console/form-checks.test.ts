// Issue 46 item 3 on server-rendered forms: what a person typed stays; a wrong value gets its
// message beside the field in the seed's wording, and the message goes as soon as the value is
// right, before any submit (the form loop answers the browser's check); a check never writes;
// the API's refusals naming a field are said beside it, in words, never as `run_at: …`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { createClient } from './support/http-client.ts';
import { follow, launchBrowser, screenshot, signedInPage } from './support/browser.ts';
import { adminApi, insertScriptProject } from './support/real-tasks.ts';
import { asSentence, errorForPeople, fieldRefusal } from '../../src/console/api-error-text.ts';

let server: ConsoleServer;
let browser: Browser;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
let api: Awaited<ReturnType<typeof adminApi>>;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh', 'Nightly');
  api = await adminApi(server);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const schedules = () => api.get<{ id: number }[]>(`/api/project/${fx.project.id}/schedules`);
const message = (page: Page, field: string) => page.locator(`dialog [data-field="${field}"] > .field-error`);

describe('server-rendered forms check what is typed, and never change it', () => {
  it('shows a message beside a field the person changed, takes it away when the value is right, and keeps the typed text (Chromium)', async () => {
    const page = await signedInPage(browser, server.url, 1280);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const before = (await schedules()).length;
    await page.goto(`${server.url}/project/${fx.project.id}/schedule?edit=new`);
    // submitted empty: the server's messages, in the seed's wording
    await follow(page, 'dialog button[type=submit]');
    expect(await message(page, 'name').textContent()).toBe('Name is required');
    await page.waitForSelector('form.sb-form[data-form-check="on"]');

    // typed: the message goes as the value is right, without a submit
    await page.locator('dialog input[name=name]').pressSequentially('nightly');
    await expect.poll(() => message(page, 'name').count()).toBe(0);
    expect(await page.locator('dialog input[name=name]').getAttribute('aria-invalid')).toBeNull();
    // and comes back when it is wrong again
    await page.locator('dialog input[name=name]').fill('');
    await expect.poll(() => message(page, 'name').textContent()).toBe('Name is required');

    // a one-shot time in the past: said beside the field in words, before the API is asked
    await page.locator('dialog input[name=name]').fill('nightly');
    await page.locator('dialog select[name=template_id]').selectOption(String(fx.template.id));
    // a message going above the radios moves them: click only once the form has settled
    await page.locator('[data-cron-builder]').waitFor();
    await expect.poll(() => message(page, 'template_id').count()).toBe(0);
    await page.check('dialog input[name=kind][value=run_at]');
    await page.locator('dialog input[name=run_at]').fill('2020-01-01T10:00');
    await expect.poll(() => message(page, 'run_at').textContent()).toBe('Run at must be in the future');
    expect(await page.locator('dialog input[name=run_at]').inputValue()).toBe('2020-01-01T10:00');
    expect(await page.locator('dialog').textContent()).not.toContain('run_at');
    await screenshot(page, 'form-check-schedule-1280');
    await page.locator('dialog input[name=run_at]').fill(`${new Date().getUTCFullYear() + 2}-01-01T10:00`);
    await expect.poll(() => message(page, 'run_at').count()).toBe(0);

    // every check above was a POST to the page: none of them made a schedule
    expect((await schedules()).length).toBe(before);
    await Promise.all([page.waitForURL(/flash=schedule_created/), page.click('dialog button[type=submit]')]);
    expect((await schedules()).length).toBe(before + 1);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('keeps a typed cron expression the builder cannot show, instead of turning it into "every minute" (Chromium)', async () => {
    const page = await signedInPage(browser, server.url, 1280);
    await page.goto(`${server.url}/project/${fx.project.id}/schedule?edit=new`);
    await page.locator('[data-cron-builder]').waitFor();
    await page.locator('[data-cron-raw]').check();
    await page.fill('input[name=cron_format]', '7 3 * * *');
    // asked for the builder (a click: the switch is expected to stay on)
    await page.locator('[data-cron-raw]').click();
    // still the raw field, still what was typed, and why
    expect(await page.locator('[data-cron-raw]').isChecked()).toBe(true);
    expect(await page.locator('input[name=cron_format]').inputValue()).toBe('7 3 * * *');
    expect(await page.locator('.cron-kept').textContent()).toBe('The builder cannot show this expression: it stays as typed.');
    await screenshot(page, 'form-check-cron-kept-1280');
    // one the builder can show switches as before
    await page.fill('input[name=cron_format]', '30 3 * * *');
    expect(await page.locator('.cron-kept').count()).toBe(0);
    await page.locator('[data-cron-raw]').uncheck();
    expect(await page.locator('[data-cron-mode]').inputValue()).toBe('daily');
    expect(await page.locator('input[type=hidden][name=cron_format]').inputValue()).toBe('30 3 * * *');
    await page.context().close();
  }, 60_000);

  it('answers a form check with the messages alone and writes nothing, even on a page whose form is not the loop\'s', async () => {
    const client = createClient(server.url);
    await client.signIn();
    const check = { 'x-signalbox-form-check': '1' };
    const valid = { _form: 'schedule', name: 'checked only', template_id: String(fx.template.id), kind: 'cron', cron_format: '0 3 * * *', active: 'on' };
    const before = (await schedules()).length;
    const answer = await client.post(`/project/${fx.project.id}/schedule?edit=new`, valid, check);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.html)).toEqual({ errors: {} });
    const wrong = await client.post(`/project/${fx.project.id}/schedule?edit=new`, { ...valid, name: '' }, check);
    expect(JSON.parse(wrong.html)).toEqual({ errors: { name: 'Name is required' } });
    expect((await schedules()).length).toBe(before);

    // the workflow editor posts its own way: a check sent there still creates nothing
    const workflows = () => api.get<unknown[]>(`/api/project/${fx.project.id}/workflows`);
    const count = (await workflows()).length;
    const graph = JSON.stringify({ nodes: [{ id: 1, kind: 'task', name: 'build', template_id: fx.template.id }], edges: [] });
    const editor = await client.post(`/project/${fx.project.id}/workflows/new/edit`, { _form: 'workflow', name: 'not saved', graph }, check);
    expect(editor.status).not.toBe(303);
    expect((await workflows()).length).toBe(count);
  });

  it('says the API\'s refusals beside their field, as a sentence; without JavaScript too', async () => {
    const client = createClient(server.url);
    await client.signIn();
    // a token sign-in without its token: the seed-style message beside the field, not `secret: required for token auth`
    const storage = await client.post(`/project/${fx.project.id}/storages?edit=new`, { _form: 'storage', name: 'Vault', type: 'vault', url: 'https://vault.example.test', mount: 'secret', auth_method: 'token' });
    expect(storage.status).toBe(400);
    expect(storage.html).toMatch(/<small id="secret-error"[^>]*>Token is required<\/small>/);
    expect(storage.html).not.toContain('secret: required');
    // a past one-shot time, without JavaScript
    const past = await client.post(`/project/${fx.project.id}/schedule?edit=new`, { _form: 'schedule', name: 'once', template_id: String(fx.template.id), kind: 'run_at', run_at: '2020-01-01T10:00' });
    expect(past.status).toBe(400);
    expect(past.html).toMatch(/<small id="run_at-error"[^>]*>Run at must be in the future<\/small>/);
    expect(past.html).not.toContain('run_at: must');
    // a refusal that comes back as an error snackbar says the field in words too
    const snackbar = await client.get(`/project/${fx.project.id}/workflows?flash=res_action_failed&name=${encodeURIComponent('nodes: this workflow has nothing to run')}`);
    expect(snackbar.html).toContain('Nodes: This workflow has nothing to run.');
    expect(snackbar.html).not.toContain('nodes: this');
  });

  it('words an API refusal for people: the label and a sentence, other texts as they came', () => {
    expect(fieldRefusal('run_at: must be in the future')).toEqual({ field: 'run_at', reason: 'must be in the future' });
    expect(fieldRefusal('Not Found')).toBeNull();
    expect(asSentence('must be in the future')).toBe('Must be in the future.');
    expect(asSentence('required for token auth (the Vault token)')).toBe('Required for token auth (the Vault token)');
    expect(errorForPeople('secret: required for token auth')).toBe('Secret: Required for token auth.');
    expect(errorForPeople('run_at: must be in the future', { run_at: 'Run at (UTC)' })).toBe('Run at (UTC): Must be in the future.');
    expect(errorForPeople('403 Forbidden')).toBe('403 Forbidden');
  });
});
