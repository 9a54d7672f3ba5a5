import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { follow, newContext, screenshot, signIn } from './support/browser.ts';
import { LANGUAGES } from '../../src/console/languages.ts';
import { api, browser, ids, MESSAGES, openEditor, openPage, send, server, setUpTemplateForm, shownMessages, template, templateIdOf } from './support/template-form-world.ts';

// The template dialog, part 2: an ansible template made and edited, the commit-check cron, each
// app's dialog, the form without JavaScript, the messages in every language (part 1:
// template-form.test.ts).
setUpTemplateForm();

describe('the template dialog in Chromium', () => {
  let ansibleId = 0;
  it('creates an ansible template with a vault, task parameters and a commit check schedule', { timeout: 300_000 }, async () => {
    const page = await openPage(`/project/${ids.project}/templates/new/edit?app=ansible`);
    await page.fill('input[name=name]', 'Site');
    await page.fill('input[name=playbook]', 'site.yml');
    await page.selectOption('select[name=inventory_id]', String(ids.inventory));
    await page.selectOption('select[name=repository_id]', String(ids.localRepo));
    await page.selectOption('select[name=environment_id]', String(ids.env));
    await openEditor(page, 'vaults');
    await page.click('[data-editor=vaults] >> text=Add vault');
    await page.fill('[data-vault-field=name]', ' Prod ');
    await page.selectOption('[data-vault-field=key]', String(ids.vaultKey));
    await page.click('[data-vault-field=save]');
    await page.fill('input[name=limit]', 'web');
    await page.check('input[name=allow_override_limit]');
    await page.check('input[name=allow_debug]');
    await page.check('input[name=skip_galaxy_install]');
    await page.check('input[name=cron_enabled]');
    await page.selectOption('select[name=cron_repository_id]', String(ids.localRepo));
    await page.selectOption('select[name=cron_format]', '*/5 * * * *');
    await screenshot(page, 'template-dialog-ansible-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'template-dialog-ansible-375');
    await Promise.all([page.waitForURL(/\/templates\/\d+\/tasks\?flash=template_created/), page.click('dialog footer button[type=submit]')]);
    ansibleId = templateIdOf(page.url());
    const stored = await template(ansibleId);
    expect(stored).toMatchObject({ name: 'Site', app: 'ansible', inventory_id: ids.inventory });
    expect(stored.vaults).toEqual([expect.objectContaining({ name: 'prod', type: 'password', vault_key_id: ids.vaultKey })]);
    expect(stored.task_params).toMatchObject({ limit: 'web', allow_override_limit: true, allow_debug: true, allow_override_tags: false, skip_galaxy_install: true });
    const schedules = (await send<{ cron_format: string; repository_id: number; active: boolean }[]>('GET', `/api/project/${ids.project}/templates/${ansibleId}/schedules`)).json;
    expect(schedules).toEqual([expect.objectContaining({ cron_format: '*/5 * * * *', repository_id: ids.localRepo, active: true })]);
    await page.close();
  });

  it('edits the ansible template: fields come back filled, the vault list is kept, the commit check is removed when turned off', { timeout: 300_000 }, async () => {
    const page = await openPage(`/project/${ids.project}/templates/${ansibleId}/edit`);
    expect(await page.locator('dialog h2').textContent()).toBe('Edit template Site');
    expect(await page.inputValue('input[name=playbook]')).toBe('site.yml');
    expect(await page.inputValue('input[name=limit]')).toBe('web');
    expect(await page.isChecked('input[name=cron_enabled]')).toBe(true);
    expect(await page.isChecked('input[name=skip_galaxy_install]')).toBe(true);
    expect(await page.inputValue('select[name=cron_format]')).toBe('*/5 * * * *');
    await openEditor(page, 'vaults');
    expect(await page.$$eval('[data-vault]', (rows) => rows.map((r) => r.getAttribute('data-vault')))).toEqual(['prod']);
    await page.fill('input[name=name]', 'Site (prod)');
    await page.uncheck('input[name=cron_enabled]');
    await page.check('input[name=type][value=build]');
    await page.fill('input[name=start_version]', '1.0.0');
    await Promise.all([page.waitForURL(new RegExp(`/templates/${ansibleId}/tasks\\?flash=template_saved`)), page.click('dialog footer button[type=submit]')]);
    const stored = await template(ansibleId);
    expect(stored).toMatchObject({ name: 'Site (prod)', type: 'build' });
    expect(stored.vaults).toHaveLength(1);
    expect((await send<unknown[]>('GET', `/api/project/${ids.project}/templates/${ansibleId}/schedules`)).json).toEqual([]);
    await page.close();
  });

  it('refuses a commit-check cron the server does not accept (POST /schedules/validate before saving)', async () => {
    const form = new URLSearchParams({
      _form: 'template', type: 'task', name: 'Bad cron', playbook: 'run.sh', repository_id: String(ids.repo), environment_id: String(ids.env),
      cron_enabled: 'on', cron_repository_id: String(ids.repo), cron_format: 'every now and then',
    });
    const res = await fetch(`${server.url}/project/${ids.project}/templates/new/edit?app=bash`, {
      method: 'POST', body: form, redirect: 'manual', headers: { cookie: api.cookie, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toMatch(/id="cron_format-error"[^>]*>Cron: /);
    const all = (await send<{ name: string }[]>('GET', `/api/project/${ids.project}/templates`)).json;
    expect(all.map((t) => t.name)).not.toContain('Bad cron');
  });
});

describe('the template dialog per app, as the server renders it', () => {
  const get = (path: string) => fetch(server.url + path, { headers: { cookie: api.cookie }, redirect: 'manual' });

  it('gives terraform a workspace, auto-approve options and 1200 px; python its script and 800 px; unknown apps and templates 404', async () => {
    const terraform = await (await get(`/project/${ids.project}/templates/new/edit?app=terraform`)).text();
    expect(terraform).toContain('New Terraform template');
    expect(terraform).toMatch(/class="[^"]*tpl-w1200/);
    expect(terraform).toContain('Default workspace (optional)');
    expect(terraform).toContain('Subdirectory path (optional)');
    expect(terraform).toContain('name="allow_auto_approve"');
    expect(terraform).not.toContain('name="vaults"');
    const python = await (await get(`/project/${ids.project}/templates/new/edit?app=python`)).text();
    expect(python).toMatch(/class="[^"]*tpl-w800/);
    expect(python).toContain('Script filename');
    expect(python).not.toContain('name="inventory_id"');
    expect((await get(`/project/${ids.project}/templates/new/edit?app=nope`)).status).toBe(404);
    expect((await get(`/project/${ids.project}/templates/999999/edit`)).status).toBe(404);
  });
});

describe('the template dialog without JavaScript', () => {
  it('creates a simple bash template through the plain form, with the seed messages first', { timeout: 300_000 }, async () => {
    const plain = await newContext(browser, { javaScriptEnabled: false });
    const page = await plain.newPage();
    await signIn(page, server.url, `/project/${ids.project}/templates/new/edit?app=bash`);
    // the editors are plain fields posting the same names
    expect(await page.locator('textarea[name=survey_vars]').count()).toBe(1);
    expect(await page.locator('textarea[name=arguments]').count()).toBe(1);
    await page.fill('textarea[name=survey_vars]', '[{"name":"size","title":"Size","type":"enum","values":[]}]');
    await follow(page, 'dialog footer button[type=submit]');
    expect(await shownMessages(page)).toEqual(expect.arrayContaining([
      MESSAGES.name_required, MESSAGES.script_filename_required, MESSAGES.repository_required, MESSAGES.environment_required,
      `Size: ${MESSAGES.enum_no_values}`,
    ]));
    await page.fill('input[name=name]', 'Plain');
    await page.fill('input[name=playbook]', 'run.sh');
    await page.selectOption('select[name=repository_id]', String(ids.localRepo));
    await page.selectOption('select[name=environment_id]', String(ids.env));
    await page.fill('textarea[name=survey_vars]', '[{"name":"who","title":"Who","type":"string","required":true}]');
    await page.fill('textarea[name=arguments]', '--greet\n\n');
    await page.click('input[name=type][value=build]');
    await follow(page, 'dialog footer button[type=submit]');
    expect(await shownMessages(page)).toEqual([MESSAGES.start_version_required]);
    await page.fill('input[name=start_version]', '0.1.0');
    await Promise.all([page.waitForURL(/\/templates\/\d+\/tasks\?flash=template_created/), page.click('dialog footer button[type=submit]')]);
    const stored = await template(templateIdOf(page.url()));
    expect(stored).toMatchObject({ name: 'Plain', type: 'build', arguments: '["--greet"]' });
    expect(stored.survey_vars).toEqual([expect.objectContaining({ name: 'who', title: 'Who', required: true })]);
    await plain.close();
  });
});

describe('the template dialog messages', () => {
  it('are in every locale file, translated', () => {
    const english = JSON.parse(readFileSync(new URL('../../locales/en/translation.json', import.meta.url), 'utf8')) as { templateForm: Record<string, string> };
    for (const [key, text] of Object.entries(MESSAGES)) expect(english.templateForm[key], key).toBe(text);
    for (const { code } of LANGUAGES.filter((l) => l.code !== 'en')) {
      const messages = (JSON.parse(readFileSync(new URL(`../../locales/${code}/translation.json`, import.meta.url), 'utf8')) as { templateForm: Record<string, string> }).templateForm;
      for (const key of Object.keys(MESSAGES)) {
        expect(messages[key], `${code} ${key}`).toBeTruthy();
        expect(messages[key], `${code} ${key}`).not.toBe(english.templateForm[key]);
      }
    }
  });
});
