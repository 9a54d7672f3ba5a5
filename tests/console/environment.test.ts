import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { adminApi, insertScriptProject } from './support/real-tasks.ts';
import { measurePageJs } from './support/js-weight.ts';

interface Environment { id: number; name: string; json: string; env: string | null; secrets: { id: number; name: string; type: string; secret: string }[] }

/** Saves the dialog and waits for the list it redirects to (the page before may carry the same flash). */
async function saveGroup(page: Page): Promise<void> {
  await follow(page, 'button:has-text("Save")');
  expect(new URL(page.url()).searchParams.get('flash')).toBe('environment_saved');
}
let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let projectId = 0;
let api: Awaited<ReturnType<typeof adminApi>>;
const TOO_COMPLEX = 'Oops! This JSON structure is a little too complex to display as a table.';

beforeAll(async () => {
  server = await startConsoleServer();
  projectId = (await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh')).project.id;
  api = await adminApi(server);
  browser = await launchBrowser();
  context = await newContext(browser);
  page = await context.newPage();
  await signIn(page, server.url, `/project/${projectId}/environment`);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** WCAG contrast ratio of an element's text colour against the first opaque background behind it. */
function textContrast(element: Locator): Promise<number> {
  return element.evaluate(async (el) => {
    await Promise.all(el.getAnimations().map((a) => a.finished));
    const rgb = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number);
    let back = el as Element | null;
    while (back && rgb(getComputedStyle(back).backgroundColor)[3] === 0) back = back.parentElement;
    const luminance = ([r, g, b]: number[]) => [r, g, b].map((c) => c! / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
      .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i]!, 0);
    const [a, b] = [luminance(rgb(getComputedStyle(el).color)), luminance(rgb(back ? getComputedStyle(back).backgroundColor : 'rgb(255,255,255)'))];
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  });
}

/** The project's groups besides the fixture's own "Empty" one. */
const groups = async () => (await api.get<Environment[]>(`/api/project/${projectId}/environment`)).filter((g) => g.name !== 'Empty');

/** Replaces the text of a CodeMirror editor of the dialog by typing it. */
async function typeInto(field: 'json' | 'env', text: string) {
  const content = page.locator(`[data-field-editor=${field}] .cm-content`);
  await content.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

describe('variable groups', () => {
  it('ships no editor code on the list page; CodeMirror loads only once the dialog is open', { timeout: 90_000 }, async () => {
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const list = await measurePageJs(`${server.url}/project/${projectId}/environment`, cookie);
    expect(list.modules.filter((m) => /codemirror|JsonTableEditor/i.test(m))).toEqual([]);
    expect(list.html).not.toContain('astro-island');
    const dialog = await measurePageJs(`${server.url}/project/${projectId}/environment?edit=new`, cookie);
    const island = dialog.modules.find((m) => /JsonTableEditor/.test(m));
    expect(island).toBeDefined();
    // The island itself holds no editor: it imports CodeMirror dynamically, when it mounts.
    expect(dialog.modules.filter((m) => /codemirror/i.test(m))).toEqual([]);
    expect(await (await fetch(island!)).text()).toMatch(/import\(\s*[`'"]\.\/codemirror-json\.[\w-]+\.js[`'"]\s*\)/);

    const requests: string[] = [];
    page.on('request', (req) => requests.push(req.url()));
    await page.goto(`${server.url}/project/${projectId}/environment`);
    await page.waitForLoadState('networkidle');
    expect(requests.filter((u) => /codemirror|JsonTableEditor/i.test(u))).toEqual([]);
    await page.click('a:has-text("New variable group")');
    await page.locator('[data-field-editor=json] .cm-content').waitFor();
    expect(requests.some((u) => /codemirror/i.test(u))).toBe(true);
    page.removeAllListeners('request');
  });

  it('asks for a name in the seed\'s words', { timeout: 60_000 }, async () => {
    await page.goto(`${server.url}/project/${projectId}/environment?edit=new`);
    await page.click('button:has-text("Save")');
    expect(await page.textContent('#name-error')).toBe('Name is required');
    expect(await groups()).toEqual([]);
  });

  it('keeps the unpressed JSON/Table button readable before, during and after focus, in both themes', { timeout: 120_000 }, async () => {
    for (const theme of ['light', 'dark']) {
      await context.addCookies([{ name: 'theme', value: theme, url: server.url }]);
      await page.goto(`${server.url}/project/${projectId}/environment?edit=new`);
      const json = page.locator('[data-field-editor=json]');
      await json.locator('.cm-content').waitFor();
      const jsonButton = json.locator('button:has-text("JSON")');
      const tableButton = json.locator('button:has-text("Table")');
      await tableButton.click();
      await expect.poll(() => json.getAttribute('data-mode')).toBe('table');
      expect(await textContrast(jsonButton), `${theme}, unpressed`).toBeGreaterThanOrEqual(4.5);
      await jsonButton.focus();
      expect(await textContrast(jsonButton), `${theme}, focused`).toBeGreaterThanOrEqual(4.5);
      await jsonButton.hover();
      expect(await textContrast(jsonButton), `${theme}, hovered`).toBeGreaterThanOrEqual(4.5);
      await jsonButton.click();
      await json.locator('.cm-content').waitFor();
      await tableButton.click();
      await page.mouse.move(0, 0);
      await expect.poll(() => json.getAttribute('data-mode')).toBe('table');
      expect(await textContrast(jsonButton), `${theme}, after focus`).toBeGreaterThanOrEqual(4.5);
    }
    await context.addCookies([{ name: 'theme', value: 'light', url: server.url }]);
  });

  it('saves a group with an extra variable, an env variable and a secret, switching JSON ⇄ table both ways', { timeout: 240_000 }, async () => {
    await page.goto(`${server.url}/project/${projectId}/environment?edit=new`);
    await page.fill('input[name=name]', 'Staging');
    await typeInto('json', '{"app_version": "1.2"}');
    const json = page.locator('[data-field-editor=json]');
    await json.locator('button:has-text("Table")').click();
    await expect.poll(() => json.getAttribute('data-mode')).toBe('table');
    expect(await json.locator('button:has-text("Table")').getAttribute('aria-pressed')).toBe('true');
    expect(await json.locator('input[aria-label="Key 1"]').inputValue()).toBe('app_version');
    expect(await json.locator('input[aria-label="Value 1"]').inputValue()).toBe('1.2');
    await json.locator('input[aria-label="Value 1"]').fill('1.3');
    await json.locator('button:has-text("JSON")').click();
    await json.locator('.cm-content').waitFor();
    expect(await json.locator('.cm-content').innerText()).toContain('"app_version": "1.3"');

    // Only an object can become a table: the warning shows and the editor stays in JSON.
    const env = page.locator('[data-field-editor=env]');
    await typeInto('env', '[{"level": 1}]');
    await env.locator('button:has-text("Table")').click();
    expect(await env.locator('[role=alert]').innerText()).toBe(TOO_COMPLEX);
    expect(await env.getAttribute('data-mode')).toBe('json');
    // Invalid JSON shows the parse error.
    await typeInto('env', '{"broken": ');
    await env.locator('button:has-text("Table")').click();
    expect(await env.locator('[role=alert]').innerText()).toMatch(/^Invalid JSON: .+/);
    expect(await env.getAttribute('data-mode')).toBe('json');
    await typeInto('env', '{"DEPLOY_ENV": "staging"}');
    await env.locator('button:has-text("Table")').click();
    await expect.poll(() => env.getAttribute('data-mode')).toBe('table');
    expect(await env.locator('input[aria-label="Key 1"]').inputValue()).toBe('DEPLOY_ENV');

    await page.fill('input[name="secret.0.name"]', 'db_password');
    await page.fill('input[name="secret.0.value"]', 's3cret-value');
    await screenshot(page, 'environment-dialog-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'environment-dialog-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 800 });
    await saveGroup(page);
    expect(await page.textContent('.snackbar')).toContain('Variable group Staging saved');

    const [saved] = await groups();
    expect(saved!.name).toBe('Staging');
    expect(JSON.parse(saved!.json)).toEqual({ app_version: '1.3' });
    expect(JSON.parse(saved!.env!)).toEqual({ DEPLOY_ENV: 'staging' });
    expect(saved!.secrets.map((s) => [s.name, s.type])).toEqual([['db_password', 'var']]);
    await screenshot(page, 'environment-list-1280');

    // Editing shows the secret's name, never its value; an empty value keeps it, removing deletes it.
    await page.click(`[data-environment="${saved!.id}"] a:has-text("Edit")`);
    await page.locator('[data-field-editor=json] .cm-content').waitFor();
    expect(await page.inputValue('input[name="secret.0.name"]')).toBe('db_password');
    expect(await page.inputValue('input[name="secret.0.value"]')).toBe('');
    expect(await page.content()).not.toContain('s3cret-value');
    await page.fill('input[name="secret.1.name"]', 'API_TOKEN');
    await page.selectOption('select[name="secret.1.type"]', 'env');
    await page.fill('input[name="secret.1.value"]', 'token-value');
    // "Add secret" adds an empty row; one added and removed again before saving is dropped.
    await page.click('button:has-text("Add secret")');
    await page.fill('input[name="secret.2.name"]', 'region');
    await page.fill('input[name="secret.2.value"]', 'eu-west');
    await page.click('button:has-text("Add secret")');
    await page.fill('input[name="secret.3.name"]', 'never_saved');
    await page.check('input[name="secret.3.remove"]');
    await saveGroup(page);
    const [again] = await groups();
    expect(again!.secrets.map((s) => [s.name, s.type]).sort()).toEqual([['API_TOKEN', 'env'], ['db_password', 'var'], ['region', 'var']]);
    const stored = await server.deps.db.selectFrom('access_key').select(['id', 'secret']).where('environment_id', '=', saved!.id).execute();
    expect(stored).toHaveLength(3);

    await page.goto(`${server.url}/project/${projectId}/environment?edit=${saved!.id}`);
    const rowOf = await page.locator('input[name$=".name"]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    await page.check(`input[name="secret.${rowOf.indexOf('db_password')}.remove"]`);
    await saveGroup(page);
    expect((await groups())[0]!.secrets.map((s) => s.name).sort()).toEqual(['API_TOKEN', 'region']);
  });

  it('keeps each value\'s JSON type in Table mode, at 1280 and 375 px', { timeout: 180_000 }, async () => {
    // Spaced and ordered as a person types it: Table and back without an edit must not touch a byte.
    const typed = '{"debug": true,  "count": 3, "ratio": -1.5e3,\n "nothing": null, "flag_text": "false", "nested": {"ports": [80, 443]}}';
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${server.url}/project/${projectId}/environment?edit=new`);
      await page.fill('input[name=name]', `Typed ${width}`);
      await typeInto('json', typed);
      const json = page.locator('[data-field-editor=json]');
      const posted = () => json.locator('input[type=hidden][name=json]').inputValue();
      const row = (n: number) => json.locator(`tbody tr:nth-child(${n})`);
      const showTable = async () => {
        await json.locator('button:has-text("Table")').click();
        await expect.poll(() => json.getAttribute('data-mode')).toBe('table');
      };
      const showJson = async () => {
        await json.locator('.json-editor-modes button:has-text("JSON")').click();
        await json.locator('.cm-content').waitFor();
      };
      await showTable();
      expect(await json.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-type'))))
        .toEqual(['boolean', 'number', 'number', 'null', 'string', 'json']);
      expect(await json.locator('select[aria-label="Type 1"]').inputValue()).toBe('boolean');
      expect(await json.locator('select[aria-label="Type 1"] option:checked').innerText()).toBe('True/false');
      expect(await json.getByRole('switch', { name: 'Value 1' }).isChecked()).toBe(true);
      expect(await json.locator('input[aria-label="Value 2"]').inputValue()).toBe('3');
      expect(await row(4).locator('td:nth-child(3)').innerText()).toBe('null');
      expect(await json.locator('input[aria-label="Value 5"]').inputValue()).toBe('false');
      expect(await json.locator('select[aria-label="Type 5"]').inputValue()).toBe('string');
      expect(await row(6).locator('td:nth-child(2)').innerText()).toBe('JSON');
      expect(await row(6).locator('code').innerText()).toBe('{"ports":[80,443]}');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await screenshot(page, `environment-table-types-${width}`);
      await showJson();
      expect(await posted()).toBe(typed);

      // An edit keeps every type: the boolean stays a boolean, the number a number.
      await showTable();
      await json.getByRole('switch', { name: 'Value 1' }).uncheck();
      await json.locator('input[aria-label="Value 2"]').fill('4');
      // a number cell holding no number is marked, leaves the JSON alone and blocks the save
      await json.locator('input[aria-label="Value 3"]').fill('lots');
      expect(await json.locator('input[aria-label="Value 3"]').getAttribute('aria-invalid')).toBe('true');
      const beforeInvalid = JSON.parse(await posted());
      expect(beforeInvalid.ratio).toBe(-1500);
      expect(await json.locator('input[aria-label="Value 3"]').evaluate((input: HTMLInputElement) => input.checkValidity())).toBe(false);
      // kept as typed, said beside the cell, and Save sends nothing (the form is novalidate: the pattern alone never stopped it)
      expect(await json.locator('input[aria-label="Value 3"]').inputValue()).toBe('lots');
      expect(await row(3).locator('.field-error').textContent()).toBe('A number, such as 3 or -1.5');
      const count = (await groups()).length;
      await page.click('button:has-text("Save")');
      expect(page.url()).not.toContain('flash=');
      expect((await groups()).length).toBe(count);
      await json.locator('input[aria-label="Value 3"]').fill('0.25');
      expect(await row(3).locator('.field-error').count()).toBe(0);
      const edited = { debug: false, count: 4, ratio: 0.25, nothing: null, flag_text: 'false', nested: { ports: [80, 443] } };
      expect(JSON.parse(await posted())).toEqual(edited);
      // the nested cell is read-only: its button opens JSON mode
      await row(6).locator('button:has-text("Edit as JSON")').click();
      await json.locator('.cm-content').waitFor();
      expect(await json.getAttribute('data-mode')).toBe('json');
      await saveGroup(page);
      const saved = (await groups()).find((g) => g.name === `Typed ${width}`)!;
      expect(JSON.parse(saved.json)).toEqual(edited);
      await api.send('DELETE', `/api/project/${projectId}/environment/${saved.id}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('works without JavaScript: textareas, a plain form post, and delete with confirmation', { timeout: 150_000 }, async () => {
    const plain = await newContext(browser, { javaScriptEnabled: false });
    const noJs = await plain.newPage();
    await signIn(noJs, server.url, `/project/${projectId}/environment`);
    await follow(noJs, 'a:has-text("New variable group")');
    expect(await noJs.locator('textarea[name=json]').count()).toBe(1);
    // each textarea is named by its field's heading, for screen readers without the island
    expect(await noJs.getByRole('textbox', { name: 'Extra variables' }).count()).toBe(1);
    expect(await noJs.getByRole('textbox', { name: 'Environment variables' }).count()).toBe(1);
    await noJs.fill('input[name=name]', 'Plain');
    await noJs.fill('textarea[name=json]', '{"region": "eu"}');
    await noJs.fill('textarea[name=env]', '{"nested": ');
    await noJs.fill('input[name="secret.0.name"]', 'KEY');
    await noJs.fill('input[name="secret.0.value"]', 'v');
    await noJs.click('button:has-text("Save")');
    expect(await noJs.textContent('#env-error')).toMatch(/^Invalid JSON: /);
    await noJs.fill('textarea[name=env]', '{"HOME_DIR": "/srv"}');
    await noJs.fill('input[name="secret.0.value"]', 'v');
    await saveGroup(noJs);
    const plainGroup = (await groups()).find((g) => g.name === 'Plain')!;
    expect(JSON.parse(plainGroup.json)).toEqual({ region: 'eu' });
    expect(JSON.parse(plainGroup.env!)).toEqual({ HOME_DIR: '/srv' });
    expect(plainGroup.secrets.map((s) => s.name)).toEqual(['KEY']);
    await screenshot(noJs, 'environment-list-no-js');

    await noJs.click(`[data-environment="${plainGroup.id}"] a:has-text("Delete")`);
    expect(await noJs.textContent('dialog[open]')).toContain('Delete variable group "Plain"?');
    await Promise.all([noJs.waitForURL(/flash=environment_deleted/), noJs.click('dialog[open] button:has-text("Yes")')]);
    expect((await groups()).map((g) => g.name)).toEqual(['Staging']);
    await plain.close();
  });
});
