import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, screenshot, signedInPage } from './support/browser.ts';
import { createClient } from './support/http-client.ts';
import { adminApi, waitForTask } from './support/real-tasks.ts';
import { createGitRepo } from '../support/git-repo.ts';
import { insertMember, insertProjectWithTemplate, insertTemplate } from '../support/fixtures.ts';
import { taskLog } from '../support/engine.ts';
import { ADMIN } from './support/console-server.ts';

// Relaunch on failed hosts in the task log dialog (issue #50): a real ansible-playbook fails on
// one of three local hosts; the action starts a new task on that host alone and opens it.
const INVENTORY = ['alpha', 'bravo', 'charlie'].map((h) => `${h} ansible_connection=local ansible_python_interpreter=/usr/bin/python3`).join('\n');
const PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - debug:
        msg: "ran on {{ inventory_hostname }}"
    - fail:
        msg: "bravo is broken"
      when: inventory_hostname == 'bravo'
`;
const LABEL = 'Relaunch on failed hosts';

let server: ConsoleServer;
let browser: Browser;
let page: Page;
let pid = 0;
let failedTask = 0;
let passedTask = 0;
let errors: string[] = [];

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  const { db } = server.deps;
  const admin = await db.selectFrom('user').select('id').where('username', '=', ADMIN.login).executeTakeFirstOrThrow();
  const repo = createGitRepo(join(server.tmp, 'fleet'), { 'site.yml': PLAYBOOK, 'fine.yml': PLAYBOOK.replace("inventory_hostname == 'bravo'", 'false') });
  const fx = await insertProjectWithTemplate(db, { ownerId: admin.id, gitUrl: `file://${repo.path}`, inventory: INVENTORY });
  pid = fx.project.id;
  const fields = { app: 'ansible', repository_id: fx.repository.id, inventory_id: fx.inventory.id, environment_id: fx.environment.id };
  const fleet = await insertTemplate(db, pid, { name: 'Fleet', playbook: 'site.yml', ...fields });
  const fine = await insertTemplate(db, pid, { name: 'Fine', playbook: 'fine.yml', ...fields });
  const api = await adminApi(server);
  failedTask = await api.runTask(pid, { template_id: fleet.id, message: 'nightly' });
  passedTask = await api.runTask(pid, { template_id: fine.id });
  for (const id of [failedTask, passedTask]) await waitForTask(db, id, undefined, 120_000);
  await insertMember(db, pid, 'gus', 'guest');
  page = await signedInPage(browser, server.url, 1280);
  page.on('pageerror', (e) => errors.push(e.message));
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const relaunchButton = () => page.locator('dialog .task-actions button[value=relaunch_failed]');

describe('relaunch on failed hosts', { timeout: 180_000 }, () => {
  it('starts the failed host alone from the task log dialog and opens the new task with a flash', async () => {
    errors = [];
    await page.goto(`${server.url}/project/${pid}/history?t=${failedTask}`);
    await page.waitForSelector('dialog .task-actions button[value=rerun]');
    expect(await relaunchButton().textContent()).toBe(LABEL);
    await follow(page, relaunchButton());
    const url = new URL(page.url());
    const next = Number(url.searchParams.get('t'));
    expect(next).toBeGreaterThan(failedTask);
    expect(url.pathname).toBe(`/project/${pid}/history`);
    expect(await page.textContent('.snackbar')).toContain('Relaunched on bravo');
    // said above the new task's modal dialog, not under its backdrop
    const onTop = await page.locator('.snackbar').evaluate((bar) => {
      const box = bar.getBoundingClientRect();
      return bar.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
    });
    expect(onTop).toBe(true);
    // the snackbar hides itself after 3 s: this picture keeps its animation as it is
    await screenshot(page, 'relaunch-failed-opened-1280', { fullPage: false, animations: 'allow' });
    const done = await waitForTask(server.deps.db, next, undefined, 120_000);
    const log = (await taskLog(server.deps.db, next)).join('\n');
    expect(done.status, log).toBe('error');
    expect(JSON.parse(done.params).limit).toEqual(['bravo']);
    expect(done.message).toBe('nightly');
    expect(log).toContain('ran on bravo');
    expect(log).not.toMatch(/ran on (alpha|charlie)/);
    expect(errors).toEqual([]);
  });

  it('offers nothing for a task whose hosts all passed', async () => {
    await page.goto(`${server.url}/project/${pid}/history?t=${passedTask}`);
    await page.waitForSelector('dialog .task-actions button[value=rerun]');
    expect(await relaunchButton().count()).toBe(0);
  });

  it('works without JavaScript through the same form', async () => {
    const plain = await signedInPage(browser, server.url, 1280, false);
    await plain.goto(`${server.url}/project/${pid}/history?t=${failedTask}`);
    await follow(plain, 'dialog .task-actions button[value=relaunch_failed]');
    const next = Number(new URL(plain.url()).searchParams.get('t'));
    expect(next).toBeGreaterThan(failedTask);
    expect(await plain.textContent('.snackbar')).toContain('Relaunched on bravo');
    await waitForTask(server.deps.db, next, undefined, 120_000);
    await plain.context().close();
  });

  it('hides run again and the relaunch from a role that may not run tasks, and refuses their post', async () => {
    const guest = createClient(server.url);
    await guest.signIn('gus', 'member-password-1');
    const dialog = await guest.get(`/project/${pid}/history?t=${failedTask}`);
    expect(dialog.status).toBe(200);
    // the label travels with the island's messages: the button is what must be missing
    expect(dialog.html.includes('value="rerun"')).toBe(false);
    expect(dialog.html.includes('value="relaunch_failed"')).toBe(false);
    const before = await server.deps.db.selectFrom('task').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const refused = await guest.post(`/project/${pid}/task-action`, { task: String(failedTask), action: 'relaunch_failed', back: `/project/${pid}/history` }, { origin: server.url });
    expect(refused.status).toBe(303);
    expect(decodeURIComponent(refused.location ?? '')).toContain('flash=res_action_failed');
    const after = await server.deps.db.selectFrom('task').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('renders at phone and desktop width in both themes', async () => {
    for (const theme of ['light', 'dark']) {
      await page.context().addCookies([{ name: 'theme', value: theme, url: server.url }]);
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.url}/project/${pid}/history?t=${failedTask}`);
        await relaunchButton().waitFor();
        await screenshot(page, `relaunch-failed-${width}-${theme}`, { fullPage: false });
      }
    }
  });
});
