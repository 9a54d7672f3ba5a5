import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, newContext, screenshot } from './support/browser.ts';
import { adminApi, insertScriptProject } from './support/real-tasks.ts';
import { seriousViolations } from './support/axe.ts';
import { hashPassword } from '../../src/server/access/password.ts';
import { now } from '../../src/server/lib/time.ts';

/**
 * "Who can run this" in the template dialog (issue 52 item 5): an owner (no admin) names a member
 * and a role; the grants reach the API (GET …/grants), the member not named no longer sees the
 * template, the one named still does; clearing every grant shows it to everyone again. A member
 * who may not manage templates gets no dialog. 1280 and 375 px, light and dark.
 */
let server: ConsoleServer;
let browser: Browser;
let api: Awaited<ReturnType<typeof adminApi>>;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
const ids: Record<string, number> = {};

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  api = await adminApi(server);
  fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh', 'Deploy web');
  const { db } = server.deps;
  for (const [username, role] of [['olga', 'owner'], ['bob', 'task_runner'], ['cat', 'task_runner']] as const) {
    const user = await db.insertInto('user').values({
      created: now(), username, name: username[0]!.toUpperCase() + username.slice(1), email: `${username}@example.test`,
      password: await hashPassword(`${username}-password-1`), admin: 0, external: 0, alert: 0,
    }).returning('id').executeTakeFirstOrThrow();
    ids[username] = user.id;
    await db.insertInto('project_user').values({ project_id: fx.project.id, user_id: user.id, role, created: now() }).execute();
  }
  await api.send('POST', `/api/project/${fx.project.id}/roles`, { project_id: fx.project.id, name: 'Operator', slug: 'operator', permissions: 1 | 16 | 32 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function signInAs(login: string, next: string, width = 1280, theme?: 'light' | 'dark'): Promise<Page> {
  const context = await newContext(browser, { viewport: { width, height: 900 } });
  if (theme) await context.addCookies([{ name: 'theme', value: theme, url: server.url }]);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await page.goto(`${server.url}/auth/login?next=${encodeURIComponent(next)}`);
  await page.fill('input[name=auth]', login);
  await page.fill('input[name=password]', `${login}-password-1`);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/auth/')), page.click('button[type=submit]')]);
  return page;
}

const grantsPath = () => `/api/project/${fx.project.id}/templates/${fx.template.id}/grants`;
const editPath = () => `/project/${fx.project.id}/templates/${fx.template.id}/edit`;

/** Whether `login` finds the template in the list and on its own page. */
async function sees(login: string): Promise<{ list: boolean; page: number }> {
  const page = await signInAs(login, `/project/${fx.project.id}/templates`);
  const list = (await page.locator('main').textContent())!.includes('Deploy web');
  const res = await page.goto(`${server.url}/project/${fx.project.id}/templates/${fx.template.id}`);
  await page.context().close();
  return { list, page: res!.status() };
}

describe('who can run this', { timeout: 300_000 }, () => {
  it('an owner names a member and a role: stored through the API, hidden from the others; cleared, seen by all again', async () => {
    expect(await sees('cat')).toEqual({ list: true, page: 200 });
    const olga = await signInAs('olga', editPath());
    const box = olga.locator('fieldset[data-field=grants]');
    expect(await box.locator('legend').textContent()).toBe('Who can run this');
    // owners are never listed: grants do not hide a template from them
    expect(await box.locator('[data-grant]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-grant'))))
      .toEqual(['role:manager', 'role:task_runner', 'role:guest', 'role:operator', `user:${ids.bob}`, `user:${ids.cat}`]);
    expect(await box.locator('select option').first().textContent()).toBe('Not listed');
    await box.locator(`select[name=grant_user_${ids.bob}]`).selectOption('run');
    await box.locator('select[name=grant_role_operator]').selectOption('see');
    await follow(olga, 'dialog footer button[type=submit]');
    expect(new URL(olga.url()).pathname).toBe(`/project/${fx.project.id}/templates/${fx.template.id}/tasks`);
    expect(await olga.locator('.snackbar').textContent()).toContain('Template Deploy web saved');
    expect(await api.get(grantsPath())).toEqual({ grants: [{ role: 'operator', user_id: null, run: false }, { role: null, user_id: ids.bob, run: true }] });

    expect(await sees('cat')).toEqual({ list: false, page: 404 });
    expect(await sees('bob')).toEqual({ list: true, page: 200 });
    // a task runner may not manage templates: no dialog, so no grants either
    const bob = await signInAs('bob', `/project/${fx.project.id}/templates`);
    expect((await bob.goto(`${server.url}${editPath()}`))!.status()).toBe(404);
    await bob.context().close();

    await olga.goto(`${server.url}${editPath()}`);
    expect(await olga.inputValue(`select[name=grant_user_${ids.bob}]`)).toBe('run');
    expect(await olga.inputValue('select[name=grant_role_operator]')).toBe('see');
    expect(await olga.inputValue(`select[name=grant_user_${ids.cat}]`)).toBe('');
    await olga.selectOption(`select[name=grant_user_${ids.bob}]`, '');
    await olga.selectOption('select[name=grant_role_operator]', '');
    await follow(olga, 'dialog footer button[type=submit]');
    expect(new URL(olga.url()).pathname).toBe(`/project/${fx.project.id}/templates/${fx.template.id}/tasks`);
    expect(await api.get(grantsPath())).toEqual({ grants: [] });
    expect(await sees('cat')).toEqual({ list: true, page: 200 });
    await olga.context().close();
  });

  it('a new template is created with its grants', async () => {
    const olga = await signInAs('olga', `/project/${fx.project.id}/templates/new/edit?app=bash`);
    await olga.fill('input[name=name]', 'Night job');
    await olga.fill('input[name=playbook]', 'run.sh');
    await olga.selectOption('select[name=repository_id]', String(fx.repository.id));
    await olga.selectOption('select[name=environment_id]', String(fx.environment.id));
    await olga.selectOption('select[name=grant_role_task_runner]', 'run');
    await follow(olga, 'dialog footer button[type=submit]');
    const id = Number(/\/templates\/(\d+)\/tasks$/.exec(new URL(olga.url()).pathname)?.[1]);
    expect(id).toBeGreaterThan(0);
    expect(await api.get(`/api/project/${fx.project.id}/templates/${id}/grants`)).toEqual({ grants: [{ role: 'task_runner', user_id: null, run: true }] });
    await olga.context().close();
  });

  it('fits 1280 and 375 px in both themes, without serious axe findings', async () => {
    await api.send('PUT', grantsPath(), { grants: [{ user_id: ids.bob, run: true }, { role: 'manager' }] });
    for (const width of [1280, 375]) {
      for (const theme of ['light', 'dark'] as const) {
        const page = await signInAs('olga', editPath(), width, theme);
        const box = page.locator('fieldset[data-field=grants]');
        await box.scrollIntoViewIfNeeded();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await box.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
        if (width === 1280) expect(await seriousViolations(page)).toEqual([]);
        await screenshot(box, `template-grants-${width}-${theme}`);
        await screenshot(page, `template-grants-dialog-${width}-${theme}`, { fullPage: false });
        await page.context().close();
      }
    }
  });
});
