import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, screenshot, signedInPage } from './support/browser.ts';
import { join } from 'node:path';
import { createGitRepo } from '../support/git-repo.ts';
import { manualClock } from '../support/trigger-fixtures.ts';
import { startScheduler } from '../../src/server/scheduler/scheduler.ts';
import { scheduledSync } from '../../src/server/engine/inventory/inventory-sync.ts';

// Inventory sources (issue 50 item 5) in the console: a url inventory made in the dialog,
// synced with its row button, and its syncs (hosts added and removed, an error as read).
let server: ConsoleServer;
let browser: Browser;
let page: Page;
let pid: number;
let source: Server;
let sourceUrl: string;
let served = '[web]\nweb1\nweb2\n';

async function api(method: 'post' | 'put', path: string, data: unknown): Promise<{ id: number }> {
  const res = await page.request[method](`${server.url}/api${path}`, { data, headers: { Origin: server.url } });
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
  return res.json();
}

beforeAll(async () => {
  source = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(served));
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/hosts.ini`;
  server = await startConsoleServer();
  browser = await launchBrowser();
  page = await signedInPage(browser, server.url, 1280);
  pid = (await api('post', '/projects', { name: 'Sources' })).id;
  await api('post', `/project/${pid}/keys`, { name: 'Deploy', type: 'ssh', ssh: { login: 'deploy', private_key: 'KEY' } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise<void>((resolve) => source?.close(() => resolve()));
});

describe('url inventory in the console', { timeout: 150_000 }, () => {
  it('is made in the dialog, synced by its row button, and its syncs list the hosts added and removed and an error', async () => {
    await page.goto(`${server.url}/project/${pid}/inventory?edit=new`);
    await page.check('input[name=type][value=url]');
    expect(await page.isVisible('textarea[name=content]')).toBe(false);
    expect(await page.isVisible('input[name=url]')).toBe(true);
    await page.fill('input[name=name]', 'Cloud');
    await page.selectOption('select[name=ssh_key_id]', { label: 'Deploy' });
    await follow(page, 'dialog form button[type=submit]');
    expect(page.url()).toContain('edit=new');
    expect(await page.textContent('[data-field="url"] .field-error')).toBe("Enter the inventory's URL");
    await page.fill('input[name=url]', sourceUrl);
    await follow(page, 'dialog form button[type=submit]');
    expect(page.url()).toContain('flash=inventory_saved');
    const row = page.locator('tr', { hasText: 'Cloud' });
    expect(await row.locator('td').nth(1).textContent()).toBe('URL');
    expect(await row.locator('td').nth(2).textContent()).toBe(sourceUrl);

    await follow(page, row.locator('button', { hasText: 'Sync now' }));
    expect(await page.textContent('.snackbar')).toContain('Inventory Cloud synced');
    served = '[web]\nweb2\nweb3\n';
    await follow(page, page.locator('tr', { hasText: 'Cloud' }).locator('button', { hasText: 'Sync now' }));
    served = '[web\nbroken =\n';
    await follow(page, page.locator('tr', { hasText: 'Cloud' }).locator('button', { hasText: 'Sync now' }));
    await follow(page, page.locator('tr', { hasText: 'Cloud' }).locator('a', { hasText: 'Syncs' }));
    const items = page.locator('.sync-list li');
    expect(await items.count()).toBe(3);
    expect((await items.nth(0).textContent())?.replace(/\s+/g, ' ')).toContain('No inventory was parsed');
    expect(await items.nth(1).textContent()).toContain('2 hosts: 1 added, 1 removed');
    expect(await items.nth(1).textContent()).toContain('+ web3');
    expect(await items.nth(1).textContent()).toContain('− web1');
    expect(await items.nth(2).textContent()).toContain('2 hosts: 2 added, 0 removed');
    served = '[web]\nweb1\nweb2\n';
  });

  it('renders the list and the syncs at phone and desktop width in both themes', async () => {
    const id = (await server.deps.db.selectFrom('inventory').select('id').where('project_id', '=', pid).where('name', '=', 'Cloud').executeTakeFirstOrThrow()).id;
    for (const theme of ['light', 'dark']) {
      for (const width of [375, 1280]) {
        const p = await signedInPage(browser, server.url, width);
        await p.context().addCookies([{ name: 'theme', value: theme, url: server.url }]);
        await p.goto(`${server.url}/project/${pid}/inventory`);
        expect(await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${theme} ${width}`).toBeLessThanOrEqual(0);
        await screenshot(p, `inventory-sources-list-${width}-${theme}`, { fullPage: false });
        await p.goto(`${server.url}/project/${pid}/inventory?syncs=${id}`);
        await screenshot(p, `inventory-sources-syncs-${width}-${theme}`, { fullPage: false });
        await p.goto(`${server.url}/project/${pid}/inventory?edit=${id}`);
        await screenshot(p, `inventory-sources-dialog-${width}-${theme}`, { fullPage: false });
        await p.context().close();
      }
    }
  });
});

