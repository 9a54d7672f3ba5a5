import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './console-server.ts';
import { launchBrowser, screenshot, signedInPage } from './browser.ts';
import { adminApi, waitForTask } from './real-tasks.ts';

// The steps of first-hour-journey*.test.ts, one file per screen width so that the two long
// journeys run side by side on two workers.

/**
 * Issue 29's "Done when" journey: what a new user does in the first hour, in Chromium, checking
 * what the screen shows at each step — the demo project from the new-project form, each demo
 * template run and read tab by tab while and after it runs, a variable group edited in Table
 * mode, a schedule from the cron builder, a key, an inventory and a template with a long name.
 */
let server: ConsoleServer;
let browser: Browser;
let api: Awaited<ReturnType<typeof adminApi>>;

/** Starts the file's console server and browser connection (and ends them after its tests). */
export function setUpFirstHour(): void {
  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launchBrowser();
    api = await adminApi(server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
}

const STEP = 60_000;
const FINISHED = ['success', 'error', 'stopped'];
const LONG_NAME = `Nightly ${'backup-and-rotate '.repeat(20)}`.slice(0, 255);

interface Task { id: number; status: string; template_id: number }

/** What a demo template's finished task shows: log lines, Summary stages, its host recap row. */
interface Expected { template: string; log: string[]; stages: string[]; recap: string[] | null; details: string[] }

export const DEMO: Expected[] = [
  {
    template: 'Ping Site', log: ['Hello from localhost', 'PLAY RECAP'], stages: ['init', 'running', 'print_result'],
    // columns: host, ok, changed, unreachable, failed, skipped, rescued, ignored
    recap: ['localhost', '2', '0', '0', '0', '0', '0', '0'], details: ['Ping Site', 'Admin'],
  },
  { template: 'Build', log: ['Built demo site version 1.0.0 into build/index.html'], stages: ['init', 'running'], recap: null, details: ['Build', '1.0.0'] },
  {
    template: 'Deploy to Dev', log: ['Deploying demo site version 1.0.0 to dev', 'Deployed version 1.0.0 to dev'],
    stages: ['init', 'running'], recap: null, details: ['Deploy to Dev', '1.0.0'],
  },
  {
    template: 'Deploy to Production', log: ['Deploying demo site version 1.0.0 to production', 'Deployed version 1.0.0 to production'],
    stages: ['init', 'running'], recap: null, details: ['Deploy to Production', '1.0.0'],
  },
];

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
const projectIdOf = (page: Page) => Number(new URL(page.url()).pathname.split('/')[2]);
const dialog = (page: Page) => page.locator('dialog.task-log');
const stagesShown = (page: Page) => dialog(page).locator('.task-summary [data-stage]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-stage')));

/** Signs in and makes the demo project from the new-project form; answers its id. */
async function createDemoProject(page: Page, width: number): Promise<number> {
  await page.goto(`${server.url}/project/new`);
  await Promise.all([
    page.waitForURL((url) => /^\/project\/\d+\/history$/.test(url.pathname), { timeout: STEP }),
    page.getByRole('button', { name: 'Create demo project' }).click(),
  ]);
  expect(await page.locator('.project-selector summary').textContent()).toContain('Demo project');
  expect(await fitsWidth(page), `history at ${width} px`).toBe(true);
  return projectIdOf(page);
}

/** Waits until no task of the project is left unfinished (the Build's success starts Deploy to Dev). */
async function waitForQuietProject(projectId: number) {
  await expect.poll(async () => (await api.get<Task[]>(`/api/project/${projectId}/tasks`)).filter((t) => !FINISHED.includes(t.status)).length,
    { timeout: 120_000, interval: 250 }).toBe(0);
}

/** Runs a template from its row's Run button and the launch dialog; answers the new task's id. */
async function runFromList(page: Page, projectId: number, name: string): Promise<number> {
  await page.goto(`${server.url}/project/${projectId}/templates`);
  const row = page.locator('main tr[data-template]', { hasText: name }).filter({ has: page.locator(`a:text-is("${name}")`) });
  await Promise.all([page.waitForURL(/new_task=\d+/), row.locator('a.run-button').click()]);
  const launch = page.locator('dialog.launch-dialog');
  expect(await launch.locator('h2').textContent()).toBe(`Run ${name}`);
  const build = launch.locator('select[name=build_task_id]');
  if (await build.count()) {
    await page.waitForFunction(() => !document.querySelector('astro-island[ssr]'));
    // a deploy names the build it ships: the demo's one build, version 1.0.0
    const builds = await build.locator('option').allTextContents();
    expect(builds.filter((label) => label.includes('1.0.0'))).toHaveLength(1);
    await build.selectOption({ label: builds.find((label) => label.includes('1.0.0'))! });
  }
  await Promise.all([page.waitForURL(/[?&]t=\d+/, { timeout: STEP }), launch.locator('button[type=submit]').click()]);
  return Number(new URL(page.url()).searchParams.get('t'));
}

