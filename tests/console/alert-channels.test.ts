import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { startHttpReceiver } from '../support/http-receiver.ts';

// The project's Alerts screen (issue 34): a generic webhook channel added, tested against a local
// receiver (the result comes back as a flash), its URL never shown again, edited and deleted; a
// channel whose service answers 500 reports the failure; the template form's alert choice; the
// event webhooks screen with its deliveries log. All without scripts being needed, at 1280 and 375 px.
let server: ConsoleServer;
let browser: Browser;
let page: Page;
let pid: number;
let receiver: Awaited<ReturnType<typeof startHttpReceiver>>;
const TOKEN = 'console-hook-token-4b1d';

beforeAll(async () => {
  receiver = await startHttpReceiver((path) => (path.startsWith('/broken') ? 500 : 200));
  server = await startConsoleServer();
  browser = await launchBrowser();
  page = await (await newContext(browser)).newPage();
  await signIn(page, server.url, '/');
  const res = await page.request.post(`${server.url}/api/projects`, { data: { name: 'Payments' }, headers: { Origin: server.url } });
  pid = (await res.json()).id;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await receiver?.close();
});

const channels = () => server.deps.db.selectFrom('alert_channel').selectAll().where('project_id', '=', pid).orderBy('id').execute();
async function submit(p: Page, urlPattern: RegExp): Promise<void> {
  await Promise.all([p.waitForURL(urlPattern), p.click('dialog form button[type=submit]')]);
}

