// Schedules screen (issue #13 screen 6) in Chromium: the cron builder makes a schedule that fires
// at its next minute (on the scheduler's clock, moved on to it), the active switch, edit, delete,
// the seed 001 §5 schedule messages, and the plain form without JavaScript (raw cron, one-shot
// and commit-check schedules).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { adminApi } from './support/real-tasks.ts';
import { measurePageJs } from './support/js-weight.ts';
import { createClient } from './support/http-client.ts';
import { createGitRepo } from '../support/git-repo.ts';
import { LANGUAGES } from '../../src/console/languages.ts';
import { startScheduler, type Scheduler } from '../../src/server/scheduler/scheduler.ts';
import { seriousViolations } from './support/axe.ts';

let server: ConsoleServer;
let scheduler: Scheduler;
let browser: Browser;
let api: Awaited<ReturnType<typeof adminApi>>;
let pid = 0;
/** how far the scheduler's clock is ahead of the real one */
let clockAheadMs = 0;
let repositoryId = 0;

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(server.url + path, {
    method, headers: { 'content-type': 'application/json', cookie: api.cookie, origin: server.url }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (res.status === 204 ? null : await res.json()) as T;
}

const list = () => `${server.url}/project/${pid}/schedule`;
// textContent: the snackbar hides itself after a while, and this machine may be slow to ask.
const snackbar = async (page: Page) => (await page.locator('.snackbar').textContent()) ?? '';

beforeAll(async () => {
  server = await startConsoleServer();
  // The console server runs the task engine; the scheduler runs beside it as in src/server/main.ts,
  // on a clock the first test moves on to the schedule's due time instead of waiting up to a
  // minute for it (the real clock's firing: tests/server/scheduler/scheduler.realclock.test.ts).
  scheduler = startScheduler(server.deps, { now: () => new Date(Date.now() + clockAheadMs) });
  await scheduler.ready;
  browser = await launchBrowser();
  api = await adminApi(server);
  // A bash project made through the API: key, repository, two templates.
  const repo = createGitRepo(join(server.tmp, 'scripts'), { 'run.sh': '#!/bin/sh\necho scheduled run\n' });
  pid = (await call<{ id: number }>('POST', '/api/projects', { name: 'Scheduled' })).id;
  const key = await call<{ id: number }>('POST', `/api/project/${pid}/keys`, { name: 'none', type: 'none', project_id: pid });
  repositoryId = (await call<{ id: number }>('POST', `/api/project/${pid}/repositories`, {
    name: 'scripts', git_url: `file://${repo.path}`, git_branch: 'main', ssh_key_id: key.id, project_id: pid,
  })).id;
  for (const name of ['Nightly backup', 'Say hello']) {
    await call('POST', `/api/project/${pid}/templates`, { name, app: 'bash', playbook: 'run.sh', repository_id: repositoryId, project_id: pid });
  }
  // The first console page loads the server bundle; not part of what the tests time.
  await fetch(list(), { headers: { cookie: api.cookie } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await scheduler?.stop();
  await server?.close();
});

describe('schedules screen', () => {
  it('builds a schedule with the cron builder that fires at its next minute; switch, edit, delete; seed messages', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, server.url, `/project/${pid}/schedule`);
    await expect(page.locator('.empty-state').innerText()).resolves.toContain('No schedules yet');
    await expect(page.locator('.page-header').innerText()).resolves.toContain('Times in UTC');

    // The dialog opens from the New button; the island replaces the plain cron field.
    await page.getByRole('button', { name: 'New schedule' }).click();
    await page.waitForURL(/edit=new/);
    await page.locator('[data-cron-builder]').waitFor();
    // A new schedule starts daily at a quiet hour, not every minute (issue 29).
    await expect(page.locator('[data-cron-mode]').inputValue()).resolves.toBe('daily');
    await expect(page.locator('[data-cron-words]').innerText()).resolves.toBe('At 03:00');
    await expect(page.locator('input[type=hidden][name=cron_format]').inputValue()).resolves.toBe('0 3 * * *');

    // Seed 001 §5: name and template required.
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('#name-error').waitFor();
    expect(await page.locator('#name-error').innerText()).toBe('Name is required');
    expect(await page.locator('#template_id-error').innerText()).toBe('Template is required');

    // Cron required when the raw cron is shown, and the server checks the raw text as it is typed.
    await page.fill('input[name=name]', 'Every minute run');
    await page.selectOption('select[name=template_id]', { label: 'Say hello' });
    await page.locator('[data-cron-builder]').waitFor();
    await page.locator('[data-cron-raw]').check();
    await page.fill('input[name=cron_format]', '61 * * * *');
    await expect(page.locator('.cron-builder .field-error').innerText()).resolves.toMatch(/^Cron: /);
    await page.fill('input[name=cron_format]', '*/15 * * * *');
    await page.locator('.cron-ok').waitFor();
    expect(await page.locator('.cron-ok').innerText()).toBe('Valid cron expression');
    expect(await page.locator('[data-cron-words]').innerText()).toBe('Every 15 minutes');
    await page.fill('input[name=cron_format]', '');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('#cron_format-error').waitFor();
    expect(await page.locator('#cron_format-error').innerText()).toBe('Cron is required');
    expect(await page.locator('input[name=name]').inputValue()).toBe('Every minute run');

    // The builder: modes, choices, back to every minute.
    await page.locator('[data-cron-builder]').waitFor();
    await page.locator('[data-cron-raw]').uncheck();
    await page.selectOption('[data-cron-mode]', 'weekly');
    expect(await page.locator('input[type=hidden][name=cron_format]').inputValue()).toBe('0 0 * * 1');
    await page.locator('[data-cron-list=weekdays] label', { hasText: 'Fri' }).click();
    await page.locator('[data-cron-list=hours] label', { hasText: '09' }).click();
    await page.locator('[data-cron-list=minutes] label', { hasText: ':30' }).click();
    expect(await page.locator('input[type=hidden][name=cron_format]').inputValue()).toBe('0,30 0,9 * * 1,5');
    expect(await page.locator('[data-cron-words]').innerText()).toBe('At 00:00, 00:30, 09:00, and 09:30, on Monday and Friday');
    expect(await seriousViolations(page)).toEqual([]);
    await page.selectOption('[data-cron-mode]', 'yearly');
    expect(await page.locator('input[type=hidden][name=cron_format]').inputValue()).toBe('0,30 0,9 1 1 *');
    expect(await page.locator('[data-cron-list=days] input').count()).toBe(31);
    expect(await page.locator('[data-cron-list=months] input').count()).toBe(12);
    expect(await page.locator('[data-cron-list=minutes] input').count()).toBe(12);
    expect(await page.locator('[data-cron-list=hours] input').count()).toBe(24);
    await screenshot(page, 'schedules-dialog-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(600);
    await screenshot(page, 'schedules-dialog-375');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.selectOption('[data-cron-mode]', 'minute');
    expect(await page.locator('input[type=hidden][name=cron_format]').inputValue()).toBe('* * * * *');

    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/flash=schedule_created/);
    expect(await snackbar(page)).toContain('Schedule Every minute run created');
    const row = page.locator('tr', { hasText: 'Every minute run' });
    expect(await row.locator('.schedule-when').innerText()).toContain('Every minute');
    expect(await row.locator('[role=switch]').getAttribute('aria-checked')).toBe('true');
    await screenshot(page, 'schedules-list-1280');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(600);
    await screenshot(page, 'schedules-list-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 800 });

    // It fires: the scheduler holds it (as the create route told it), its clock reaches the next
    // minute, and a task of the template appears.
    const [schedule] = await call<{ id: number; template_id: number; cron_format: string }[]>('GET', `/api/project/${pid}/schedules`);
    expect(schedule!.cron_format).toBe('* * * * *');
    const fired = async () => (await call<{ template_id: number }[]>('GET', `/api/project/${pid}/tasks`)).some((task) => task.template_id === schedule!.template_id);
    await scheduler.scheduleChanged(schedule!.id);
    clockAheadMs += 61_000 - ((Date.now() + clockAheadMs) % 60_000);
    await scheduler.tick();
    await expect.poll(fired, { timeout: 30_000 }).toBe(true);

    // The active switch.
    await Promise.all([page.waitForURL(/flash=schedule_off/), row.locator('[role=switch]').click()]);
    expect(await snackbar(page)).toContain('Schedule Every minute run is off');
    expect(await row.locator('[role=switch]').getAttribute('aria-checked')).toBe('false');
    expect(await row.locator('.schedule-next').innerText()).toBe('Not planned');
    expect((await call<{ active: boolean }>('GET', `/api/project/${pid}/schedules/${schedule!.id}`)).active).toBe(false);

    // Edit: rename and make it hourly at :30.
    await row.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(/edit=\d+/);
    expect(await page.locator('input[name=name]').inputValue()).toBe('Every minute run');
    await page.locator('[data-cron-builder]').waitFor();
    await page.fill('input[name=name]', 'Half past');
    await page.selectOption('[data-cron-mode]', 'hourly');
    await page.locator('[data-cron-list=minutes] label', { hasText: ':30' }).click();
    await page.locator('[data-cron-list=minutes] label', { hasText: ':00' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/flash=schedule_saved/);
    expect(await snackbar(page)).toContain('Schedule Half past saved');
    const edited = page.locator('tr', { hasText: 'Half past' });
    expect(await edited.locator('.schedule-when').innerText()).toContain('Every hour at :30');
    expect((await call<{ cron_format: string; active: boolean }>('GET', `/api/project/${pid}/schedules/${schedule!.id}`))).toMatchObject({ cron_format: '30 * * * *', active: false });

    // Delete, confirmed.
    await edited.getByRole('link', { name: 'Delete' }).click();
    await page.locator('.delete-dialog').waitFor();
    expect(await page.locator('.delete-dialog').innerText()).toContain('Delete schedule "Half past"?');
    await page.locator('.delete-dialog').getByRole('button', { name: 'Yes' }).click();
    await page.waitForURL(/flash=schedule_deleted/);
    expect(await snackbar(page)).toContain('Schedule Half past deleted');
    expect(await call<unknown[]>('GET', `/api/project/${pid}/schedules`)).toEqual([]);
    await context.close();
  }, 420_000);

  it('without JavaScript: the list renders and the plain form makes raw-cron, one-shot and commit-check schedules', async () => {
    const context = await newContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, server.url, `/project/${pid}/schedules`);
    await page.goto(`${server.url}/project/${pid}/schedules?edit=new`);
    expect(page.url()).toBe(`${list()}?edit=new`);
    const form = page.locator('#schedule-form');
    await form.locator('input[name=cron_format]').waitFor();

    // Messages of the plain form.
    await page.fill('input[name=cron_format]', '');
    await page.getByRole('button', { name: 'Create' }).click();
    expect(await page.locator('#name-error').innerText()).toBe('Name is required');
    expect(await page.locator('#template_id-error').innerText()).toBe('Template is required');
    expect(await page.locator('#cron_format-error').innerText()).toBe('Cron is required');

    await page.fill('input[name=name]', 'Quarterly');
    await page.selectOption('select[name=template_id]', { label: 'Nightly backup' });
    await page.fill('input[name=cron_format]', '*/5 * * * *');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/flash=schedule_created/);
    expect(await page.locator('tr', { hasText: 'Quarterly' }).locator('.schedule-when').innerText()).toContain('Every 5 minutes');

    // A bad cron comes back with the server's message.
    await page.goto(`${list()}?edit=new`);
    await page.fill('input[name=name]', 'Broken');
    await page.selectOption('select[name=template_id]', { label: 'Nightly backup' });
    await page.fill('input[name=cron_format]', 'every day');
    await page.getByRole('button', { name: 'Create' }).click();
    expect(await page.locator('.form-error').innerText()).toMatch(/^Cron: /);

    // One-shot, in the schedule time zone.
    await page.goto(`${list()}?edit=new`);
    await page.fill('input[name=name]', 'Once');
    await page.selectOption('select[name=template_id]', { label: 'Nightly backup' });
    await page.check('input[name=kind][value=run_at]');
    await page.getByRole('button', { name: 'Create' }).click();
    expect(await page.locator('#run_at-error').innerText()).toBe('Choose when to run');
    await page.fill('input[name=run_at]', '2099-12-24T18:00');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/flash=schedule_created/);
    const once = page.locator('tr', { hasText: 'Once' });
    expect(await once.locator('.schedule-when').innerText()).toBe('Once at Dec 24, 2099, 6:00 PM');
    expect(await once.locator('.schedule-next').innerText()).toBe('Dec 24, 2099, 6:00 PM');

    // Commit check: repository and one of the five intervals.
    await page.goto(`${list()}?edit=new`);
    expect(await page.locator('select[name=interval] option').allInnerTexts()).toEqual(['1 minute', '5 minutes', '10 minutes', '1 hour', '24 hours']);
    await page.fill('input[name=name]', 'On push');
    await page.selectOption('select[name=template_id]', { label: 'Say hello' });
    await page.check('input[name=kind][value=commit]');
    await page.getByRole('button', { name: 'Create' }).click();
    expect(await page.locator('#repository_id-error').innerText()).toBe('Repository is required');
    await page.selectOption('select[name=repository_id]', { label: 'scripts' });
    await page.selectOption('select[name=interval]', { label: '10 minutes' });
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/flash=schedule_created/);
    expect(await page.locator('tr', { hasText: 'On push' }).locator('.schedule-when').innerText()).toContain('New commits in scripts, checked: 10 minutes');
    const saved = await call<{ name: string; cron_format: string; repository_id: number | null; type: string }[]>('GET', `/api/project/${pid}/schedules`);
    expect(saved.find((s) => s.name === 'On push')).toMatchObject({ cron_format: '*/10 * * * *', repository_id: repositoryId, type: '' });

    // Editing the one-shot keeps its kind and its time.
    const onceId = saved.find((s) => s.name === 'Once')!;
    await page.goto(`${list()}?edit=${(onceId as unknown as { id: number }).id}`);
    expect(await page.locator('input[name=kind][value=run_at]').isChecked()).toBe(true);
    expect(await page.locator('input[name=run_at]').inputValue()).toBe('2099-12-24T18:00');

    // The switch works as a plain form too.
    await page.goto(list());
    await page.locator('tr', { hasText: 'Quarterly' }).locator('[role=switch]').click();
    await page.waitForURL(/flash=schedule_off/);
    expect(await page.locator('tr', { hasText: 'Quarterly' }).locator('[role=switch]').getAttribute('aria-checked')).toBe('false');
    await context.close();
  }, 300_000);

  it('a schedule in its own time zone: the dialog takes an IANA name, the list shows the next run in that zone and in the page\'s', async () => {
    for (const width of [1280, 375]) {
      const context = await newContext(browser, { javaScriptEnabled: false, viewport: { width, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      await signIn(page, server.url, `/project/${pid}/schedule?edit=new`);
      const zone = page.locator('input[name=timezone]');
      expect(await zone.getAttribute('placeholder')).toBe('UTC');
      expect(await page.locator('#time-zones option[value="America/New_York"]').count()).toBe(1);
      const name = `Zoned ${width}`;
      await page.fill('input[name=name]', name);
      await page.selectOption('select[name=template_id]', { label: 'Nightly backup' });
      await page.fill('input[name=cron_format]', '0 9 * * *');
      await zone.fill('Mars/Base');
      await page.getByRole('button', { name: 'Create' }).click();
      expect(await page.locator('#timezone-error').innerText()).toBe('Not a known time zone');
      // no horizontal scrolling in the dialog, at either width
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.locator('input[name=timezone]').fill('america/new_york');
      await page.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(/flash=schedule_created/);
      const saved = (await call<{ name: string; timezone: string }[]>('GET', `/api/project/${pid}/schedules`)).find((s) => s.name === name);
      expect(saved?.timezone).toBe('America/New_York');
      const next = page.locator('tr', { hasText: name }).locator('.schedule-next');
      // 09:00 in New York is 13:00 or 14:00 UTC, depending on daylight saving time
      expect(await next.innerText()).toMatch(/9:00 AM in America\/New_York\s+.*(1|2):00 PM in UTC/);
      await screenshot(page, `schedules-zone-${width}`);
      await context.close();
    }
  }, 120_000);

  it('ships no script on the list and at most 90 KB gzip with the dialog open', async () => {
    const listJs = await measurePageJs(list(), api.cookie);
    expect(listJs.bytes).toBeLessThanOrEqual(15 * 1024);
    expect(listJs.html).not.toContain('CronBuilder');
    const dialogJs = await measurePageJs(`${list()}?edit=new`, api.cookie);
    expect(dialogJs.html).toContain('CronBuilder');
    expect(dialogJs.bytes).toBeLessThanOrEqual(90 * 1024);
    console.info(`schedule list: ${listJs.bytes} B gzip of JavaScript; with the dialog open: ${dialogJs.bytes} B`);
  });

  it('shows a guest the list without the manage actions, and the API refuses their switch', async () => {
    const guest = await call<{ id: number }>('POST', '/api/users', { name: 'Gus', username: 'gus', email: 'gus@example.com', password: 'guest-password-1' });
    await call('POST', `/api/project/${pid}/users`, { user_id: guest.id, role: 'guest' });
    const [template] = await call<{ id: number }[]>('GET', `/api/project/${pid}/templates`);
    const schedule = await call<{ id: number; name: string; active: boolean }>('POST', `/api/project/${pid}/schedules`, {
      name: 'Guest view', template_id: template!.id, cron_format: '0 3 * * *', active: true,
    });
    const client = createClient(server.url);
    expect((await client.post('/auth/login?next=/', { step: 'password', auth: 'gus', password: 'guest-password-1' })).status).toBe(303);
    const page = await client.get(`/project/${pid}/schedule`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Guest view');
    expect(page.html).toContain('At 03:00');
    expect(page.html).not.toContain('New schedule');
    expect(page.html).not.toContain('role="switch"');
    expect(page.html).not.toContain('?edit=');
    expect((await client.get(`/project/${pid}/schedule?edit=new`)).html).not.toContain('schedule-form');
    const refused = await client.post(`/project/${pid}/schedule`, { _form: 'active', id: String(schedule!.id) });
    expect(refused.status).toBe(400);
    expect((await call<{ active: boolean }>('GET', `/api/project/${pid}/schedules/${schedule!.id}`)).active).toBe(schedule!.active);
  }, 60_000);

  it('says whom each schedule runs as, in the list and its dialog; one without an owner asks to be saved again', async () => {
    const [template] = await call<{ id: number }[]>('GET', `/api/project/${pid}/templates`);
    const schedule = await call<{ id: number; owner_id: number | null }>('POST', `/api/project/${pid}/schedules`, {
      name: 'Owned', template_id: template!.id, cron_format: '0 4 * * *', active: false,
    });
    expect(schedule.owner_id).not.toBeNull();
    const client = createClient(server.url);
    expect((await client.post('/auth/login?next=/', { step: 'password', auth: 'admin', password: 'admin-password-1' })).status).toBe(303);
    const row = async () => {
      const html = (await client.get(`/project/${pid}/schedule`)).html;
      return [...html.matchAll(/<tr data-schedule="(\d+)"[^]*?<\/tr>/g)].find((m) => m[1] === String(schedule.id))![0];
    };
    expect(await row()).toContain('Runs as Admin');
    expect((await client.get(`/project/${pid}/schedule?edit=${schedule.id}`)).html).toMatch(/data-owner[^>]*>Runs as Admin</);
    await server.deps.db.updateTable('schedule').set({ owner_id: null }).where('id', '=', schedule.id).execute();
    expect(await row()).toContain('No owner: someone who may run its template must save it again');
  }, 60_000);

  it('has the schedule messages in every language', () => {
    for (const { code } of LANGUAGES) {
      const messages = JSON.parse(readFileSync(new URL(`../../locales/${code}/translation.json`, import.meta.url), 'utf8'));
      for (const key of ['nameRequired', 'templateRequired', 'cronRequired', 'runAtRequired', 'repositoryRequired']) {
        expect(messages.schedules[key], `${code} ${key}`).toBeTruthy();
      }
      for (const key of ['schedule_created', 'schedule_saved', 'schedule_deleted', 'schedule_on', 'schedule_off']) {
        expect(messages.flash[key], `${code} ${key}`).toContain('{{name}}');
      }
    }
  });
});
