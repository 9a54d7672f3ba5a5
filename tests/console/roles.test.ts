import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { insertProject } from '../support/fixtures.ts';
import { hashPassword } from '../../src/server/access/password.ts';
import { now } from '../../src/server/lib/time.ts';

/**
 * The project's Roles screen and the team screen with custom roles (issue 52): the Operator made
 * from its preset through the form loop (bits as switches), a bad slug refused under its field,
 * the role given to a member on the team screen; 1280 and 375 px, light and dark.
 */
let server: ConsoleServer;
let browser: Browser;
let pid: number;
let annId: number;

beforeAll(async () => {
  server = await startConsoleServer();
  pid = (await insertProject(server.deps.db, 'Shop')).id;
  const ann = await server.deps.db.insertInto('user').values({
    created: now(), username: 'ann', name: 'Ann', email: 'ann@example.test', password: await hashPassword('ann-password-1'), admin: 0, external: 0, alert: 0,
  }).returning('id').executeTakeFirstOrThrow();
  annId = ann.id;
  await server.deps.db.insertInto('project_user').values({ project_id: pid, user_id: annId, role: 'guest', created: now() }).execute();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const submit = (page: Page, url: RegExp) => Promise.all([page.waitForURL(url), page.click('dialog form button[type=submit]')]);
const customRoles = () => server.deps.db.selectFrom('project_role').selectAll().where('project_id', '=', pid).orderBy('id').execute();

describe('roles screen', { timeout: 300_000 }, () => {
  it('makes the Operator from its preset, refuses a bad key, and the team screen gives it to a member', async () => {
    const page = await (await newContext(browser)).newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, server.url, `/project/${pid}/team`);
    await Promise.all([page.waitForURL(/\/roles$/), page.click('main a:has-text("Roles")')]);
    expect(await page.textContent('tr[data-role=owner]')).toContain('Built in, cannot be changed');
    await Promise.all([page.waitForURL(/preset=operator/), page.click('text=Add the Operator role')]);
    expect(await page.inputValue('input[name=name]')).toBe('Operator');
    expect(await page.isChecked('input[name=bit_RunTasks]')).toBe(true);
    expect(await page.isChecked('input[name=bit_EditInventories]')).toBe(true);
    expect(await page.isChecked('input[name=bit_ManageResources]')).toBe(false);
    await page.fill('input[name=slug]', 'Bad Key');
    await submit(page, /edit=new/);
    expect(await page.textContent('[data-field=slug] .field-error')).toContain('must start with a letter');
    await page.fill('input[name=slug]', 'operator');
    await submit(page, /flash=role_saved/);
    expect(await page.textContent('.snackbar')).toContain('Role Operator saved');
    const [operator] = await customRoles();
    expect(operator).toMatchObject({ slug: 'operator', name: 'Operator', permissions: 1 | 16 | 32 });
    expect(await page.textContent('tr[data-role=operator] .role-allows')).toBe('Run tasks, See templates, Edit inventories, Approve workflow gates');

    await page.goto(`${server.url}/project/${pid}/team`);
    const row = page.locator(`tr[data-member="${annId}"]`);
    await row.locator('select[name=role]').selectOption('operator');
    await Promise.all([page.waitForURL(/flash=member_saved/), row.locator('button[type=submit]').click()]);
    expect((await server.deps.db.selectFrom('project_user').select('role').where('project_id', '=', pid).where('user_id', '=', annId).executeTakeFirstOrThrow()).role).toBe('operator');
    expect(await page.locator(`tr[data-member="${annId}"] select[name=role] option:checked`).textContent()).toBe('Operator');
    await page.context().close();
  });

  it('fits 1280 and 375 px in both themes, the role dialog included', async () => {
    for (const width of [1280, 375]) {
      for (const theme of ['light', 'dark'] as const) {
        const context = await newContext(browser);
        await context.addCookies([{ name: 'theme', value: theme, url: server.url }]);
        const page = await context.newPage();
        await page.setViewportSize({ width, height: 900 });
        await signIn(page, server.url, `/project/${pid}/roles`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, `roles-${width}-${theme}`);
        const [operator] = await customRoles();
        await page.goto(`${server.url}/project/${pid}/roles?edit=${operator!.id}`);
        await page.waitForSelector('dialog[open] input[name=bit_ReadAudit]');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, `roles-dialog-${width}-${theme}`);
        await page.goto(`${server.url}/project/${pid}/team`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, `team-roles-${width}-${theme}`);
        await context.close();
      }
    }
  });

  it('admins define a server role on /roles (the same dialog); a project lists it, fixed there, and the team screen offers it', async () => {
    const page = await (await newContext(browser)).newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, server.url, '/');
    await Promise.all([page.waitForURL(/\/roles$/), page.click('.user-menu summary').then(() => page.click('.user-menu a:has-text("Server roles")'))]);
    await Promise.all([page.waitForURL(/edit=new/), page.click('main a:has-text("New role")')]);
    await page.fill('input[name=name]', 'Auditor');
    await page.check('input[name=bit_ReadAudit]');
    await page.check('input[name=bit_ViewTemplates]');
    await submit(page, /flash=role_saved/);
    expect(await server.deps.db.selectFrom('server_role').select(['slug', 'permissions']).execute()).toEqual([{ slug: 'auditor', permissions: 1024 | 16 }]);
    expect(await page.textContent('tr[data-role=auditor] .role-allows')).toBe('See templates, Read the audit log');
    await page.goto(`${server.url}/project/${pid}/roles`);
    expect(await page.textContent('tr[data-role=auditor]')).toContain('Server-wide role: an admin changes it under Server roles');
    expect(await page.locator('tr[data-role=auditor] a').count()).toBe(0);
    await page.goto(`${server.url}/project/${pid}/team`);
    expect(await page.locator(`tr[data-member="${annId}"] select[name=role] option[value=auditor]`).textContent()).toBe('Auditor');
    await page.context().close();
  });
});