/** A dynamic inventory (Ansible's `--list` contract) in the project's repository. */
const SCRIPT = `#!/bin/sh
if [ "$1" = "--list" ]; then
  printf '%s\\n' '{"db": {"hosts": ["db1"]}, "edge": {"hosts": ["edge1"], "children": ["db"]}, "_meta": {"hostvars": {}}}'
else
  printf '{}\\n'
fi
`;

describe('script inventory in the console', { timeout: 150_000 }, () => {
  it('is made in the dialog with a sync schedule, synced by hand and by the schedule, and its hosts reach the Hosts view', async () => {
    const repoPath = createGitRepo(join(server.tmp, 'cloud-scripts'), { 'inventory/cloud.sh': SCRIPT }).path;
    const key = (await server.deps.db.selectFrom('access_key').select('id').where('project_id', '=', pid).where('name', '=', 'Deploy').executeTakeFirstOrThrow()).id;
    await api('post', `/project/${pid}/repositories`, { name: 'Cloud scripts', git_url: `file://${repoPath}`, git_branch: 'main', ssh_key_id: key });
    await page.goto(`${server.url}/project/${pid}/inventory?edit=new`);
    await page.check('input[name=type][value=script]');
    expect(await page.isVisible('input[name=url]')).toBe(false);
    expect(await page.isVisible('input[name=path]')).toBe(true);
    expect(await page.isVisible('input[name=sync_cron]')).toBe(true);
    await page.fill('input[name=name]', 'Cloud script');
    await page.fill('input[name=path]', 'inventory/cloud.sh');
    await page.selectOption('select[name=repository_id]', { label: 'Cloud scripts' });
    await page.selectOption('select[name=ssh_key_id]', { label: 'Deploy' });
    await page.fill('input[name=sync_cron]', 'each hour');
    await follow(page, 'dialog form button[type=submit]');
    expect(await page.textContent('dialog')).toContain('Cron:');
    await page.fill('input[name=sync_cron]', '0 * * * *');
    await follow(page, 'dialog form button[type=submit]');
    expect(page.url()).toContain('flash=inventory_saved');
    const row = () => page.locator('tr', { hasText: 'Cloud script' });
    expect(await row().locator('td').nth(1).textContent()).toBe('Script');
    const id = Number(await row().getAttribute('data-inventory'));
    expect((await server.deps.db.selectFrom('inventory').select('sync_cron').where('id', '=', id).executeTakeFirstOrThrow()).sync_cron).toBe('0 * * * *');

    await follow(page, row().locator('button', { hasText: 'Sync now' }));
    expect(await page.textContent('.snackbar')).toContain('Inventory Cloud script synced');
    // the scheduler's clock moved past the next hour: a sync by the schedule
    const clock = manualClock('2026-12-01T10:30:00Z');
    const scheduler = startScheduler(server.deps, { now: clock.now, autoTick: false, log: () => {}, syncInventory: scheduledSync(server.deps) });
    try {
      await scheduler.ready;
      clock.set('2026-12-01T11:00:01Z');
      await scheduler.tick();
    } finally {
      await scheduler.stop();
    }
    await follow(page, row().locator('a', { hasText: 'Syncs' }));
    const items = page.locator('.sync-list li');
    expect(await items.count()).toBe(2);
    expect(await items.nth(0).textContent()).toContain('by its schedule');
    expect(await items.nth(0).textContent()).toContain('2 hosts: 0 added, 0 removed');
    expect(await items.nth(1).textContent()).toContain('by hand');
    expect(await items.nth(1).textContent()).toContain('2 hosts: 2 added, 0 removed');
    expect(await items.nth(1).textContent()).toContain('+ db1, edge1');

    await page.goto(`${server.url}/project/${pid}/hosts?inventory_id=${id}`);
    const hosts = await page.locator('tr[data-host]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-host')));
    expect(hosts).toEqual(['db1', 'edge1']);
    expect(await page.locator('tr[data-host="db1"]').textContent()).toContain('db, edge');

    for (const theme of ['light', 'dark']) {
      for (const width of [375, 1280]) {
        const p = await signedInPage(browser, server.url, width);
        await p.context().addCookies([{ name: 'theme', value: theme, url: server.url }]);
        await p.goto(`${server.url}/project/${pid}/inventory?edit=${id}`);
        expect(await p.inputValue('input[name=sync_cron]')).toBe('0 * * * *');
        expect(await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${theme} ${width}`).toBeLessThanOrEqual(0);
        await p.locator('[data-field="sync_cron"]').scrollIntoViewIfNeeded();
        await screenshot(p, `inventory-script-dialog-${width}-${theme}`, { fullPage: false });
        await p.goto(`${server.url}/project/${pid}/inventory?syncs=${id}`);
        await screenshot(p, `inventory-script-syncs-${width}-${theme}`, { fullPage: false });
        await p.context().close();
      }
    }
  });
});