/** Opens one tab of the task dialog by its link and waits for its URL. */
async function openTab(page: Page, tab: 'Log' | 'Details' | 'Summary') {
  await dialog(page).locator('.task-log-tabs a', { hasText: tab }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('tab') ?? 'log', { timeout: 10_000 }).toBe(tab.toLowerCase());
}

/**
 * Reads each tab while the task may still run: whatever status the header shows, the tabs agree
 * with it (a task not finished has no host recap, and a Summary stage still open shows no end).
 */
async function readTabsEarly(page: Page, expected: Expected) {
  const head = dialog(page).locator('.task-log-facts .chip');
  await head.waitFor({ timeout: STEP });
  expect(await dialog(page).locator('h2').textContent()).toContain(expected.template);
  const early = await head.getAttribute('data-status');
  expect(['waiting', 'starting', 'running', 'success']).toContain(early);
  await dialog(page).locator('.log').waitFor({ timeout: STEP });
  await openTab(page, 'Details');
  expect(await dialog(page).locator('.task-details').innerText()).toContain(expected.template);
  await openTab(page, 'Summary');
  await dialog(page).locator('.task-summary').waitFor({ timeout: STEP });
  if (early !== 'success' && expected.recap) {
    // the recap is printed last; a stage list without print_result has no hosts yet
    const stages = await stagesShown(page);
    if (!stages.includes('print_result')) expect(await dialog(page).locator('.task-summary').innerText()).toContain('No host recap');
  }
  await openTab(page, 'Log');
}

/** Reads each tab once the task ended: status, log lines, details, Summary stages and recap. */
async function readTabsDone(page: Page, expected: Expected, width: number) {
  await expect.poll(() => dialog(page).locator('.task-log-facts .chip').getAttribute('data-status'), { timeout: STEP }).toBe('success');
  expect(await dialog(page).locator('.task-log-facts').innerText()).toContain('Success');
  for (const line of expected.log) {
    await expect.poll(() => dialog(page).locator('.log').innerText(), { timeout: STEP }).toContain(line);
  }
  await openTab(page, 'Details');
  const details = await dialog(page).locator('.task-details').innerText();
  for (const fact of expected.details) expect(details).toContain(fact);
  expect(await dialog(page).locator('.log').isVisible()).toBe(false);
  await openTab(page, 'Summary');
  await expect.poll(() => stagesShown(page), { timeout: STEP }).toEqual(expected.stages);
  // every stage has ended, so none shows an open duration
  expect(await dialog(page).locator('.task-summary [data-stage] td:last-child').allInnerTexts()).not.toContain('—');
  const summary = dialog(page).locator('.task-summary');
  if (expected.recap) {
    await summary.locator('[data-host=localhost]').waitFor({ timeout: STEP });
    expect(await summary.locator('[data-host=localhost] td').allInnerTexts()).toEqual(expected.recap);
  } else {
    expect(await summary.innerText()).toContain('No host recap');
  }
  expect(await fitsWidth(page), `${expected.template} summary at ${width} px`).toBe(true);
  await openTab(page, 'Log');
  expect(await dialog(page).locator('.log').isVisible()).toBe(true);
}

/** Runs one demo template from the list and reads its dialog while and after it runs. */
export async function runAndRead(page: Page, projectId: number, expected: Expected, width: number) {
  const taskId = await runFromList(page, projectId, expected.template);
  await readTabsEarly(page, expected);
  expect((await waitForTask(server.deps.db, taskId, undefined, 120_000)).status).toBe('success');
  await readTabsDone(page, expected, width);
  await screenshot(page, `first-hour-journey-${expected.template.toLowerCase().replaceAll(' ', '-')}-${width}`);
  await waitForQuietProject(projectId);
}

