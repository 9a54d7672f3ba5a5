import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, screenshot, signIn } from './support/browser.ts';
import { insertTemplate } from '../support/fixtures.ts';
import { insertTask } from '../support/project-rows.ts';
import { now } from '../../src/server/lib/time.ts';
import { saveHostFacts } from '../../src/server/domain/tasks/host-facts.ts';
import { join } from 'node:path';
import { createGitRepo } from '../support/git-repo.ts';
import { waitForTask, taskLog } from '../support/engine.ts';

// The Hosts view (issue #50): hosts of every inventory as ansible-inventory reads them, the last
// result per template from recorded PLAY RECAP rows, filters and an unreadable inventory's message.
let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let pid: number;

async function api(path: string, data: unknown): Promise<{ id: number }> {
  const res = await page.request.post(`${server.url}/api${path}`, { data, headers: { Origin: server.url } });
  expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
  return res.json();
}

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 }, javaScriptEnabled: false });
  page = await context.newPage();
  await signIn(page, server.url, '/');
  pid = (await api('/projects', { name: 'Fleet' })).id;
  const key = (await api(`/project/${pid}/keys`, { name: 'None', type: 'none' })).id;
  const web = await api(`/project/${pid}/inventory`, { name: 'Production', type: 'static', ssh_key_id: key, inventory: '[web]\nweb1.example.net\nweb2.example.net\n[db]\ndb1.example.net\n[prod:children]\nweb\ndb\n' });
  await api(`/project/${pid}/inventory`, { name: 'Broken', type: 'static', ssh_key_id: key, inventory: '[web\nfoo bar=\n' });
  const db = server.deps.db;
  const template = await insertTemplate(db, pid, { name: 'Deploy site', app: 'ansible', playbook: 'site.yml', inventory_id: web.id });
  const task = await insertTask(db, { projectId: pid, templateId: template.id, status: 'error' });
  const recap = (host: string, failed: number, unreachable: number, changed: number) => ({
    task_id: task.id, project_id: pid, host, ok: 2, changed, unreachable, failed, skipped: 0, rescued: 0, ignored: 0, created: now(),
  });
  await db.insertInto('task_ansible_host').values([recap('web1.example.net', 0, 0, 1), recap('web2.example.net', 1, 0, 0), recap('db1.example.net', 0, 1, 0)]).execute();
  // what the engine stores from a run that gathered facts (tests/server/engine/host-facts.test.ts runs the real one)
  await saveHostFacts(db, task, new Map([['web2.example.net', { distribution: 'Debian', distribution_version: '12.11', ipv4: '192.0.2.12', hostname: 'web2' }]]));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const hostNames = () => page.locator('tr[data-host]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-host')));

