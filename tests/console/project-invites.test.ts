import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { insertProject } from '../support/fixtures.ts';
import { adminApi } from './support/real-tasks.ts';
import { hashPassword } from '../../src/server/access/password.ts';
import { now } from '../../src/server/lib/time.ts';

let server: ConsoleServer;
let browser: Browser;
let projectId: number;

beforeAll(async () => {
  // no mail server configured: the team page shows the invitation link to pass on
  server = await startConsoleServer();
  projectId = (await insertProject(server.deps.db, 'Shop')).id;
  for (const name of ['ann', 'bea']) {
    await server.deps.db.insertInto('user').values({
      created: now(), username: name, name: name[0]!.toUpperCase() + name.slice(1), email: `${name}@example.test`, password: await hashPassword(`${name}-password-1`), admin: 0, external: 0, alert: 0,
    }).execute();
  }
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('project invitations in the console', { timeout: 120_000 }, () => {
  it('a manager invites by email from the team page; the invitee opens the link, signs in and accepts', async () => {
    const admin = await (await newContext(browser)).newPage();
    await signIn(admin, server.url, `/project/${projectId}/team`);
    await admin.click('text=Invite by email');
    await admin.fill('.invite-form input[name=email]', 'ann@example.test');
    await admin.selectOption('.invite-form select[name=role]', 'manager');
    await admin.click('dialog[open] button[type=submit]');
    const link = (await admin.locator('[data-invite-link]').textContent())!.trim();
    expect(link).toMatch(new RegExp(`^${server.url}/invites\\?token=[A-Za-z0-9_-]{43}$`));
    expect(await admin.locator('[data-invite-sent]').textContent()).toContain('send this link to ann@example.test yourself');
    expect(await admin.locator('tr[data-invite] td').allTextContents()).toEqual(expect.arrayContaining(['ann@example.test', 'Manager', 'Pending']));
    await screenshot(admin, 'project-invites-team-1280');
    // shown once: the team page again lists the invitation without its link
    await admin.goto(`${server.url}/project/${projectId}/team`);
    expect(await admin.content()).not.toContain(new URL(link).searchParams.get('token')!);

    const ann = await (await newContext(browser)).newPage();
    await ann.setViewportSize({ width: 375, height: 800 });
    await ann.goto(link);
    expect(new URL(ann.url()).pathname).toBe('/auth/login');
    await ann.fill('input[name=auth]', 'ann');
    await ann.fill('input[name=password]', 'ann-password-1');
    await Promise.all([ann.waitForURL((u) => u.pathname === '/invites'), ann.click('button[type=submit]')]);
    expect(await ann.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(ann, 'project-invites-accept-375');
    await Promise.all([ann.waitForURL((u) => u.pathname !== '/invites'), ann.click('button[value=accept]')]);
    expect(new URL(ann.url()).pathname).toBe(`/project/${projectId}/history`);
    const member = await server.deps.db.selectFrom('project_user').innerJoin('user', 'user.id', 'project_user.user_id')
      .select(['username', 'role']).where('project_id', '=', projectId).where('username', '=', 'ann').executeTakeFirst();
    expect(member).toEqual({ username: 'ann', role: 'manager' });

    // the link works once
    await ann.goto(link);
    await ann.click('button[value=accept]');
    expect(await ann.locator('[role=alert]').textContent()).toContain('the invitation is accepted');
    await admin.goto(`${server.url}/project/${projectId}/team`);
    expect(await admin.locator('tr[data-invite] td').allTextContents()).toContain('Accepted');
  });

  it("offers the project's own roles in the invite dialog; the invitee joins with the custom role", async () => {
    const api = await adminApi(server);
    await api.send('POST', `/api/project/${projectId}/roles`, { project_id: projectId, name: 'Operator', slug: 'operator', permissions: 1 | 16 | 32 });
    const admin = await (await newContext(browser)).newPage();
    await signIn(admin, server.url, `/project/${projectId}/team?invite=1`);
    const options = await admin.locator('.invite-form select[name=role] option').allTextContents();
    expect(options).toEqual(['Owner', 'Manager', 'Task runner', 'Guest', 'Operator']);
    await admin.fill('.invite-form input[name=email]', 'bea@example.test');
    await admin.selectOption('.invite-form select[name=role]', 'operator');
    await admin.click('dialog[open] button[type=submit]');
    const link = (await admin.locator('[data-invite-link]').textContent())!.trim();
    expect(await admin.locator('tr[data-invite] td').allTextContents()).toEqual(expect.arrayContaining(['bea@example.test', 'Operator', 'Pending']));
    expect(await api.get(`/api/project/${projectId}/invites`)).toEqual(expect.arrayContaining([expect.objectContaining({ email: 'bea@example.test', role: 'operator' })]));

    const bea = await (await newContext(browser)).newPage();
    await bea.goto(link);
    await bea.fill('input[name=auth]', 'bea');
    await bea.fill('input[name=password]', 'bea-password-1');
    await Promise.all([bea.waitForURL((u) => u.pathname === '/invites'), bea.click('button[type=submit]')]);
    await Promise.all([bea.waitForURL((u) => u.pathname !== '/invites'), bea.click('button[value=accept]')]);
    expect(new URL(bea.url()).pathname).toBe(`/project/${projectId}/history`);
    const member = await server.deps.db.selectFrom('project_user').innerJoin('user', 'user.id', 'project_user.user_id')
      .select(['username', 'role']).where('project_id', '=', projectId).where('username', '=', 'bea').executeTakeFirst();
    expect(member).toEqual({ username: 'bea', role: 'operator' });
    await admin.goto(`${server.url}/project/${projectId}/team`);
    expect(await admin.locator('tr[data-invite]:has-text("bea@example.test") td').allTextContents()).toEqual(expect.arrayContaining(['Operator', 'Accepted']));
    await admin.context().close();
    await bea.context().close();
  });
});
