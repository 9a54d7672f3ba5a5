import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot } from './support/browser.ts';
import { signIn } from './support/browser.ts';

// Team and permissions (issue #14 screens 6 and 8): the owner adds members with the user picker,
// changes a role and removes a member; then a manager, a task_runner and a guest each see
// exactly the controls seed 001 §6 gives them on the resource screens and the team.
let server: ConsoleServer;
let browser: Browser;
let page: Page;
let pid: number;
const PEOPLE = [
  { username: 'mia', name: 'Mia Manager', role: 'manager' },
  { username: 'tom', name: 'Tom Runner', role: 'task_runner' },
  { username: 'gus', name: 'Gus Guest', role: 'guest' },
  { username: 'ivy', name: 'Ivy Leaving', role: 'guest' },
] as const;
const PASSWORD = 'team-password-1';

async function api(method: 'post' | 'put', path: string, data: unknown): Promise<{ id: number }> {
  const res = await page.request[method](`${server.url}/api${path}`, { data, headers: { Origin: server.url } });
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
  return res.status() === 204 ? { id: 0 } : res.json();
}

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  page = await (await newContext(browser)).newPage();
  await signIn(page, server.url, '/');
  pid = (await api('post', '/projects', { name: 'Team work' })).id;
  for (const person of PEOPLE) await api('post', '/users', { name: person.name, username: person.username, email: `${person.username}@example.test`, password: PASSWORD });
  const key = (await api('post', `/project/${pid}/keys`, { name: 'Deploy', type: 'ssh', ssh: { private_key: 'KEY' } })).id;
  await api('post', `/project/${pid}/repositories`, { name: 'Infra', git_url: '/srv/infra', git_branch: '', ssh_key_id: key });
  await api('post', `/project/${pid}/inventory`, { name: 'Hosts', type: 'static', inventory: 'localhost', ssh_key_id: key });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const memberRole = async (username: string) => (await server.deps.db.selectFrom('project_user').innerJoin('user', 'user.id', 'project_user.user_id')
  .select('project_user.role').where('project_user.project_id', '=', pid).where('user.username', '=', username).executeTakeFirst())?.role;

describe('team', { timeout: 150_000 }, () => {
  it('adds members with the user picker, changes a role and removes a member', async () => {
    await page.goto(`${server.url}/project/${pid}/team`);
    for (const person of PEOPLE) {
      await Promise.all([page.waitForURL(/add=1/), page.click('text=Add member')]);
      if (person === PEOPLE[0]) {
        await Promise.all([page.waitForURL(/add=1/), page.click('dialog form button[type=submit]')]);
        expect(await page.textContent('[data-field=user_id] .field-error')).toBe('Choose a user');
      }
      await page.selectOption('dialog select[name=user_id]', { label: `${person.name} (${person.username})` });
      await page.selectOption('dialog select[name=role]', person.role === 'manager' ? 'guest' : person.role);
      await Promise.all([page.waitForURL(/flash=member_added/), page.click('dialog form button[type=submit]')]);
      expect(await page.textContent('.snackbar')).toContain(`${person.name} added to the team`);
    }
    // members already in the team are not offered again
    await page.goto(`${server.url}/project/${pid}/team?add=1`);
    expect(await page.locator('dialog select[name=user_id] option').allTextContents()).toEqual(['—']);

    await page.goto(`${server.url}/project/${pid}/team`);
    const mia = page.locator('tr', { hasText: 'Mia Manager' });
    await mia.locator('select[name=role]').selectOption('manager');
    await Promise.all([page.waitForURL(/flash=member_saved/), mia.locator('button', { hasText: 'Change role' }).click()]);
    expect(await memberRole('mia')).toBe('manager');
    expect(await page.locator('tr', { hasText: 'Mia Manager' }).textContent()).toContain('you can run any tasks');

    await Promise.all([page.waitForURL(/delete=\d+/), page.locator('tr', { hasText: 'Ivy Leaving' }).locator('text=Remove').click()]);
    await Promise.all([page.waitForURL(/flash=member_removed/), page.click('dialog .delete-form button[type=submit]')]);
    expect(await page.textContent('.snackbar')).toContain('Ivy Leaving removed from the team');
    expect(await memberRole('ivy')).toBeUndefined();
    await screenshot(page, 'team-owner-1280');
  });

  for (const person of PEOPLE.slice(0, 3)) {
    it(`shows a ${person.role} exactly the controls of the role`, async () => {
      const context = await newContext(browser);
      const own = await context.newPage();
      await own.goto(`${server.url}/auth/login?next=${encodeURIComponent(`/project/${pid}/keys`)}`);
      await own.fill('input[name=auth]', person.username);
      await own.fill('input[name=password]', PASSWORD);
      await Promise.all([own.waitForURL(/\/project\/\d+\/keys/), own.click('button[type=submit]')]);
      const manages = person.role === 'manager';
      for (const [path, newLabel, rowText] of [['keys', 'New key', 'Deploy'], ['repositories', 'New repository', 'Infra'], ['inventory', 'New inventory', 'Hosts']]) {
        await own.goto(`${server.url}/project/${pid}/${path}`);
        const row = own.locator('tr', { hasText: rowText });
        expect(await row.count(), path).toBe(1);
        expect(await own.locator(`main :text-is("${newLabel}")`).count(), `${path} new`).toBe(manages ? 1 : 0);
        expect(await row.locator('a', { hasText: 'Edit' }).count(), `${path} edit`).toBe(manages ? 1 : 0);
        expect(await row.locator('a', { hasText: 'Delete' }).count(), `${path} delete`).toBe(manages ? 1 : 0);
        // a dialog URL opens nothing without the right
        await own.goto(`${server.url}/project/${pid}/${path}?edit=new`);
        expect(await own.locator('dialog').count(), `${path} dialog`).toBe(manages ? 1 : 0);
      }
      if (manages) await screenshot(own, 'team-manager-inventory-dialog-1280');

      // nobody but the owner manages the team: the others see role titles only
      await own.goto(`${server.url}/project/${pid}/team`);
      expect(await own.locator('main select').count()).toBe(0);
      expect(await own.locator('main :text-is("Add member")').count()).toBe(0);
      expect(await own.locator('main a', { hasText: 'Remove' }).count()).toBe(0);
      const roleTitle = { manager: 'Manager', task_runner: 'Task runner', guest: 'Guest' }[person.role];
      expect(await own.locator('tr', { hasText: person.name }).locator('.role-title').textContent()).toBe(roleTitle);
      expect(await own.textContent('.page-header')).toContain(`Your role: ${roleTitle}`);
      if (person.role === 'guest') expect(await own.locator('tr', { hasText: person.name }).textContent()).toContain('read-only access');
      await own.setViewportSize({ width: 375, height: 740 });
      await own.reload();
      expect(await own.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      await screenshot(own, `team-${person.role}-375`);
      await context.close();
    });
  }
});