describe('hosts view', { timeout: 150_000 }, () => {
  it('lists every host with its last result, groups and inventories, and says which inventory Ansible could not read', async () => {
    await page.goto(`${server.url}/project/${pid}/inventory`);
    await Promise.all([page.waitForURL(/\/hosts$/), page.click('a:has-text("Hosts")')]);
    expect(await hostNames()).toEqual(['db1.example.net', 'web1.example.net', 'web2.example.net']);
    expect(await page.locator('tr[data-host="web2.example.net"] [data-result]').textContent()).toBe('Failed');
    expect(await page.locator('tr[data-host="db1.example.net"] [data-result]').textContent()).toBe('Unreachable');
    expect(await page.locator('tr[data-host="web1.example.net"]').textContent()).toContain('prod, web');
    expect(await page.locator('tr[data-host="db1.example.net"]').textContent()).toContain('Never');
    expect(await page.textContent('tr[data-host="web2.example.net"] [data-host-os]')).toBe('Debian 12.11');
    expect(await page.textContent('tr[data-host="web2.example.net"] [data-host-address]')).toBe('192.0.2.12');
    expect(await page.textContent('tr[data-host="db1.example.net"] [data-host-os]')).toBe('—');
    expect(await page.textContent('[data-inventory-error]')).toContain('Ansible could not read Broken:');
    expect(await page.locator('script').count()).toBe(0);
  });

  it('filters by result and by name with a plain form', async () => {
    await page.goto(`${server.url}/project/${pid}/hosts`);
    await page.selectOption('select[name=result]', 'failed');
    await Promise.all([page.waitForURL(/result=failed/), page.click('.hosts-filter button')]);
    expect(await hostNames()).toEqual(['web2.example.net']);
    await page.goto(`${server.url}/project/${pid}/hosts?q=DB`);
    expect(await hostNames()).toEqual(['db1.example.net']);
    await page.goto(`${server.url}/project/${pid}/hosts?q=nothing-like-this`);
    expect(await page.textContent('main')).toContain('No host matches the filter.');
  });

  it('offers the inventory\'s hosts and groups in the launch dialog; ticking two runs on those two (real ansible-playbook)', async () => {
    const db = server.deps.db;
    const repo = createGitRepo(join(server.tmp, 'play'), { 'site.yml': '- hosts: all\n  gather_facts: false\n  tasks:\n    - debug: msg="ran on {{ inventory_hostname }}"\n' });
    const key = (await db.selectFrom('access_key').select('id').where('project_id', '=', pid).executeTakeFirstOrThrow()).id;
    const repository = await api(`/project/${pid}/repositories`, { name: 'Play', git_url: `file://${repo.path}`, git_branch: 'main', ssh_key_id: key });
    const local = ['north', 'south', 'east'].map((h) => `${h} ansible_connection=local ansible_python_interpreter=/usr/bin/python3`).join('\n');
    const inventory = await api(`/project/${pid}/inventory`, { name: 'Local', type: 'static', ssh_key_id: key, inventory: `[compass]\n${local}\n` });
    const template = await insertTemplate(db, pid, {
      name: 'Point', app: 'ansible', playbook: 'site.yml', inventory_id: inventory.id, repository_id: repository.id, task_params: '{"allow_override_limit":true}',
    });
    await page.goto(`${server.url}/project/${pid}/history?new_task=${template.id}`);
    expect(await page.locator('.launch-hosts input[name=limit_pick]').evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value))).toEqual(['compass', 'east', 'north', 'south']);
    await page.setViewportSize({ width: 375, height: 900 });
    await screenshot(page, 'launch-pick-hosts-375-light');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.check('.launch-hosts input[value=north]');
    await page.check('.launch-hosts input[value=east]');
    await Promise.all([page.waitForURL(/[?&]t=\d+/), page.click('.launch-form button[type=submit]')]);
    const taskId = Number(new URL(page.url()).searchParams.get('t'));
    const done = await waitForTask(db, taskId, undefined, 120_000);
    const log = (await taskLog(db, taskId)).join('\n');
    expect(done.status, log).toBe('success');
    // in the order the dialog lists them
    expect(JSON.parse(done.params).limit).toEqual(['east', 'north']);
    expect(log).toContain('ran on north');
    expect(log).toContain('ran on east');
    expect(log).not.toContain('ran on south');
  });

  it('opens a host\'s page from its name: groups, inventories, last result per template and its runs', async () => {
    await page.goto(`${server.url}/project/${pid}/hosts`);
    await follow(page, 'tr[data-host="web2.example.net"] a:has-text("web2.example.net")');
    expect(page.url()).toContain('/hosts/web2.example.net');
    expect(await page.textContent('[data-host-groups]')).toBe('prod, web');
    expect(await page.textContent('[data-host-inventories]')).toBe('Production');
    expect(await page.locator('tr[data-last-result] [data-result]').textContent()).toBe('Failed');
    expect(await page.locator('tr[data-run]').count()).toBe(1);
    expect(await page.locator('tr[data-run]').textContent()).toContain('Deploy site');
    expect(await page.textContent('[data-host-facts]')).toMatch(/^Gathered by task #\d+, /);
    expect(await page.textContent('[data-host-os]')).toBe('Debian 12.11');
    expect(await page.textContent('[data-host-address]')).toBe('192.0.2.12');
    expect(await page.textContent('[data-host-hostname]')).toBe('web2');
    await page.goto(`${server.url}/project/${pid}/hosts/web1.example.net`);
    expect(await page.textContent('[data-host-facts]')).toBe('Not gathered yet');
    expect(await page.locator('[data-host-os]').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(0);
    const missing = await page.goto(`${server.url}/project/${pid}/hosts/nowhere.example.net`);
    expect(missing?.status()).toBe(404);
  });

  it('renders at phone and desktop width in both themes', async () => {
    for (const theme of ['light', 'dark']) {
      await context.addCookies([{ name: 'theme', value: theme, url: server.url }]);
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.url}/project/${pid}/hosts`);
        expect(await page.getAttribute('html', 'data-theme')).toBe(theme);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${theme} ${width}`).toBeLessThanOrEqual(0);
        await screenshot(page, `hosts-view-${width}-${theme}`);
        await page.goto(`${server.url}/project/${pid}/hosts/web2.example.net`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `host ${theme} ${width}`).toBeLessThanOrEqual(0);
        await screenshot(page, `host-page-${width}-${theme}`);
      }
    }
  });
});