/** Edits the demo's variable group in Table mode: a boolean stays a boolean, a number a number. */
export async function editVariableGroup(page: Page, projectId: number, width: number) {
  await page.goto(`${server.url}/project/${projectId}/environment`);
  await Promise.all([page.waitForURL(/edit=new/), page.click('a:has-text("New variable group")')]);
  await page.fill('input[name=name]', 'Site settings');
  const json = page.locator('[data-field-editor=json]');
  const content = json.locator('.cm-content');
  await content.waitFor({ timeout: STEP });
  await content.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText('{"maintenance": false, "replicas": 2, "region": "eu"}');
  await json.locator('button:has-text("Table")').click();
  await expect.poll(() => json.getAttribute('data-mode')).toBe('table');
  expect(await json.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-type')))).toEqual(['boolean', 'number', 'string']);
  await json.getByRole('switch', { name: 'Value 1' }).check();
  await json.locator('input[aria-label="Value 2"]').fill('3');
  expect(await fitsWidth(page), `variable group at ${width} px`).toBe(true);
  await Promise.all([page.waitForURL(/flash=environment_saved/, { timeout: STEP }), page.click('dialog button:has-text("Save")')]);
  expect(await page.textContent('.snackbar')).toContain('Variable group Site settings saved');
  const groups = await api.get<{ name: string; json: string }[]>(`/api/project/${projectId}/environment`);
  expect(JSON.parse(groups.find((g) => g.name === 'Site settings')!.json)).toEqual({ maintenance: true, replicas: 3, region: 'eu' });
  expect(await page.locator('main').innerText()).toContain('Site settings');
}

/** Creates a schedule for "Ping Site" with the cron builder: weekly, Fridays at 09:30. */
export async function createSchedule(page: Page, projectId: number, width: number) {
  await page.goto(`${server.url}/project/${projectId}/schedule`);
  await Promise.all([page.waitForURL(/edit=new/), page.getByRole('button', { name: 'New schedule' }).click()]);
  await page.locator('[data-cron-builder]').waitFor({ timeout: STEP });
  await page.fill('input[name=name]', 'Weekly ping');
  await page.selectOption('select[name=template_id]', { label: 'Ping Site' });
  await page.locator('[data-cron-builder]').waitFor({ timeout: STEP });
  // a new schedule starts daily at the quiet hour; weekly keeps the hour and starts on Monday
  expect(await page.locator('[data-cron-words]').innerText()).toBe('At 03:00');
  await page.selectOption('[data-cron-mode]', 'weekly');
  expect(await page.locator('input[type=hidden][name=cron_format]').inputValue()).toBe('0 3 * * 1');
  const choice = (list: string, label: string) => page.locator(`[data-cron-list=${list}] label`, { hasText: new RegExp(`^\\s*${label}\\s*$`) });
  await choice('weekdays', 'Mon').click();
  await choice('weekdays', 'Fri').click();
  await choice('hours', '03').click();
  await choice('hours', '09').click();
  await choice('minutes', ':00').click();
  await choice('minutes', ':30').click();
  expect(await page.locator('input[type=hidden][name=cron_format]').inputValue()).toBe('30 9 * * 5');
  expect(await page.locator('[data-cron-words]').innerText()).toBe('At 09:30, on Friday');
  expect(await fitsWidth(page), `schedule dialog at ${width} px`).toBe(true);
  await Promise.all([page.waitForURL(/flash=schedule_created/, { timeout: STEP }), page.getByRole('button', { name: 'Create' }).click()]);
  const row = page.locator('tr', { hasText: 'Weekly ping' });
  expect(await row.locator('.schedule-when').innerText()).toContain('Friday');
  expect(await row.locator('[role=switch]').getAttribute('aria-checked')).toBe('true');
}

async function submitDialog(page: Page, url: RegExp) {
  await Promise.all([page.waitForURL(url, { timeout: STEP }), page.click('dialog form button[type=submit]')]);
}

/** A login-with-password key, then a static inventory using it. */
async function createKeyAndInventory(page: Page, projectId: number) {
  await page.goto(`${server.url}/project/${projectId}/keys`);
  await Promise.all([page.waitForURL(/edit=new/), page.click('text=New key')]);
  await page.check('input[name=type][value=login_password]');
  await page.fill('input[name=name]', 'Web login');
  await page.fill('input[name=login]', 'deploy');
  await page.fill('input[name=password]', 'first-hour-pass');
  await submitDialog(page, /flash=key_saved/);
  expect(await page.textContent('.snackbar')).toContain('Key Web login saved');
  expect(await page.locator('tr', { hasText: 'Web login' }).innerText()).toContain('Login with password');
  expect(await page.content()).not.toContain('first-hour-pass');

  await page.goto(`${server.url}/project/${projectId}/inventory`);
  await page.click('.new-inventory summary');
  await Promise.all([page.waitForURL(/edit=new/), page.click('.new-inventory >> text=Ansible')]);
  await page.check('input[name=type][value=static]');
  await page.fill('input[name=name]', 'Web hosts');
  await page.fill('textarea[name=content]', '[web]\nlocalhost ansible_connection=local');
  await page.selectOption('select[name=ssh_key_id]', { label: 'Web login' });
  await submitDialog(page, /flash=inventory_saved/);
  expect(await page.textContent('.snackbar')).toContain('Inventory Web hosts saved');
  expect(await page.locator('tr', { hasText: 'Web hosts' }).locator('td').nth(1).textContent()).toBe('Static');
}

/** An Ansible template named with 255 characters; the list still fits its box with Run in view. */
async function createLongTemplate(page: Page, projectId: number, width: number) {
  await page.goto(`${server.url}/project/${projectId}/templates/new/edit?app=ansible`);
  await page.fill('input[name=name]', LONG_NAME);
  await page.fill('input[name=playbook]', 'ping.yml');
  await page.selectOption('select[name=repository_id]', { label: 'Demo' });
  await page.selectOption('select[name=inventory_id]', { label: 'Web hosts' });
  await page.selectOption('select[name=environment_id]', { label: 'Site settings' });
  expect(await fitsWidth(page), `template dialog at ${width} px`).toBe(true);
  await Promise.all([page.waitForURL(/\/templates\/\d+\/tasks\?flash=template_created/, { timeout: STEP }), page.click('dialog footer button[type=submit]')]);
  expect(LONG_NAME).toHaveLength(255);
  const templates = await api.get<{ name: string }[]>(`/api/project/${projectId}/templates`);
  expect(templates.filter((tpl) => tpl.name === LONG_NAME)).toHaveLength(1);
  expect(await page.locator('h1').innerText()).toContain(LONG_NAME.slice(0, 40));
  expect(await fitsWidth(page), `template page at ${width} px`).toBe(true);

  await page.goto(`${server.url}/project/${projectId}/templates`);
  const row = page.locator('main tr[data-template]', { hasText: 'Nightly backup' });
  expect(await row.count()).toBe(1);
  expect(await fitsWidth(page), `templates list at ${width} px`).toBe(true);
  // the table's own box does not scroll sideways either
  const box = await page.locator('main .data-table').evaluate((table) => {
    const scroller = table.closest('.table-scroll') ?? table.parentElement!;
    return { scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth };
  });
  expect(box.scrollWidth, `templates table box at ${width} px`).toBeLessThanOrEqual(box.clientWidth);
  // the row's chevron stays beside the long name, not on a line of its own above it
  const chevron = (await row.locator('.row-expand').boundingBox())!;
  const name = (await row.locator('a.clamp').boundingBox())!;
  expect(chevron.x + chevron.width).toBeLessThanOrEqual(name.x);
  expect(chevron.y).toBeGreaterThanOrEqual(name.y);
  expect(chevron.y).toBeLessThan(name.y + 20);
  const run = row.locator('a.run-button');
  const runBox = (await run.boundingBox())!;
  expect(runBox.x).toBeGreaterThanOrEqual(0);
  expect(runBox.x + runBox.width).toBeLessThanOrEqual(width);
  expect(await run.isVisible()).toBe(true);
  await screenshot(page, `first-hour-journey-templates-${width}`);
}

/** Views named short and long: every short one keeps its whole name, the strip never widens the page. */
async function checkViewTabs(page: Page, projectId: number, width: number) {
  await api.send('POST', `/api/project/${projectId}/views`, { title: 'Ops', position: 0 });
  await api.send('POST', `/api/project/${projectId}/views`, { title: LONG_NAME, position: 1 });
  await page.goto(`${server.url}/project/${projectId}/templates`);
  const tabs = page.locator('main .view-tabs a');
  expect(await tabs.allInnerTexts()).toEqual(expect.arrayContaining(['All', 'Ops']));
  const cut = await tabs.evaluateAll((links) => links.filter((a) => a.scrollWidth > a.clientWidth + 1).map((a) => a.textContent));
  expect(cut, `view tabs cut at ${width} px`).toEqual([LONG_NAME]);
  expect(await fitsWidth(page), `view tabs at ${width} px`).toBe(true);
}

/**
 * Signs in at `width`, makes the demo project, takes the `firstSteps`, then creates a key, an
 * inventory and a long-named template; no page error may be thrown on the way.
 */
export async function journey(width: number, firstSteps: (page: Page, projectId: number) => Promise<void>) {
  const page = await signedInPage(browser, server.url, width);
  page.setDefaultTimeout(30_000);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  const projectId = await createDemoProject(page, width);
  await firstSteps(page, projectId);
  await createKeyAndInventory(page, projectId);
  await createLongTemplate(page, projectId, width);
  await checkViewTabs(page, projectId, width);
  expect(errors).toEqual([]);
  await page.context().close();
}