describe('alerts screen', { timeout: 120_000 }, () => {
  for (const width of [1280, 375]) {
    it(`adds a webhook channel, sends a test to a local receiver, edits and deletes it (${width} px)`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.url}/project/${pid}/settings`);
      await Promise.all([page.waitForURL(/\/alerts$/), page.click('a:has-text("Alert channels of this project")')]);
      expect(await page.textContent('main')).toContain('No alert channels yet');
      await Promise.all([page.waitForURL(/edit=new/), page.click('text=New alert channel')]);
      // the fields of the chosen kind only: a Slack channel asks for its URL, not for a chat id
      expect(await page.isVisible('input[name=url]')).toBe(true);
      expect(await page.isVisible('input[name=chat_id]')).toBe(false);
      await page.check('input[name=kind][value=telegram]');
      expect(await page.isVisible('input[name=chat_id]')).toBe(true);
      expect(await page.isVisible('input[name=url]')).toBe(false);
      await page.check('input[name=kind][value=webhook]');
      await submit(page, /edit=new/);
      expect(await page.textContent('dialog form')).toContain('Name is required');
      await page.fill('input[name=name]', `Ops ${width}`);
      await page.fill('input[name=url]', `${receiver.url}/ops?token=${TOKEN}`);
      await screenshot(page, `alert-channel-dialog-${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await submit(page, /flash=alert_channel_saved/);
      expect(await page.textContent('.snackbar')).toContain(`Alert channel Ops ${width} saved`);
      expect(await page.content()).not.toContain(TOKEN);

      const [row] = await channels();
      const before = receiver.received.length;
      await Promise.all([page.waitForURL(/flash=alert_test_ok/), page.click(`tr[data-channel="${row!.id}"] button:has-text("Send test")`)]);
      expect(await page.textContent('.snackbar')).toContain(`Test alert sent through Ops ${width}`);
      expect(receiver.received.length).toBe(before + 1);
      expect(receiver.received.at(-1)).toMatchObject({ path: `/ops?token=${TOKEN}`, body: { project: { id: pid, name: 'Payments' } } });
      await screenshot(page, `alert-channels-${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // editing without a URL keeps the stored one; the form never shows it
      await Promise.all([page.waitForURL(/edit=\d+/), page.click(`tr[data-channel="${row!.id}"] a:has-text("Edit")`)]);
      expect(await page.inputValue('input[name=url]')).toBe('');
      expect(await page.textContent('dialog form')).toContain('Stored: leave empty to keep it.');
      await page.fill('input[name=name]', `Ops ${width} renamed`);
      await submit(page, /flash=alert_channel_saved/);
      expect(server.deps.secrets.open((await channels())[0]!.secret!)).toBe(`${receiver.url}/ops?token=${TOKEN}`);

      await Promise.all([page.waitForURL(/delete=\d+/), page.click(`tr[data-channel="${row!.id}"] a:has-text("Delete")`)]);
      await Promise.all([page.waitForURL(/flash=alert_channel_deleted/), page.click('dialog button[type=submit]')]);
      expect(await channels()).toEqual([]);
    });
  }

  it('says why a test failed, naming no URL', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const res = await page.request.post(`${server.url}/api/project/${pid}/alert-channels`, {
      data: { kind: 'slack', name: 'Broken', url: `${receiver.url}/broken?token=${TOKEN}` }, headers: { Origin: server.url },
    });
    const id = (await res.json()).id;
    await page.goto(`${server.url}/project/${pid}/alerts`);
    await Promise.all([page.waitForURL(/flash=alert_test_failed/), page.click(`tr[data-channel="${id}"] button:has-text("Send test")`)]);
    expect(await page.textContent('.snackbar')).toContain('Test alert failed: Broken: HTTP 500');
    expect(await page.content()).not.toContain(TOKEN);
  });

  it("the template form sets the alert choice and the template's channels", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const headers = { Origin: server.url };
    const post = async (path: string, data: unknown) => (await page.request.post(`${server.url}/api/project/${pid}${path}`, { data, headers })).json();
    const key = await post('/keys', { name: 'None', type: 'none' });
    const repo = await post('/repositories', { name: 'Repo', git_url: 'file:///srv/repo', git_branch: 'main', ssh_key_id: key.id });
    const group = await post('/environment', { name: 'Vars', json: '{}' });
    const template = await post('/templates', { name: 'Nightly', app: 'bash', playbook: 'run.sh', repository_id: repo.id, environment_id: group.id });
    const oncall = await post('/alert-channels', { kind: 'webhook', name: 'Oncall', url: `${receiver.url}/oncall` });
    await post('/alert-channels', { kind: 'webhook', name: 'Everyone', url: `${receiver.url}/everyone` });
    await page.goto(`${server.url}/project/${pid}/templates/${template.id}/edit`);
    expect(await page.inputValue('select[name=alert_on]')).toBe('always');
    await page.selectOption('select[name=alert_on]', 'failure');
    await page.check(`input[name=alert_channel_ids][value="${oncall.id}"]`);
    await Promise.all([page.waitForURL(/flash=template_saved/), page.click('dialog footer button[type=submit]')]);
    const saved = await (await page.request.get(`${server.url}/api/project/${pid}/templates/${template.id}`)).json();
    expect([saved.alert_on, saved.suppress_success_alerts, saved.suppress_error_alerts, saved.alert_channel_ids]).toEqual(['failure', true, false, [oncall.id]]);
  });

  it('lists an event webhook with its deliveries log', async () => {
    const res = await page.request.post(`${server.url}/api/project/${pid}/event-webhooks`, {
      data: { name: 'CI', url: `${receiver.url}/events`, secret: 'console-signing-secret', events: ['task_finished', 'template_changed'] }, headers: { Origin: server.url },
    });
    const hook = await res.json();
    await server.deps.db.insertInto('event_webhook_delivery').values([
      { webhook_id: hook.id, event: 'template_changed', attempt: 1, status_code: null, duration_ms: 3, error: 'could not reach the service', created: '2026-11-26T10:00:00.000Z' },
      { webhook_id: hook.id, event: 'template_changed', attempt: 2, status_code: 200, duration_ms: 12, error: '', created: '2026-11-26T10:00:10.000Z' },
    ]).execute();
    await page.goto(`${server.url}/project/${pid}/alerts`);
    await Promise.all([page.waitForURL(/\/event-webhooks$/), page.click('main a:has-text("Event webhooks")')]);
    await Promise.all([page.waitForURL(/log=\d+/), page.click(`tr[data-webhook="${hook.id}"] a:has-text("Deliveries")`)]);
    const log = await page.locator('#deliveries tbody tr').allTextContents();
    expect(log).toHaveLength(2);
    expect(log[0]).toContain('200');
    expect(log[1]).toContain('could not reach the service');
    expect(await page.content()).not.toContain('console-signing-secret');
    await screenshot(page, 'event-webhooks-log-1280');
  });
});
