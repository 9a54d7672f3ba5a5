import { describe, expect, it } from 'vitest';
import { follow, screenshot } from './support/browser.ts';
import { ids, MESSAGES, openEditor, openPage, setUpTemplateForm, shownMessages, template, templateIdOf } from './support/template-form-world.ts';

// The template dialog, part 1: the seed's rules, the editors, a bash template (part 2:
// template-form-ansible.test.ts; what both set up: support/template-form-world.ts).
setUpTemplateForm();

describe('the template dialog in Chromium', () => {
  it('shows every template rule of seed 001 §5 under its field after a save', { timeout: 300_000 }, async () => {
    const page = await openPage(`/project/${ids.project}/templates/new/edit?app=ansible`);
    expect(await page.locator('dialog h2').textContent()).toBe('New Ansible template');
    // 1200 px for ansible
    expect(await page.$eval('dialog > article', (a) => getComputedStyle(a).maxWidth)).toBe('1200px');
    await follow(page, 'dialog footer button[type=submit]');
    await page.waitForSelector('dialog .field-error');
    expect(await shownMessages(page)).toEqual(expect.arrayContaining([
      MESSAGES.name_required, MESSAGES.playbook_filename_required, MESSAGES.inventory_required, MESSAGES.repository_required, MESSAGES.environment_required,
    ]));
    // build and deploy tabs; the commit check without its repository
    await page.check('input[name=type][value=build]');
    await page.check('input[name=cron_enabled]');
    await follow(page, 'dialog footer button[type=submit]');
    await page.waitForSelector('dialog .field-error');
    expect(await shownMessages(page)).toEqual(expect.arrayContaining([MESSAGES.start_version_required]));
    expect(await page.locator('[data-field=cron_repository_id] .field-error').textContent()).toBe(MESSAGES.repository_required);
    expect(await page.isVisible('input[name=start_version]')).toBe(true);
    await page.check('input[name=type][value=deploy]');
    expect(await page.isVisible('input[name=start_version]')).toBe(false);
    await follow(page, 'dialog footer button[type=submit]');
    await page.waitForSelector('dialog .field-error');
    expect(await shownMessages(page)).toEqual(expect.arrayContaining([MESSAGES.build_template_required]));
    await page.close();
  });

  it('checks survey variables, vaults and arguments in their editors as they are edited', { timeout: 300_000 }, async () => {
    const page = await openPage(`/project/${ids.project}/templates/new/edit?app=ansible`);
    // survey variable editor
    await openEditor(page, 'survey');
    await page.click('[data-editor=survey] >> text=Add variable');
    await page.click('[data-sv=save]');
    expect(await page.locator('#sv-name-error').textContent()).toBe(MESSAGES.name_required);
    expect(await page.locator('#sv-title-error').textContent()).toBe(MESSAGES.title_required);
    await page.fill('[data-sv=name]', 'color');
    await page.fill('[data-sv=title]', 'Colour');
    await page.selectOption('[data-sv=type]', 'enum');
    await page.click('[data-sv=save]');
    expect(await page.locator('#sv-values-error').textContent()).toBe(MESSAGES.enum_no_values);
    await page.click('[data-editor=survey] >> text=Add value');
    expect(await page.locator('#sv-values-error').textContent()).toBe(MESSAGES.enum_empty_name);
    await page.fill('[data-sv-value-name="0"]', 'red');
    await page.click('[data-editor=survey] >> text=Add value');
    await page.fill('[data-sv-value-name="1"]', 'red');
    expect(await page.locator('#sv-values-error').textContent()).toBe(MESSAGES.enum_unique_names);

    // vault editor
    await openEditor(page, 'vaults');
    const addVault = async () => page.click('[data-editor=vaults] >> text=Add vault');
    await addVault();
    await page.click('[data-vault-field=save]');
    expect(await page.locator('#vault-key-error').textContent()).toBe(MESSAGES.vault_required);
    await page.selectOption('[data-vault-field=key]', String(ids.vaultKey));
    await page.click('[data-vault-field=save]');
    await addVault();
    await page.selectOption('[data-vault-field=key]', String(ids.vaultKey));
    await page.click('[data-vault-field=save]');
    expect(await page.locator('#vault-name-error').textContent()).toBe(MESSAGES.vault_name_default);
    await page.fill('[data-vault-field=name]', 'prod');
    await page.click('[data-vault-field=save]');
    await addVault();
    await page.fill('[data-vault-field=name]', '  PROD ');
    await page.selectOption('[data-vault-field=type]', '');
    await page.click('[data-vault-field=save]');
    expect(await page.locator('#vault-name-error').textContent()).toBe(MESSAGES.vault_name_unique);
    expect(await page.locator('#vault-type-error').textContent()).toBe(MESSAGES.vault_type_required);
    await page.fill('[data-vault-field=name]', 'dev');
    await page.selectOption('[data-vault-field=type]', 'script');
    expect(await page.locator('#vault-script-error').textContent()).toBe(MESSAGES.vault_script_required);
    await page.fill('[data-vault-field=script]', 'vault/secret.py');
    expect(await page.locator('#vault-script-error').textContent()).toBe(MESSAGES.vault_script_client_required);
    await page.fill('[data-vault-field=script]', 'vault/secret-client.py');
    await page.click('[data-vault-field=save]');
    expect(await page.$$eval('[data-vault]', (rows) => rows.map((r) => r.getAttribute('data-vault')))).toEqual(['default', 'prod', 'dev']);

    // args picker
    await openEditor(page, 'args');
    await page.fill('[data-arg-input]', '   ');
    await page.click('[data-arg-add]');
    expect(await page.locator('#arg-error').textContent()).toBe(MESSAGES.arg_required);
    await page.fill('[data-arg-input]', '  --check ');
    await page.keyboard.press('Enter');
    expect(await page.$$eval('[data-arg]', (rows) => rows.map((r) => r.getAttribute('data-arg')))).toEqual(['--check']);
    expect(await page.locator('#arg-error').count()).toBe(0);
    await page.close();
  });

  it('creates a bash template with a required enum survey variable and arguments; 800 px wide, branches of the chosen repository offered', { timeout: 300_000 }, async () => {
    const page = await openPage(`/project/${ids.project}/templates/new/edit?app=bash`);
    expect(await page.$eval('dialog > article', (a) => getComputedStyle(a).maxWidth)).toBe('800px');
    expect(await page.locator('select[name=inventory_id]').count()).toBe(0);
    expect(await page.locator('fieldset[data-field=vaults]').count()).toBe(0);
    await page.fill('input[name=name]', 'Say hello');
    await page.fill('input[name=playbook]', 'run.sh');
    await page.selectOption('select[name=repository_id]', String(ids.repo));
    await page.waitForFunction(() => document.querySelectorAll('#tpl-branches option').length === 2, null, { timeout: 30_000 });
    expect(await page.$$eval('#tpl-branches option', (o) => o.map((x) => (x as HTMLOptionElement).value).sort())).toEqual(['feature-x', 'main']);
    await page.fill('input[name=git_branch]', 'feature-x');
    await page.selectOption('select[name=environment_id]', String(ids.env));
    await openEditor(page, 'survey');
    await page.click('[data-editor=survey] >> text=Add variable');
    await page.fill('[data-sv=name]', 'color');
    await page.fill('[data-sv=title]', 'Colour');
    await page.selectOption('[data-sv=type]', 'enum');
    await page.click('[data-editor=survey] >> text=Add value');
    await page.fill('[data-sv-value-name="0"]', 'Red');
    await page.fill('[data-sv-value-value="0"]', 'red');
    await page.click('[data-editor=survey] >> text=Add value');
    await page.fill('[data-sv-value-name="1"]', 'Blue');
    await page.fill('[data-sv-value-value="1"]', 'blue');
    await page.check('[data-sv=required]');
    await page.check('[data-sv=do_not_store]');
    await screenshot(page, 'template-dialog-survey-var-1280');
    await page.click('[data-sv=save]');
    await page.waitForSelector('[data-survey-var=color]');
    await openEditor(page, 'args');
    await page.fill('[data-arg-input]', '--name');
    await page.click('[data-arg-add]');
    await page.fill('[data-arg-input]', 'world');
    await page.click('[data-arg-add]');
    await page.check('input[name=allow_override_args_in_task]');
    await screenshot(page, 'template-dialog-bash-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'template-dialog-bash-375');
    await page.setViewportSize({ width: 1280, height: 800 });
    await Promise.all([page.waitForURL(/\/templates\/\d+\/tasks\?flash=template_created/), page.click('dialog footer button[type=submit]')]);
    const stored = await template(templateIdOf(page.url()));
    expect(stored).toMatchObject({ name: 'Say hello', app: 'bash', type: '', playbook: 'run.sh', git_branch: 'feature-x', arguments: '["--name","world"]', inventory_id: null });
    expect(stored.survey_vars).toEqual([expect.objectContaining({
      name: 'color', title: 'Colour', type: 'enum', required: true, do_not_store: true, values: [{ name: 'Red', value: 'red' }, { name: 'Blue', value: 'blue' }],
    })]);
    await page.close();
  });
});
